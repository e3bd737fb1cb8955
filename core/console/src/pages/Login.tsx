import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { AuthMessages } from '../../../../plugin-sdk/src/shared/envelope.js';
import { useKernel } from '../container.js';
import { encryptPassword } from '../auth/crypto.js';
import { ApiCallError } from '../http/client.js';
import { useDocumentTitle } from '../shell/title.js';
import { bp } from '../ui/bp.js';
import { PlainButton, PlainCallout } from '../ui/Plain.js';

/** Only same-site paths are followed after sign-in. */
export function safeRedirect(target: string | null): string {
  return target && target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/login') ? target : '/';
}

export function Login() {
  const { access, company } = useKernel();
  const { t } = useTranslation('core');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useDocumentTitle(t('screen.login'), company.siteTitle);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!username.trim() || !password) {
      setError(t('login.required'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const publicKey = await access.fetchPublicKey();
      const env = await access.login(username, await encryptPassword(password, publicKey), publicKey);
      if (env.code !== 200) {
        setError(env.msg || t('http.error'));
        return;
      }
      void navigate(safeRedirect(search.get('redirect')), { replace: true });
    } catch (err) {
      const bad = err instanceof ApiCallError && err.code === 304 && err.msg === AuthMessages.BAD_CREDENTIALS;
      setError(bad ? t('login.wrong') : t('login.failed', { reason: (err as Error).message }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="lp-login">
      <div className={`${bp.card} lp-login-card`}>
        {company.logo ? <img className="lp-login-logo" src={company.logo} alt="" /> : null}
        <h2 className={bp.heading}>{t('login.title')}</h2>
        <form onSubmit={(e) => void submit(e)} noValidate>
          <div className={bp.formGroup}>
            <label className={bp.label} htmlFor="lp-username">{t('login.username')}</label>
            <div className={bp.inputGroup}>
              <input id="lp-username" className={bp.input} data-testid="login-username" autoComplete="username" placeholder={t('login.usernamePlaceholder')} value={username} onChange={(e) => setUsername(e.target.value)} />
            </div>
          </div>
          <div className={bp.formGroup}>
            <label className={bp.label} htmlFor="lp-password">{t('login.password')}</label>
            <div className={bp.inputGroup}>
              <input id="lp-password" className={bp.input} data-testid="login-password" type="password" autoComplete="current-password" placeholder={t('login.passwordPlaceholder')} value={password} onChange={(e) => setPassword(e.target.value)} />
            </div>
          </div>
          {error ? <PlainCallout intent="danger" data-testid="login-error" className="lp-login-error">{error}</PlainCallout> : null}
          <PlainButton type="submit" intent="primary" fill busy={busy} data-testid="login-submit" text={busy ? t('login.submitting') : t('login.submit')} />
        </form>
      </div>
    </div>
  );
}
