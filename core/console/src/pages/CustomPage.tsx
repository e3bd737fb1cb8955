import { Callout } from '@blueprintjs/core';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

/** /custom?url=&name=: an external page from a type-4 menu entry, inside the console. */
export function CustomPage() {
  const [search] = useSearchParams();
  const { t } = useTranslation('core');
  const url = search.get('url');
  if (!url) return <Callout intent="warning">{t('custom.missingUrl')}</Callout>;
  return <iframe className="lp-custom-frame" title={search.get('name') ?? url} src={url} data-testid="custom-frame" />;
}
