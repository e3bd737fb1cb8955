import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, HTMLTable, InputGroup, Intent, TextArea } from '@blueprintjs/core';
import { ConfirmDialog, useApi, useNotify, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';
import { NS } from './ns.js';
import { formatDate } from '@linguaport/sdk/shared';
import type { TrustedKeyRow } from './types.js';

/** The publisher keys whose signatures uploads are checked against (super administrator only). */
export function TrustedKeys() {
  const { t } = useTranslation(NS);
  const api = useApi();
  const notify = useNotify();
  const [rows, setRows] = useState<TrustedKeyRow[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<TrustedKeyRow | null>(null);
  const [form, setForm] = useState({ name: '', publicKey: '', allowServer: false });
  const [formError, setFormError] = useState<string | null>(null);

  const refresh = useCallback(() => {
    api.get<TrustedKeyRow[]>('/plugIn/trustedKeys', { silent: true }).then(setRows, (err: ApiErrorInfo) => setFailed(err.msg));
  }, [api]);
  useEffect(refresh, [refresh]);

  const add = async () => {
    if (!form.name.trim() || !form.publicKey.trim()) return setFormError(t('required'));
    try {
      await api.post('/plugIn/trustedKeys', form, { silent: true });
      notify.success(t('keyAdded'));
      setAdding(false);
      setForm({ name: '', publicKey: '', allowServer: false });
      setFormError(null);
      refresh();
    } catch (err) {
      setFormError((err as ApiErrorInfo).msg);
    }
  };

  if (failed) return <Callout intent={Intent.DANGER}>{failed}</Callout>;
  return (
    <div style={{ display: 'grid', gap: 12 }} data-testid="trusted-keys">
      <div className="bp6-text-muted">{t('keysHint')}</div>
      <div><Button icon="key" intent={Intent.PRIMARY} text={t('addKey')} onClick={() => setAdding(true)} data-testid="key-add-open" /></div>
      <HTMLTable compact striped>
        <thead><tr><th>{t('keyName')}</th><th>{t('keyId')}</th><th>{t('allowServer')}</th><th>{t('createTime')}</th><th>{t('actions')}</th></tr></thead>
        <tbody>
          {(rows ?? []).map((k) => (
            <tr key={k.keyId} data-testid={`key-row-${k.keyId}`}>
              <td>{k.name}</td><td><code>{k.keyId}</code></td><td>{k.allowServer ? t('yes') : t('no')}</td><td>{formatDate(k.createTime)}</td>
              <td><Button small variant="minimal" intent={Intent.DANGER} text={t('delete')} onClick={() => setRemoving(k)} /></td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <Dialog isOpen={adding} onClose={() => setAdding(false)} title={t('addKey')} canOutsideClickClose={false} style={{ width: 600 }}>
        <DialogBody>
          <FormGroup label={t('keyName')} labelInfo="*"><InputGroup value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} data-testid="key-name" /></FormGroup>
          <FormGroup label={t('publicKey')} labelInfo="*" helperText={t('publicKeyHint')}>
            <TextArea fill rows={5} value={form.publicKey} onChange={(e) => setForm({ ...form, publicKey: e.target.value })} data-testid="key-pem" style={{ fontFamily: 'monospace' }} />
          </FormGroup>
          <Checkbox checked={form.allowServer} label={t('allowServerLabel')} onChange={() => setForm({ ...form, allowServer: !form.allowServer })} />
          {formError && <Callout intent={Intent.DANGER} data-testid="key-error">{formError}</Callout>}
        </DialogBody>
        <DialogFooter actions={<><Button text={t('cancel')} onClick={() => setAdding(false)} /><Button intent={Intent.PRIMARY} text={t('save')} onClick={() => void add()} data-testid="key-save" /></>} />
      </Dialog>
      <ConfirmDialog
        isOpen={!!removing}
        title={t('removeKeyTitle')}
        message={t('removeKeyMessage')}
        count={1}
        items={removing ? [`${removing.name} (${removing.keyId})`] : []}
        intent="danger"
        onConfirm={async () => {
          if (removing) await api.delete(`/plugIn/trustedKeys/${removing.keyId}`);
          setRemoving(null);
          refresh();
        }}
        onClose={() => setRemoving(null)}
      />
    </div>
  );
}
