import { useTranslation } from 'react-i18next';
import { PlainNonIdeal } from '../ui/Plain.js';

/** The signed-in user has no menu that leads to an installed plugin. */
export function EmptyState() {
  const { t } = useTranslation('core');
  return (
    <div className="lp-empty">
      <PlainNonIdeal testId="shell-empty" title={t('shell.emptyTitle')} description={t('shell.emptyBody')} />
    </div>
  );
}
