import { useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FileInput, FormGroup, HTMLSelect, InputGroup, Intent, ProgressBar, TextArea } from '@blueprintjs/core';
import { useApi, useTranslation, type ApiErrorInfo } from '@linguaport/sdk/console';
import { NS } from './ns.js';

/** Spec 02 sections 5 and 9: the package file under 2 MB; the logo separately (suggested 46x46). */
const MAX_PACKAGE = 2 * 1024 * 1024;
const MAX_LOGO = 200 * 1024;

interface Props {
  isOpen: boolean;
  onClose(): void;
  onUploaded(): void;
}

/**
 * Upload form: package, logo, version, type, description. The server verifies the package; its
 * refusal (which check failed) is shown in the dialog, and nothing is installed.
 */
export function UploadDialog({ isOpen, onClose, onUploaded }: Props) {
  const { t } = useTranslation(NS);
  const api = useApi();
  const [file, setFile] = useState<File | null>(null);
  const [logo, setLogo] = useState<File | null>(null);
  const [version, setVersion] = useState('');
  const [type, setType] = useState<'console' | 'download'>('console');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  // Remounts the file inputs on reset, so picking the same file again still fires a change.
  const [formKey, setFormKey] = useState(0);

  const reset = () => {
    setFile(null);
    setLogo(null);
    setVersion('');
    setType('console');
    setDescription('');
    setErrors({});
    setRefusal(null);
    setProgress(null);
    setFormKey((k) => k + 1);
  };

  const submit = async () => {
    const e: Record<string, string> = {};
    if (!file) e.file = t('required');
    // The server applies the same 2 MB rule; checking here saves sending a large file for nothing.
    else if (file.size >= MAX_PACKAGE) e.file = t('fileTooLarge');
    if (!logo) e.logo = t('required');
    else if (logo.size >= MAX_LOGO) e.logo = t('logoTooLarge');
    if (!version.trim()) e.version = t('required');
    else if (!/^\d+\.\d+\.\d+$/.test(version.trim())) e.version = t('versionFormat');
    setErrors(e);
    setRefusal(null);
    if (Object.keys(e).length) return;
    const form = new FormData();
    form.append('version', version.trim());
    form.append('type', type);
    form.append('description', description);
    form.append('logo', logo!);
    form.append('file', file!);
    setProgress(0);
    try {
      await api.post('/plugIn/upload', form, { silent: true, onUploadProgress: (f) => setProgress(f) });
      reset();
      onUploaded();
    } catch (err) {
      setRefusal((err as ApiErrorInfo).msg);
    } finally {
      setProgress(null);
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={() => { reset(); onClose(); }} title={t('uploadTitle')} canOutsideClickClose={false} style={{ width: 600 }}>
      <DialogBody key={formKey}>
        <FormGroup label={t('packageFile')} labelInfo="*" helperText={errors.file ?? t('packageHint')} intent={errors.file ? Intent.DANGER : Intent.NONE}>
          <FileInput fill text={file?.name ?? t('choose')} buttonText={t('browse')} inputProps={{ accept: '.tgz,.tar.gz', 'data-testid': 'upload-file' } as object} onInputChange={(ev) => setFile((ev.target as HTMLInputElement).files?.[0] ?? null)} />
        </FormGroup>
        <FormGroup label={t('logo')} labelInfo="*" helperText={errors.logo ?? t('logoHint')} intent={errors.logo ? Intent.DANGER : Intent.NONE}>
          <FileInput fill text={logo?.name ?? t('choose')} buttonText={t('browse')} inputProps={{ accept: '.png,.svg,.jpg,.jpeg,.gif,.webp', 'data-testid': 'upload-logo' } as object} onInputChange={(ev) => setLogo((ev.target as HTMLInputElement).files?.[0] ?? null)} />
        </FormGroup>
        <FormGroup label={t('version')} labelInfo="*" helperText={errors.version} intent={errors.version ? Intent.DANGER : Intent.NONE}>
          <InputGroup value={version} onChange={(ev) => setVersion(ev.target.value)} placeholder="1.0.0" data-testid="upload-version" />
        </FormGroup>
        <FormGroup label={t('type')} labelInfo="*">
          <HTMLSelect value={type} onChange={(ev) => setType(ev.target.value as 'console' | 'download')} data-testid="upload-type">
            <option value="console">{t('type_console')}</option>
            <option value="download">{t('type_download')}</option>
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('description')}>
          <TextArea fill value={description} maxLength={500} onChange={(ev) => setDescription(ev.target.value)} data-testid="upload-description" />
        </FormGroup>
        {progress !== null && <ProgressBar value={progress} intent={Intent.PRIMARY} data-testid="upload-progress" />}
        {refusal && <Callout intent={Intent.DANGER} title={t('refused')} data-testid="upload-refusal">{refusal}</Callout>}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('cancel')} onClick={() => { reset(); onClose(); }} />
            <Button intent={Intent.PRIMARY} text={t('uploadSubmit')} loading={progress !== null} onClick={() => void submit()} data-testid="upload-submit" />
          </>
        }
      />
    </Dialog>
  );
}
