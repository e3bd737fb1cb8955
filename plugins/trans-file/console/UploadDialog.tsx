import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { Button, Callout, Checkbox, Classes, Dialog, FormGroup, HTMLSelect, Intent, ProgressBar, Radio, RadioGroup, Tag } from '@blueprintjs/core';
import { ResourcePickers, useApi, useLastLanguagePair, usePermission, useRefreshBefore, useTranslation, type ApiErrorInfo, type ChosenResources } from '@linguaport/sdk/console';
import { formatSize } from '@linguaport/sdk/shared';
import { EXISTING_TARGETS, RESULT_TYPES, type ExistingTargets, type FileRow, type ResultType } from '../shared/schemas.js';
import { NS, useLanguageName, type Setup } from './common.js';

/** Why a chosen file cannot go (checked again by the server, by content). */
function refusalOf(file: File, setup: Setup, t: (k: string, o?: Record<string, unknown>) => string): string | null {
  const ext = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
  if (file.size === 0) return t('refuse.empty', { name: file.name });
  if (file.size > setup.limits.maxFileMb * 1024 * 1024) return t('refuse.tooLarge', { name: file.name, mb: setup.limits.maxFileMb });
  if (!setup.formats.some((f) => f.extensions.includes(ext))) return t('refuse.notSupported', { name: file.name });
  return null;
}

/**
 * Upload one or several files (drag and drop, or choose), with the languages, domain, libraries,
 * result type and PDF option. While the upload runs the dialog cannot be closed (refreshBefore).
 */
