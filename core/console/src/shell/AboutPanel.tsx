import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKernel } from '../container.js';

export interface ContactItem {
  configKey?: string;
  configName: string;
  configValue: string;
}

/** The four contact-us pairs (GET /systemConfig/getContactUsInfo), fetched each time the panel opens. */
export function useContactItems(load = true): ContactItem[] | null {
  const { http, i18n } = useKernel();
  const [items, setItems] = useState<ContactItem[] | null>(null);
  useEffect(() => {
    if (!load) return;
    let live = true;
    http
      .get<ContactItem[]>('/systemConfig/getContactUsInfo', { silent: true })
      .then((list) => live && setItems(list ?? []))
      .catch(() => live && setItems([]));
    return () => {
      live = false;
    };
  }, [http, load, i18n.language]);
  return items;
}

export function ContactList({ items }: { items: ContactItem[] | null }) {
  const { t } = useTranslation('core');
  if (items === null) return <p className="lp-muted">{t('app.loading')}</p>;
  return (
    <dl className="lp-contact-list" data-testid="contact-list">
      {items.map((c) => (
        <div key={c.configKey ?? c.configName} className="lp-contact-row">
          <dt>{c.configName}</dt>
          <dd>{c.configValue || t('about.notSet')}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Set by the host build from the repository's package.json. */
declare const __PRODUCT_VERSION__: string | undefined;
export const PRODUCT_VERSION = typeof __PRODUCT_VERSION__ === 'string' ? __PRODUCT_VERSION__ : '';

export function AboutPanel() {
  const { t } = useTranslation('core');
  const items = useContactItems();
  return (
    <div className="lp-panel" data-testid="about-panel" role="dialog" aria-label={t('about.title')}>
      <h4 className="bp6-heading">{t('about.title')}</h4>
      {PRODUCT_VERSION ? <p className="lp-muted" data-testid="about-version">{t('about.version', { version: PRODUCT_VERSION })}</p> : null}
      <ContactList items={items} />
    </div>
  );
}
