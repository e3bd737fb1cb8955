import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Codes, isAuthMessage } from '../../../../plugin-sdk/src/shared/envelope.js';
import { useKernel } from '../container.js';
import { encryptPassword } from '../auth/crypto.js';
import { loginExpiredRecently } from '../auth/expired.js';
import { ApiCallError } from '../http/client.js';
import { ContactList, useContactItems } from '../shell/AboutPanel.js';
import { useDocumentTitle } from '../shell/title.js';
import { bp } from '../ui/bp.js';
import { PlainButton, PlainCallout, PlainDialog } from '../ui/Plain.js';
import { ForcePasswordDialog } from './login/ForcePasswordDialog.js';
import { loadLoginFlags, SSO_STATE_KEY, toSsoPage, type LoginFlags } from './login/public-api.js';
import { RegisterDialog } from './login/RegisterDialog.js';
import { SliderPuzzle } from './login/SliderPuzzle.js';
import { LOCALES, switchLocale } from '../i18n.js';
import type { Locale } from '@linguaport/sdk/shared';

const LOCALE_LABELS: Record<Locale, string> = { 'zh-CN': '中文', 'en-US': 'English' };

/** Only same-site paths are followed after sign-in. */
export function safeRedirect(target: string | null): string {
  return target && target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/login') ? target : '/';
}

type Overlay = null | 'forgot' | 'register' | { force: { username: string; password: string } };

