import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useKernel } from '../container.js';
import { useDocumentTitle } from '../shell/title.js';
import { PlainButton, PlainNonIdeal } from '../ui/Plain.js';

/** The shared look of /404 and /401: they sit outside the layout shell. */
export function StatusPage({ prefix, screen, testId }: { prefix: 'notFound' | 'unauthorized'; screen: string; testId: string }) {
  const { t } = useTranslation('core');
  const { company } = useKernel();
  const navigate = useNavigate();
  useDocumentTitle(t(screen), company.siteTitle);
  return (
    <div className="lp-status-page">
      <PlainNonIdeal
        testId={testId}
        title={t(`${prefix}.title`)}
        description={t(`${prefix}.body`)}
        action={<PlainButton intent="primary" text={t(`${prefix}.home`)} onClick={() => void navigate('/')} />}
      />
    </div>
  );
}
