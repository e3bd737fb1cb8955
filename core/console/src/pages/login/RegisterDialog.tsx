import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKernel } from '../../container.js';
import { encryptPassword } from '../../auth/crypto.js';
import { ApiCallError } from '../../http/client.js';
import type { Department } from '../../auth/types.js';
import { bp } from '../../ui/bp.js';
import { PlainButton, PlainCallout, PlainDialog, PlainField } from '../../ui/Plain.js';

/** Self-registration (only while isAllowRegister is on): account, name, password (RSA like login), department pick. */
export function RegisterDialog({ onDone, onCancel }: { onDone(username: string, status: string): void; onCancel(): void }) {
  const { http, access } = useKernel();
  const { t } = useTranslation('core');
  const [departments, setDepartments] = useState<Department[]>([]);
  const [form, setForm] = useState({ username: '', realName: '', email: '', password: '', confirm: '', departmentId: '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });

  useEffect(() => {
    http.get<Department[]>('/user/registerDepartments', { silent: true }).then(
      (list) => {
        setDepartments(list ?? []);
        if (list?.length) setForm((f) => ({ ...f, departmentId: f.departmentId || String(list[0]!.id) }));
      },
      (e) => setError(e instanceof ApiCallError ? e.msg : t('http.error')),
    );
  }, [http]);

  async function submit() {
    if (!form.username.trim() || !form.realName.trim() || !form.password || !form.departmentId) return setError(t('register.required'));
    if (form.password !== form.confirm) return setError(t('password.mismatch'));
    setBusy(true);
    setError(null);
    try {
      const publicKey = await access.fetchPublicKey();
      const r = await http.post<{ userId: number; status: string }>(
        '/user/register',
        { username: form.username.trim(), realName: form.realName.trim(), email: form.email.trim(), password: await encryptPassword(form.password, publicKey), publicKey, departmentId: Number(form.departmentId) },
        { silent: true },
      );
      onDone(form.username.trim(), r.status);
    } catch (e) {
      setError(e instanceof ApiCallError ? e.msg : (e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <PlainDialog title={t('register.title')} testId="register-dialog">
      <PlainField id="lp-reg-username" label={t('login.username')}>
        <input id="lp-reg-username" className={bp.input} value={form.username} onChange={set('username')} data-testid="register-username" />
      </PlainField>
      <PlainField id="lp-reg-realName" label={t('account.realName')}>
        <input id="lp-reg-realName" className={bp.input} value={form.realName} onChange={set('realName')} data-testid="register-realName" />
      </PlainField>
      <PlainField id="lp-reg-email" label={t('account.email')}>
        <input id="lp-reg-email" className={bp.input} value={form.email} onChange={set('email')} data-testid="register-email" />
      </PlainField>
      <PlainField id="lp-reg-password" label={t('login.password')}>
        <input id="lp-reg-password" className={bp.input} type="password" value={form.password} onChange={set('password')} data-testid="register-password" />
      </PlainField>
      <div className="lp-muted">{t('password.rule')}</div>
      <PlainField id="lp-reg-confirm" label={t('password.confirm')}>
        <input id="lp-reg-confirm" className={bp.input} type="password" value={form.confirm} onChange={set('confirm')} data-testid="register-confirm" />
      </PlainField>
      <PlainField id="lp-reg-department" label={t('shell.department')}>
        <div className="bp6-html-select bp6-fill">
          <select id="lp-reg-department" value={form.departmentId} onChange={set('departmentId')} data-testid="register-department">
            {departments.map((d) => <option key={d.id} value={d.id}>{d.departmentName}</option>)}
          </select>
        </div>
      </PlainField>
      {error ? <PlainCallout intent="danger" data-testid="register-error">{error}</PlainCallout> : null}
      <div className="lp-dialog-actions">
        <PlainButton text={t('app.cancel')} onClick={onCancel} data-testid="register-cancel" />
        <PlainButton intent="primary" busy={busy} text={t('register.submit')} onClick={() => void submit()} data-testid="register-submit" />
      </div>
    </PlainDialog>
  );
}
