import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PlainCallout } from '../ui/Plain.js';

/** /custom?url=&name=: an external page from a type-4 menu entry, inside the console. */
export function CustomPage() {
  const [search] = useSearchParams();
  const { t } = useTranslation('core');
  const url = search.get('url');
  if (!url) return <PlainCallout intent="warning">{t('custom.missingUrl')}</PlainCallout>;
  return <iframe className="lp-custom-frame" title={search.get('name') ?? url} src={url} data-testid="custom-frame" />;
}
