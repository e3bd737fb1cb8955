import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKernel } from '../../container.js';
import { ApiCallError } from '../../http/client.js';
import { isAuthMessage } from '../../../../../plugin-sdk/src/shared/envelope.js';
import { bp } from '../../ui/bp.js';
import { PlainButton, PlainCallout, PlainDialog, PlainField } from '../../ui/Plain.js';

/**
 * Login answered 4014 because the password expired or must be changed: set a new one here
 * (GET /user/updatePasswordForced, the account named by username since there is no session yet),
 * then sign in with it.
 */
export function ForcePasswordDialog({ username, oldPassword, onDone, onCancel }: { username: string; oldPassword: string; onDone(newPassword: string): void; onCancel(): void }) {
  const { access } = useKernel();
  const { t } = useTranslation('core');
  const [old, setOld] = useState(oldPassword);
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit() {
    if (!old || !next) return setError(t('password.required'));
    if (next !== confirm) return setError(t('password.mismatch'));
    setBusy(true);
    setError(null);
    try {
      await access.changePassword(old, next, username);
      onDone(next);
    } catch (e) {
      const msg = e instanceof ApiCallError ? e.msg : (e as Error).message;
      setError(isAuthMessage(msg, 'BAD_CREDENTIALS') ? t('password.wrongOld') : msg);
    } finally {
      setBusy(false);
    }
  }

  return (
    <PlainDialog title={t('password.forcedTitle')} testId="force-password-dialog">
      <p>{t('password.forcedBody')}</p>
      <PlainField id="lp-fp-old" label={t('password.old')}>
        <input id="lp-fp-old" className={bp.input} type="password" value={old} onChange={(e) => setOld(e.target.value)} data-testid="force-old" />
      </PlainField>
      <PlainField id="lp-fp-new" label={t('password.new')}>
        <input id="lp-fp-new" className={bp.input} type="password" value={next} onChange={(e) => setNext(e.target.value)} data-testid="force-new" />
      </PlainField>
      <div className="lp-muted">{t('password.rule')}</div>
      <PlainField id="lp-fp-confirm" label={t('password.confirm')}>
        <input id="lp-fp-confirm" className={bp.input} type="password" value={confirm} onChange={(e) => setConfirm(e.target.value)} data-testid="force-confirm" />
      </PlainField>
      {error ? <PlainCallout intent="danger" data-testid="force-error">{error}</PlainCallout> : null}
      <div className="lp-dialog-actions">
        <PlainButton text={t('app.cancel')} onClick={onCancel} />
        <PlainButton intent="primary" busy={busy} text={t('password.submit')} onClick={() => void submit()} data-testid="force-submit" />
      </div>
    </PlainDialog>
  );
}
