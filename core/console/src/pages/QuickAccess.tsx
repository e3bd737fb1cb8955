import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useKernel } from '../container.js';
import { ApiCallError } from '../http/client.js';
import { useDocumentTitle } from '../shell/title.js';
import { bp } from '../ui/bp.js';
import { PlainButton, PlainCallout } from '../ui/Plain.js';
import { safeRedirect } from './Login.js';

/**
 * A signed link that signs a user into one page: GET /quickAccess/login?token= answers a session and
 * the page to open. An expired or altered link shows its message here; the page is not reloaded
 * (spec 01 2.1).
 */
export function QuickAccess() {
  const { http, access, company, session } = useKernel();
  const { t } = useTranslation('core');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  useDocumentTitle(t('screen.quickAccess'), company.siteTitle);

  useEffect(() => {
    const token = search.get('token');
    if (!token) return setError(t('quickAccess.missing'));
    let live = true;
    http.get<{ token: string; path?: string }>('/quickAccess/login', { params: { token }, silent: true }).then(
      async (r) => {
        if (!live) return;
        access.startWithToken(r.token);
        // A quick-access session is bound to one page in the department the server chose: no
        // department pick (and no switch, which would drop the page scope).
        try {
          const info = await http.get<{ currentDepartmentId?: number | null }>('/user/getUserInfoByToken', { silent: true });
          if (info?.currentDepartmentId) session.chooseDepartment(info.currentDepartmentId);
        } catch {
          // The guard asks again and explains.
        }
        if (live) void navigate(safeRedirect(r.path ?? search.get('redirect')), { replace: true });
      },
      (e) => live && setError(e instanceof ApiCallError ? e.msg : (e as Error).message),
    );
    return () => {
      live = false;
    };
  }, []);

  return (
    <div className="lp-login">
      <div className={`${bp.card} lp-login-card`} data-testid="quick-access">
        <h2 className={bp.heading}>{t('screen.quickAccess')}</h2>
        {error ? (
          <>
            <PlainCallout intent="danger" data-testid="quick-access-error">{error}</PlainCallout>
            <PlainButton minimal text={t('loginSelect.backToLogin')} onClick={() => void navigate('/login', { replace: true })} />
          </>
        ) : (
          <p className="lp-muted">{t('app.loading')}</p>
        )}
      </div>
    </div>
  );
}
