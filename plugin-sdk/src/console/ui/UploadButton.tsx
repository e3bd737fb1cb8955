import { Button, ProgressBar } from '@blueprintjs/core';
import { useRef, useState, type ReactNode } from 'react';
import type { UploadButtonProps } from './types.js';
import { useKitText } from './useKitText.js';

/** One file: refuses other types and larger files before sending, then shows the upload's progress. */
export function UploadButton({ accept, maxSizeMb, text, disabled, onUpload, onReject }: UploadButtonProps): ReactNode {
  const { t } = useKitText();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  async function picked(file: File | undefined) {
    if (input.current) input.current.value = '';
    if (!file) return;
    const name = file.name.toLowerCase();
    let reason: string | null = null;
    if (accept.length > 0 && !accept.some((ext) => name.endsWith(ext.toLowerCase()))) reason = t('badType', { types: accept.join(', ') });
    else if (maxSizeMb !== undefined && file.size > maxSizeMb * 1024 * 1024) reason = t('tooLarge', { size: maxSizeMb });
    setRefusal(reason);
    if (reason) { onReject?.(reason); return; }
    setProgress(0);
    try {
      await onUpload(file, (f) => setProgress(Math.max(0, Math.min(1, f))));
    } finally {
      setProgress(null);
    }
  }

  return (
    <span className="lp-upload" style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
      <input
        ref={input}
        type="file"
        accept={accept.join(',')}
        style={{ display: 'none' }}
        data-testid="upload-input"
        onChange={(e) => void picked(e.currentTarget.files?.[0])}
      />
      <Button text={text ?? t('upload')} disabled={disabled || progress !== null} onClick={() => input.current?.click()} data-testid="upload-button" />
      {progress !== null && (
        <span style={{ width: 140 }} data-testid="upload-progress">
          <ProgressBar value={progress} intent="primary" />
          <small>{t('uploading', { percent: Math.round(progress * 100) })}</small>
        </span>
      )}
      {refusal && <span className="bp6-text-muted" style={{ color: '#cd4246' }} data-testid="upload-refusal">{refusal}</span>}
    </span>
  );
}
