import { NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

/** The signed-in user has no menu that leads to an installed plugin. */
export function EmptyState() {
  const { t } = useTranslation('core');
  return <NonIdealState className="lp-empty" title={t('shell.emptyTitle')} description={t('shell.emptyBody')} data-testid="shell-empty" />;
}