export function Login() {
  const { access, company, http, notifier } = useKernel();
  const { t, i18n } = useTranslation('core');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [symbol, setSymbol] = useState('');
  const [ticket, setTicket] = useState<string | null>(null);
  const [sliderKey, setSliderKey] = useState(0);
  // After too many failures the server asks for the puzzle even when the landing flag is off.
  const [challenged, setChallenged] = useState(false);
  const [flags, setFlags] = useState<LoginFlags | null>(null);
  const [busy, setBusy] = useState<null | 'login' | 'guest' | 'sso'>(null);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [expired] = useState(() => loginExpiredRecently());
  const [overlay, setOverlay] = useState<Overlay>(null);
  useDocumentTitle(t('screen.login'), company.siteTitle);

  useEffect(() => {
    void loadLoginFlags(http).then(setFlags);
  }, [http]);

  const enter = () => void navigate(safeRedirect(search.get('redirect')), { replace: true });

  /** The days-left warning of the password policy, once after a successful sign-in. */
  const warnPasswordAge = () =>
    http
      .get<{ need: boolean; daysLeft: number | null; warn: boolean }>('/user/isNeedUpdatePassword', { silent: true })
      .then((s) => s.warn && s.daysLeft !== null && notifier.warning(t('password.daysLeft', { count: s.daysLeft })))
      .catch(() => {});

  async function submit(e: FormEvent) {
    e.preventDefault();
    // The flags decide the fields (domain, puzzle), so the button stays disabled until they are
    // known: the domain field they may add moves the button, and a click in between hits nothing.
    if (!flags) return;
    if (!username.trim() || !password) return setError(t('login.required'));
    const needSlider = !!flags?.slider || challenged;
    if (needSlider && !ticket) return setError(t('slider.first'));
    setBusy('login');
    setError(null);
    setInfo(null);
    try {
      const publicKey = await access.fetchPublicKey();
      const env = await access.login(username, await encryptPassword(password, publicKey), publicKey, { symbol, ticket: ticket ?? undefined });
      if (env.code === Codes.LOGIN_NEEDS_ACTION && (env.data as { reason?: string } | null)?.reason === 'password') {
        setOverlay({ force: { username: username.trim(), password } });
        return;
      }
      if (env.code !== 200) return setError(env.msg || t('http.error'));
      void warnPasswordAge();
      enter();
    } catch (err) {
      const bad = err instanceof ApiCallError && err.code === 304 && isAuthMessage(err.msg, 'BAD_CREDENTIALS');
      if (err instanceof ApiCallError && (err.envelope?.data as { challenge?: string } | null)?.challenge === 'slider') {
        setChallenged(true);
        return setError(t('slider.challenge'));
      }
      setError(bad ? t('login.wrong') : t('login.failed', { reason: err instanceof ApiCallError ? err.msg : (err as Error).message }));
    } finally {
      setBusy(null);
      // A ticket is good for one attempt: a new puzzle after each try.
      if (needSlider) {
        setTicket(null);
        setSliderKey((k) => k + 1);
      }
    }
  }

  async function guest() {
    setBusy('guest');
    setError(null);
    try {
      const { token } = await http.get<{ token: string }>('/user/getGuestUser');
      access.startWithToken(token);
      enter();
    } catch (err) {
      setError(t('login.failed', { reason: err instanceof ApiCallError ? err.msg : (err as Error).message }));
    } finally {
      setBusy(null);
    }
  }

  async function sso() {
    setBusy('sso');
    setError(null);
    try {
      const page = toSsoPage(await http.get('/sso/client/getSSOLoginPage', { silent: true }));
      if (!page) throw new Error(t('sso.unavailable'));
      if (page.state) localStorage.setItem(SSO_STATE_KEY, page.state);
      localStorage.setItem(`${SSO_STATE_KEY}.redirect`, safeRedirect(search.get('redirect')));
      window.location.assign(page.url);
    } catch (err) {
      setError(t('sso.failed', { reason: err instanceof ApiCallError ? err.msg : (err as Error).message }));
      setBusy(null);
    }
  }

  return (
    <div className="lp-login">
      <div className={`${bp.card} lp-login-card`}>
        <div className="lp-login-locale">
          <select aria-label={t('shell.language')} value={i18n.language} onChange={(e) => void switchLocale(i18n, e.currentTarget.value as Locale)} data-testid="login-locale">
            {LOCALES.map((l) => (
              <option key={l} value={l}>{LOCALE_LABELS[l]}</option>
            ))}
          </select>
        </div>
        {company.logo ? <img className="lp-login-logo" src={company.logo} alt="" /> : null}
        <h2 className={bp.heading}>{t('login.title')}</h2>
        {expired ? <PlainCallout intent="warning" data-testid="login-expired" className="lp-login-error">{t('http.loginExpired')}</PlainCallout> : null}
        {info ? <PlainCallout intent="warning" data-testid="login-info" className="lp-login-error">{info}</PlainCallout> : null}
        <form onSubmit={(e) => void submit(e)} noValidate>
          {flags?.symbols.length ? (
            <div className={bp.formGroup}>
              <label className={bp.label} htmlFor="lp-symbol">{t('login.domain')}</label>
              <div className="bp6-html-select bp6-fill">
                <select id="lp-symbol" value={symbol} onChange={(e) => setSymbol(e.target.value)} data-testid="login-symbol">
                  <option value="">{t('login.localAccount')}</option>
                  {flags.symbols.map((s) => <option key={s.symbol} value={s.symbol}>{s.name}</option>)}
                </select>
              </div>
            </div>
          ) : null}
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
          {flags?.slider || challenged ? <SliderPuzzle key={sliderKey} onTicket={setTicket} /> : null}
          {error ? <PlainCallout intent="danger" data-testid="login-error" className="lp-login-error">{error}</PlainCallout> : null}
          <PlainButton type="submit" intent="primary" fill busy={busy === 'login'} disabled={flags === null || (busy !== null && busy !== 'login')} data-testid="login-submit" text={busy === 'login' ? t('login.submitting') : t('login.submit')} />
        </form>
        <div className="lp-login-links">
          <PlainButton minimal text={t('login.forgot')} onClick={() => setOverlay('forgot')} data-testid="login-forgot" />
          {flags?.register ? <PlainButton minimal text={t('login.register')} onClick={() => setOverlay('register')} data-testid="login-register" /> : null}
        </div>
        <div className="lp-login-alt">
          {flags?.sso ? <PlainButton fill busy={busy === 'sso'} disabled={busy !== null} text={t('login.sso')} onClick={() => void sso()} data-testid="login-sso" /> : null}
          {flags?.guest ? <PlainButton fill busy={busy === 'guest'} disabled={busy !== null} text={t('login.guest')} onClick={() => void guest()} data-testid="login-guest" /> : null}
        </div>
      </div>
      {overlay === 'forgot' ? <ForgotDialog onClose={() => setOverlay(null)} /> : null}
      {overlay === 'register' ? (
        <RegisterDialog
          onCancel={() => setOverlay(null)}
          onDone={(name, status) => {
            setOverlay(null);
            setUsername(name);
            setPassword('');
            setInfo(status === 'checked' ? t('register.done') : t('register.pending'));
          }}
        />
      ) : null}
      {overlay && typeof overlay === 'object' ? (
        <ForcePasswordDialog
          username={overlay.force.username}
          oldPassword={overlay.force.password}
          onCancel={() => setOverlay(null)}
          onDone={(next) => {
            setOverlay(null);
            setPassword(next);
            setInfo(t('password.changedSignIn'));
          }}
        />
      ) : null}
    </div>
  );
}

/** Forgot password: accounts are kept by administrators, so the page says whom to contact. */
function ForgotDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('core');
  const items = useContactItems();
  return (
    <PlainDialog title={t('forgot.title')} testId="forgot-dialog">
      <p>{t('forgot.body')}</p>
      <ContactList items={items} />
      <div className="lp-dialog-actions">
        <PlainButton intent="primary" text={t('app.ok')} onClick={onClose} data-testid="forgot-close" />
      </div>
    </PlainDialog>
  );
}
