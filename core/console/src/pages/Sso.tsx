import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Codes } from '../../../../plugin-sdk/src/shared/envelope.js';
import { useKernel } from '../container.js';
import { ApiCallError } from '../http/client.js';
import { useDocumentTitle } from '../shell/title.js';
import { bp } from '../ui/bp.js';
import { PlainButton, PlainCallout } from '../ui/Plain.js';
import { safeRedirect } from './Login.js';
import { SSO_STATE_KEY } from './login/public-api.js';

export const SSO_POLL_MS = 1000;
export const SSO_POLL_LIMIT = 90;

/**
 * Where the identity provider sends the browser back (the server's /sso/login redirects to
 * /sso?ticket=). The page asks GET /sso/client/getSSOStatus?ticket until the sign-in is settled: 4015 means "not yet" and is polled
 * again silently; 200 carries the token; 4014 carries a message for the user.
 */
export function Sso() {
  const { http, access, company } = useKernel();
  const { t } = useTranslation('core');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  useDocumentTitle(t('screen.sso'), company.siteTitle);

  useEffect(() => {
    let live = true;
    const ticket = search.get('ticket') ?? localStorage.getItem(SSO_STATE_KEY);
    const redirect = safeRedirect(search.get('redirect') ?? localStorage.getItem(`${SSO_STATE_KEY}.redirect`));
    const done = (token: string) => {
      localStorage.removeItem(SSO_STATE_KEY);
      localStorage.removeItem(`${SSO_STATE_KEY}.redirect`);
      access.startWithToken(token);
      void navigate(redirect, { replace: true });
    };
    const refused = search.get('error');
    if (refused || !ticket) {
      setError(refused ? t('sso.failed', { reason: refused }) : t('sso.noTicket'));
      return;
    }
    const poll = async (attempt: number) => {
      if (!live) return;
      try {
        const env = await http.request<{ token?: string }>({ method: 'GET', url: '/sso/client/getSSOStatus', params: { ticket }, silent: true });
        if (!live) return;
        if (env.code === 200 && env.data?.token) return done(env.data.token);
        if (env.code === Codes.SSO_PENDING && attempt < SSO_POLL_LIMIT) {
          setTimeout(() => void poll(attempt + 1), SSO_POLL_MS);
          return;
        }
        setError(env.code === Codes.SSO_PENDING ? t('sso.timeout') : env.msg || t('http.error'));
      } catch (e) {
        if (live) setError(e instanceof ApiCallError ? e.msg : (e as Error).message);
      }
    };
    void poll(0);
    return () => {
      live = false;
    };
  }, []);

  return (
    <div className="lp-login">
      <div className={`${bp.card} lp-login-card`} data-testid="sso-page">
        <h2 className={bp.heading}>{t('screen.sso')}</h2>
        {error ? (
          <>
            <PlainCallout intent="danger" data-testid="sso-error">{error}</PlainCallout>
            <PlainButton minimal text={t('loginSelect.backToLogin')} onClick={() => void navigate('/login', { replace: true })} />
          </>
        ) : (
          <p className="lp-muted">{t('sso.waiting')}</p>
        )}
      </div>
    </div>
  );
}