export function UploadDialog({ isOpen, setup, onClose, onUploaded }: { isOpen: boolean; setup: Setup; onClose(): void; onUploaded(rows: FileRow[]): void }) {
  const { t } = useTranslation(NS);
  const api = useApi();
  const permissions = usePermission();
  const name = useLanguageName();
  const { refreshBefore, setRefreshBefore, guardClose } = useRefreshBefore();
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const { pair: lastPair, remember } = useLastLanguagePair('documents');
  const [source, setSource] = useState('');
  const [target, setTarget] = useState('');
  const [domain, setDomain] = useState('');
  const [domains, setDomains] = useState<Array<{ code: string; nameZh: string; nameEn: string }>>([]);
  const [resources, setResources] = useState<ChosenResources>({ memories: [], termBases: [] });
  const [resultType, setResultType] = useState<ResultType>('translated');
  const [withPdf, setWithPdf] = useState(false);
  const [existingTargets, setExistingTargets] = useState<ExistingTargets>('keepUsable');
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { i18n } = useTranslation(NS);

  useEffect(() => {
    if (!isOpen) return;
    // The user's last pair for documents first, then the site's default.
    const src = setup.languages.find((l) => l.code === lastPair?.source) ?? setup.languages.find((l) => l.code === setup.defaultSource) ?? setup.languages[0];
    setSource((s) => s || src?.code || '');
    api.get<Array<{ code: string; nameZh: string; nameEn: string }>>('/domain/list', { silent: true }).then(setDomains, () => setDomains([]));
  }, [api, isOpen, setup]);
  const targets = useMemo(() => setup.languages.find((l) => l.code === source)?.targets.filter((c) => c !== source) ?? [], [setup, source]);
  useEffect(() => {
    if (targets.includes(target)) return;
    const wanted = lastPair && lastPair.source === source && targets.includes(lastPair.target) ? lastPair.target : setup.defaultTarget;
    setTarget(targets.includes(wanted ?? '') ? wanted! : (targets[0] ?? ''));
  }, [targets, target, setup.defaultTarget, lastPair, source]);

  const refusals = files.map((f) => refusalOf(f, setup, t as never)).filter((r): r is string => r !== null);
  const tooMany = files.length > setup.limits.maxFiles;
  const accept = setup.formats.flatMap((f) => f.extensions.map((e) => `.${e}`)).join(',');
  const canSend = files.length > 0 && !tooMany && refusals.length === 0 && !!source && !!target && source !== target && progress === null;

  const add = (list: FileList | null) => {
    if (!list) return;
    // A copy now: the input's FileList is live and emptied right after this call.
    const chosen = Array.from(list);
    setError(null);
    setFiles((prev) => [...prev, ...chosen.filter((f) => !prev.some((p) => p.name === f.name && p.size === f.size))]);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    add(e.dataTransfer.files);
  };

  const close = guardClose(() => {
    setFiles([]);
    setError(null);
    onClose();
  });

  const send = async () => {
    if (!canSend) return;
    const form = new FormData();
    form.set('sourceLang', source);
    form.set('targetLang', target);
    if (domain) form.set('domain', domain);
    form.set('memories', JSON.stringify(resources.memories));
    form.set('termBases', JSON.stringify(resources.termBases));
    form.set('resultType', resultType);
    form.set('withPdf', String(withPdf));
    form.set('existingTargets', existingTargets);
    for (const f of files) form.append('files', f);
    remember(source, target);
    setRefreshBefore(true);
    setProgress(0);
    setError(null);
    try {
      const rows = await api.post<FileRow[]>('/transFile/upload', form, { silent: true, onUploadProgress: (p) => setProgress(p) });
      setRefreshBefore(false);
      setFiles([]);
      onUploaded(rows);
    } catch (err) {
      const e = err as ApiErrorInfo;
      setRefreshBefore(false);
      setError(e.code === 3027 ? t('queueFull') : e.msg || t('uploadFailed'));
    } finally {
      setProgress(null);
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={close} title={t('uploadTitle')} canOutsideClickClose={false} canEscapeKeyClose={!refreshBefore} isCloseButtonShown={!refreshBefore} style={{ width: 680 }}>
      <div className={Classes.DIALOG_BODY} data-testid="upload-dialog">
        <div
          data-testid="drop-zone"
          role="button"
          tabIndex={0}
          onClick={() => input.current?.click()}
          onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && input.current?.click()}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          style={{ border: `2px dashed ${dragging ? '#2d72d2' : '#abb3bf'}`, borderRadius: 6, padding: 20, textAlign: 'center', cursor: 'pointer', background: dragging ? '#e5f0fc' : undefined }}
        >
          <div>{t('dropHere')}</div>
          <div style={{ fontSize: 12, color: '#5f6b7c', marginTop: 4 }}>{t('limits', { files: setup.limits.maxFiles, mb: setup.limits.maxFileMb, formats: setup.formats.flatMap((f) => f.extensions).join(', ') })}</div>
          {setup.formats.some((f) => f.extensions.includes('pdf')) && <div data-testid="pdf-result-note" style={{ fontSize: 12, color: '#5f6b7c', marginTop: 4 }}>{t('pdfResult')}</div>}
          <input ref={input} data-testid="file-input" type="file" multiple accept={accept} style={{ display: 'none' }} onChange={(e) => { add(e.currentTarget.files); e.currentTarget.value = ''; }} />
        </div>
        {files.length > 0 && (
          <ul data-testid="chosen-files" style={{ listStyle: 'none', padding: 0, margin: '10px 0', display: 'grid', gap: 4 }}>
            {files.map((f) => {
              const why = refusalOf(f, setup, t as never);
              return (
                <li key={`${f.name}-${f.size}`} style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
                  <Tag minimal intent={why ? Intent.DANGER : Intent.NONE}>{f.name}</Tag>
                  <span style={{ color: '#5f6b7c', fontSize: 12 }}>{formatSize(f.size)}</span>
                  {why && <span style={{ color: '#c23030', fontSize: 12 }}>{why}</span>}
                  <Button small minimal icon="cross" aria-label={t('removeFile')} disabled={progress !== null} onClick={() => setFiles(files.filter((x) => x !== f))} />
                </li>
              );
            })}
          </ul>
        )}
        {tooMany && <Callout intent={Intent.DANGER}>{t('refuse.tooMany', { max: setup.limits.maxFiles })}</Callout>}
        <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', marginTop: 10 }}>
          <FormGroup label={t('source')} labelFor="tf-source">
            <HTMLSelect id="tf-source" data-testid="source-language" value={source} onChange={(e) => setSource(e.currentTarget.value)}>
              {setup.languages.map((l) => (
                <option key={l.code} value={l.code}>{name(l.code)}</option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t('target')} labelFor="tf-target">
            <HTMLSelect id="tf-target" data-testid="target-language" value={target} onChange={(e) => setTarget(e.currentTarget.value)}>
              {targets.map((c) => (
                <option key={c} value={c}>{name(c)}</option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t('domain')} labelFor="tf-domain">
            <HTMLSelect id="tf-domain" data-testid="domain" value={domain} onChange={(e) => setDomain(e.currentTarget.value)}>
              <option value="">{t('anyDomain')}</option>
              {domains.map((d) => (
                <option key={d.code} value={d.code}>{i18n.language === 'zh-CN' ? d.nameZh : d.nameEn}</option>
              ))}
            </HTMLSelect>
          </FormGroup>
        </div>
        {setup.languages.length === 0 && <Callout intent={Intent.WARNING}>{t('noEngine')}</Callout>}
        {/* The user's default memories and term bases come preselected, so the dialog shows what the file will use. */}
        <ResourcePickers value={resources} onChange={setResources} preselectDefaults />
        <RadioGroup label={t('resultType')} inline selectedValue={resultType} onChange={(e) => setResultType(e.currentTarget.value as ResultType)}>
          {RESULT_TYPES.map((r) => (
            <Radio key={r} value={r} label={t(`result.${r}`)} data-testid={`result-${r}`} />
          ))}
        </RadioGroup>
        <FormGroup label={t('existingTargets')} helperText={t('existingTargetsHelp')}>
          <HTMLSelect value={existingTargets} data-testid="existing-targets" onChange={(e) => setExistingTargets(e.currentTarget.value as ExistingTargets)}>
            {EXISTING_TARGETS.map((o) => (
              <option key={o} value={o}>{t(`existing.${o}`)}</option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <Checkbox checked={withPdf} label={t('withPdf')} data-testid="with-pdf" onChange={() => setWithPdf(!withPdf)} />
        {progress !== null && <ProgressBar value={progress} intent={Intent.PRIMARY} />}
        {error && <Callout intent={Intent.DANGER} data-testid="upload-error">{error}</Callout>}
      </div>
      <div className={Classes.DIALOG_FOOTER}>
        <div className={Classes.DIALOG_FOOTER_ACTIONS}>
          <Button text={t('cancel')} disabled={refreshBefore} onClick={close} />
          <Button intent={Intent.PRIMARY} icon="translate" data-testid="start-upload" text={t('startTranslation', { count: files.length })} disabled={!canSend} loading={progress !== null} onClick={send} />
        </div>
      </div>
    </Dialog>
  );
}

