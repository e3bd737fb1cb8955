import { Alert, Button, Callout, Dialog, DialogBody, FormGroup, InputGroup, Tab, Tabs } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKernel } from '../container.js';
import { encryptPassword } from '../auth/crypto.js';
import { ApiCallError } from '../http/client.js';
import { LOCAL_USER_TYPE } from './UserPanel.js';
import { formatDate } from '@linguaport/sdk/shared';

export type AccountTab = 'basic' | 'password' | 'apiKey';
export const API_KEY_MASK = '*'.repeat(16);

const errorText = (e: unknown) => (e instanceof ApiCallError ? e.msg : (e as Error).message);

/** The user's settings dialog (spec 01 2.7): basic info, password change, API key. Dialogs do not close on an outside click. */
export function AccountDialog({ tab, onTab, onClose }: { tab: AccountTab; onTab(t: AccountTab): void; onClose(): void }) {
  const { t } = useTranslation('core');
  return (
    <Dialog isOpen onClose={onClose} title={t('user.settings')} canOutsideClickClose={false} style={{ width: 600 }} data-testid="account-dialog">
      <DialogBody>
        <Tabs id="lp-account" selectedTabId={tab} onChange={(id) => onTab(id as AccountTab)}>
          <Tab id="basic" title={t('account.basic')} panel={<BasicInfo />} />
          <Tab id="password" title={t('account.password')} panel={<PasswordChange />} />
          <Tab id="apiKey" title={t('account.apiKey')} panel={<ApiKey />} />
        </Tabs>
      </DialogBody>
    </Dialog>
  );
}

