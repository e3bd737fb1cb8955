import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useKernel } from '../container.js';
import { useDocumentTitle } from '../shell/title.js';
import { bp } from '../ui/bp.js';
import { PlainButton, PlainCallout } from '../ui/Plain.js';
import { safeRedirect } from './Login.js';

/** Department pick after sign-in; a user with one department goes straight on. */
export function LoginSelect() {
  const { access, session, company } = useKernel();
  const { t } = useTranslation('core');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [busy, setBusy] = useState<number | null>(null);
  const auto = useRef(false);
  useDocumentTitle(t('screen.loginSelect'), company.siteTitle);
  const departments = session.departments;

  async function choose(id: number) {
    setBusy(id);
    try {
      await access.switchDepartment(id);
      void navigate(safeRedirect(search.get('redirect')), { replace: true });
    } catch {
      setBusy(null);
    }
  }

  useEffect(() => {
    if (departments.length === 1 && !auto.current) {
      auto.current = true;
      void choose(departments[0].id);
    }
  }, [departments.length]);

  return (
    <div className="lp-login">
      <div className={`${bp.card} lp-login-card`} data-testid="login-select">
        <h2 className={bp.heading}>{t('loginSelect.title')}</h2>
        {departments.length === 0 ? (
          <PlainCallout intent="warning">{t('loginSelect.none')}</PlainCallout>
        ) : (
          <>
            <p className="lp-muted">{t('loginSelect.hint')}</p>
            <div className="lp-department-list">
              {departments.map((d) => (
                <PlainButton key={d.id} fill busy={busy === d.id} disabled={busy !== null} onClick={() => void choose(d.id)} data-testid={`department-${d.id}`} text={d.departmentName} />
              ))}
            </div>
          </>
        )}
        <PlainButton minimal text={t('loginSelect.backToLogin')} onClick={() => void access.logout().then(() => navigate('/login'))} />
      </div>
    </div>
  );
}
