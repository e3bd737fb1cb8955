import { Button, Callout, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { useState, type ReactNode } from 'react';
import type { ConfirmDialogProps } from './types.js';
import { useKitText } from './useKitText.js';

/** Confirms a destructive action: says what goes and how many rows; an outside click does not close it. */
export function ConfirmDialog(props: ConfirmDialogProps): ReactNode {
  const { isOpen, title, message, count, items, confirmText, onConfirm, onClose } = props;
  const { t } = useKitText();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const shown = (items ?? []).slice(0, 10);

  async function confirm() {
    setBusy(true);
    setFailed(null);
    try {
      await onConfirm();
    } catch (error) {
      setFailed((error as { msg?: string })?.msg ?? String(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog isOpen={isOpen} title={title} onClose={() => { setFailed(null); onClose(); }} canOutsideClickClose={false} style={{ width: 480 }}>
      <DialogBody>
        <div data-testid="confirm-message">{message}</div>
        {count !== undefined && <p data-testid="confirm-count" style={{ marginTop: 8 }}><strong>{t('affects', { count })}</strong></p>}
        {shown.length > 0 && (
          <ul data-testid="confirm-items">
            {shown.map((name, i) => <li key={i}>{name}</li>)}
            {(items?.length ?? 0) > shown.length && <li>{t('andMore', { count: items!.length - shown.length })}</li>}
          </ul>
        )}
        {props.intent !== 'primary' && <p className="bp6-text-muted">{t('irreversible')}</p>}
        {failed && <Callout intent="danger" data-testid="confirm-error">{failed}</Callout>}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('cancel')} onClick={onClose} disabled={busy} />
            <Button intent={props.intent ?? 'danger'} text={confirmText ?? t('confirm')} loading={busy} onClick={() => void confirm()} data-testid="confirm-ok" />
          </>
        }
      />
    </Dialog>
  );
}