function BasicInfo() {
  const { t } = useTranslation('core');
  const { http, session, notifier, access } = useKernel();
  const info = session.userInfo?.user as (NonNullable<typeof session.userInfo>['user'] & { email?: string | null; phone?: string | null }) | undefined;
  const editable = info?.userType === LOCAL_USER_TYPE;
  const [realName, setRealName] = useState(info?.realName ?? '');
  const [email, setEmail] = useState(info?.email ?? '');
  const [phone, setPhone] = useState(info?.phone ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save() {
    setBusy(true);
    setError(null);
    try {
      await http.put('/user/updateOwnProfile', { realName, email, phone }, { silent: true });
      const fresh = await http.get<NonNullable<typeof session.userInfo>>('/user/getUserInfoByToken');
      session.setUserInfo(fresh);
      notifier.success(t('account.saved'));
      void access;
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div data-testid="account-basic">
      <FormGroup label={t('account.username')}><InputGroup value={info?.username ?? ''} disabled /></FormGroup>
      <FormGroup label={t('account.realName')}><InputGroup value={realName} disabled={!editable} onValueChange={setRealName} data-testid="account-realName" /></FormGroup>
      <FormGroup label={t('account.email')}><InputGroup value={email} disabled={!editable} onValueChange={setEmail} /></FormGroup>
      <FormGroup label={t('account.phone')}><InputGroup value={phone} disabled={!editable} onValueChange={setPhone} /></FormGroup>
      {!editable ? <Callout intent="primary">{t('account.notEditable')}</Callout> : null}
      {error ? <Callout intent="danger" data-testid="account-error">{error}</Callout> : null}
      {editable ? <Button intent="primary" text={t('account.save')} loading={busy} onClick={() => void save()} data-testid="account-save" /> : null}
    </div>
  );
}

function PasswordChange() {
  const { t } = useTranslation('core');
  const { access, notifier } = useKernel();
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit() {
    if (newPassword !== confirm) return setError(t('password.mismatch'));
    if (!oldPassword || !newPassword) return setError(t('password.required'));
    setBusy(true);
    setError(null);
    try {
      await access.changePassword(oldPassword, newPassword);
      notifier.success(t('password.changed'));
      setOld('');
      setNew('');
      setConfirm('');
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div data-testid="account-password">
      <FormGroup label={t('password.old')}><InputGroup type="password" value={oldPassword} onValueChange={setOld} data-testid="password-old" /></FormGroup>
      <FormGroup label={t('password.new')} helperText={t('password.rule')}><InputGroup type="password" value={newPassword} onValueChange={setNew} data-testid="password-new" /></FormGroup>
      <FormGroup label={t('password.confirm')}><InputGroup type="password" value={confirm} onValueChange={setConfirm} data-testid="password-confirm" /></FormGroup>
      {error ? <Callout intent="danger" data-testid="password-error">{error}</Callout> : null}
      <Button intent="primary" text={t('password.submit')} loading={busy} onClick={() => void submit()} data-testid="password-submit" />
    </div>
  );
}

function ApiKey() {
  const { t } = useTranslation('core');
  const { http, session, notifier } = useKernel();
  const userId = session.userInfo?.user.id;
  const [key, setKey] = useState<string | null>(null);
  const [visible, setVisible] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    http.get<{ apiKey: string | null }>('/user/getApiKey', { silent: true }).then((r) => setKey(r.apiKey ?? ''), (e) => setError(errorText(e)));
    if (userId) {
      http
        .get<{ allowed: boolean; nextAllowedAt: string | null }>(`/user/checkUpdateApiKey/${userId}`, { silent: true })
        .then((r) => setNext(r.allowed ? null : r.nextAllowedAt), () => setNext(null));
    }
  }, [http, userId]);

  async function reset() {
    setConfirming(false);
    try {
      const fresh = await http.get<string>(`/user/updateApiKey/${userId}`, { silent: true });
      setKey(fresh);
      setVisible(false);
      notifier.success(t('apiKey.resetDone'));
      const check = await http.get<{ allowed: boolean; nextAllowedAt: string | null }>(`/user/checkUpdateApiKey/${userId}`, { silent: true });
      setNext(check.allowed ? null : check.nextAllowedAt);
    } catch (e) {
      setError(errorText(e));
    }
  }

  async function copy() {
    if (!key) return;
    try {
      await navigator.clipboard.writeText(key);
      notifier.success(t('apiKey.copied'));
    } catch {
      // No clipboard (an insecure origin): show the key so it can be selected by hand.
      setVisible(true);
      notifier.warning(t('apiKey.copyByHand'));
    }
  }

  return (
    <div data-testid="account-apikey">
      <FormGroup label={t('account.apiKey')}>
        {key === '' ? (
          <Callout data-testid="apikey-none">{t('apiKey.none')}</Callout>
        ) : (
          <InputGroup
            readOnly
            value={key === null ? '' : visible ? key : API_KEY_MASK}
            data-testid="apikey-value"
            rightElement={
              <>
                <Button variant="minimal" icon={visible ? 'eye-off' : 'eye-open'} aria-label={visible ? t('apiKey.hide') : t('apiKey.show')} onClick={() => setVisible(!visible)} data-testid="apikey-toggle" />
                <Button variant="minimal" icon="duplicate" aria-label={t('apiKey.copy')} title={t('apiKey.copy')} disabled={!key} onClick={() => void copy()} data-testid="apikey-copy" />
              </>
            }
          />
        )}
      </FormGroup>
      {next ? <Callout intent="warning" data-testid="apikey-next">{t('apiKey.onceADay', { at: formatDate(next) })}</Callout> : null}
      {error ? <Callout intent="danger">{error}</Callout> : null}
      {key === '' ? (
        <Button intent="primary" text={t('apiKey.create')} disabled={!!next || !userId} onClick={() => void reset()} data-testid="apikey-create" />
      ) : (
        <Button intent="warning" text={t('apiKey.reset')} disabled={!!next || !userId} onClick={() => setConfirming(true)} data-testid="apikey-reset" />
      )}
      <Alert
        isOpen={confirming}
        intent="warning"
        icon="warning-sign"
        canOutsideClickCancel={false}
        canEscapeKeyCancel
        cancelButtonText={t('app.cancel')}
        confirmButtonText={t('apiKey.reset')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void reset()}
      >
        <p data-testid="apikey-confirm">{t('apiKey.confirm')}</p>
      </Alert>
    </div>
  );
}
