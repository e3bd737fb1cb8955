import { useEffect, useMemo, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { Button, Callout, Classes, Dialog, FormGroup, HTMLSelect, Intent, ProgressBar, Tag } from '@blueprintjs/core';
import { ResourcePickers, useApi, useLastLanguagePair, useNotify, useRefreshBefore, useTranslation, type ApiErrorInfo, type ChosenResources } from '@linguaport/sdk/console';
import { formatSize } from '@linguaport/sdk/shared';
import type { FileRow } from '../shared/schemas.js';
import { NS, useLanguageName } from './common.js';

/** What the dialog needs of an upload kind's setup call (documents' and pictures' share it). */
export interface UploadSetup {
  languages: Array<{ code: string; targets: string[] }>;
  defaultSource: string | null;
  defaultTarget: string | null;
  limits: { maxFiles: number };
  formats: Array<{ extensions: string[] }>;
}

/** What the screen that opens an upload dialog hands it. */
export interface UploadDialogProps<S extends UploadSetup = UploadSetup> {
  isOpen: boolean;
  setup: S;
  onClose(): void;
  onUploaded(rows: FileRow[]): void;
}

export interface FileUploadDialogProps extends UploadDialogProps {
  /** Where the user's last language pair is remembered (`useLastLanguagePair`). */
  pairArea: 'documents' | 'pictures';
  /** The multipart route: `files`, `sourceLang`, `targetLang`, `memories`, `termBases`, and whatever `fill` adds. */
  url: string;
  title: string;
  startText(count: number): string;
  width: number;
  /** Test ids are `<testIdPrefix>upload-dialog`, `…drop-zone` and so on; element ids `<idPrefix>-source`, `-target`. */
  testIdPrefix: string;
  idPrefix: string;
  /** The largest file, and the message keys (`{name}`, `{mb}`) for one too large or of a type not read. */
  maxFileMb: number;
  refuseKeys: { tooLarge: string; notSupported: string };
  /** Under the drop prompt: the limits, and any note. */
  dropHint: ReactNode;
  dropPrompt: ReactNode;
  /** More selects in the language row (documents: the domain). */
  languageFields?: ReactNode;
  /** Warnings under the language row. */
  notes?: ReactNode;
  /** Options under the memory and term-base pickers. */
  children?: ReactNode;
  /** Adds the kind's own fields to the form. */
  fill?(form: FormData): void;
}

/**
 * The screen's side of an upload: `open()` shows the dialog; once files are sent it closes, says how
 * many, and `refresh` reloads the list. It cannot be closed while the upload runs.
 */
export function useUploadDialog(refresh: () => void): { open(): void; props: Omit<UploadDialogProps, 'setup'> } {
  const { t } = useTranslation(NS);
  const notify = useNotify();
  const { guardClose } = useRefreshBefore();
  const [isOpen, setOpen] = useState(false);
  const onUploaded = (rows: FileRow[]) => {
    setOpen(false);
    notify.success(t('uploaded', { count: rows.length }));
    refresh();
  };
  return { open: () => setOpen(true), props: { isOpen, onClose: guardClose(() => setOpen(false)), onUploaded } };
}

/**
 * One upload flow for documents and pictures: files dropped or chosen (deduplicated, each refused or
 * not), the language pair from the user's last one, memories and term bases with the defaults
 * preselected, the upload with its progress. While it runs the dialog cannot be closed (refreshBefore).
 */
export function FileUploadDialog(props: FileUploadDialogProps) {
  const { isOpen, setup, onClose, onUploaded, testIdPrefix: p } = props;
  const { t } = useTranslation(NS);
  // Why a chosen file cannot go (the server checks again, by content).
  const refusalOf = (file: File): string | null => {
    const ext = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
    if (file.size === 0) return t('refuse.empty', { name: file.name });
    if (file.size > props.maxFileMb * 1024 * 1024) return t(props.refuseKeys.tooLarge, { name: file.name, mb: props.maxFileMb });
    if (!setup.formats.some((f) => f.extensions.includes(ext))) return t(props.refuseKeys.notSupported, { name: file.name });
    return null;
  };
  const api = useApi();
  const name = useLanguageName();
  const { refreshBefore, setRefreshBefore, guardClose } = useRefreshBefore();
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const { pair: lastPair, remember } = useLastLanguagePair(props.pairArea);
  const [source, setSource] = useState('');
  const [target, setTarget] = useState('');
  const [resources, setResources] = useState<ChosenResources>({ memories: [], termBases: [] });
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!isOpen) return;
    // The user's last pair for this kind first, then the site's default.
    const src = setup.languages.find((l) => l.code === lastPair?.source) ?? setup.languages.find((l) => l.code === setup.defaultSource) ?? setup.languages[0];
    setSource((s) => s || src?.code || '');
  }, [isOpen, setup, lastPair]);
  const targets = useMemo(() => setup.languages.find((l) => l.code === source)?.targets.filter((c) => c !== source) ?? [], [setup, source]);
  useEffect(() => {
    if (targets.includes(target)) return;
    const wanted = lastPair && lastPair.source === source && targets.includes(lastPair.target) ? lastPair.target : setup.defaultTarget;
    setTarget(targets.includes(wanted ?? '') ? wanted! : (targets[0] ?? ''));
  }, [targets, target, setup.defaultTarget, lastPair, source]);

  const refusals = files.map(refusalOf).filter((r): r is string => r !== null);
  const tooMany = files.length > setup.limits.maxFiles;
  const accept = setup.formats.flatMap((f) => f.extensions.map((e) => `.${e}`)).join(',');
  const canSend = files.length > 0 && !tooMany && refusals.length === 0 && !!source && !!target && source !== target && progress === null;

  const add = (list: FileList | null) => {
    if (!list) return;
    // A copy now: the input's FileList is live and emptied right after this call.
    const chosen = Array.from(list);
    setError(null);
    setFiles((prev) => [...prev, ...chosen.filter((f) => !prev.some((x) => x.name === f.name && x.size === f.size))]);
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
    form.set('memories', JSON.stringify(resources.memories));
    form.set('termBases', JSON.stringify(resources.termBases));
    props.fill?.(form);
    for (const f of files) form.append('files', f);
    remember(source, target);
    setRefreshBefore(true);
    setProgress(0);
    setError(null);
    try {
      const rows = await api.post<FileRow[]>(props.url, form, { silent: true, onUploadProgress: (n) => setProgress(n) });
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
    <Dialog isOpen={isOpen} onClose={close} title={props.title} canOutsideClickClose={false} canEscapeKeyClose={!refreshBefore} isCloseButtonShown={!refreshBefore} style={{ width: props.width }}>
      <div className={Classes.DIALOG_BODY} data-testid={`${p}upload-dialog`}>
        <div
          data-testid={`${p}drop-zone`}
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
          <div>{props.dropPrompt}</div>
          {props.dropHint}
          <input ref={input} data-testid={`${p}file-input`} type="file" multiple accept={accept} style={{ display: 'none' }} onChange={(e) => { add(e.currentTarget.files); e.currentTarget.value = ''; }} />
        </div>
        {files.length > 0 && (
          <ul data-testid={`${p}chosen-files`} style={{ listStyle: 'none', padding: 0, margin: '10px 0', display: 'grid', gap: 4 }}>
            {files.map((f) => {
              const why = refusalOf(f);
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
          <FormGroup label={t('source')} labelFor={`${props.idPrefix}-source`}>
            <HTMLSelect id={`${props.idPrefix}-source`} data-testid={`${p}source-language`} value={source} onChange={(e) => setSource(e.currentTarget.value)}>
              {setup.languages.map((l) => (
                <option key={l.code} value={l.code}>{name(l.code)}</option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t('target')} labelFor={`${props.idPrefix}-target`}>
            <HTMLSelect id={`${props.idPrefix}-target`} data-testid={`${p}target-language`} value={target} onChange={(e) => setTarget(e.currentTarget.value)}>
              {targets.map((c) => (
                <option key={c} value={c}>{name(c)}</option>
              ))}
            </HTMLSelect>
          </FormGroup>
          {props.languageFields}
        </div>
        {setup.languages.length === 0 && <Callout intent={Intent.WARNING}>{t('noEngine')}</Callout>}
        {props.notes}
        {/* The user's default memories and term bases come preselected, so the dialog shows what the files will use. */}
        <ResourcePickers value={resources} onChange={setResources} preselectDefaults testIds={{ memories: `${p}memories`, termBases: `${p}term-bases` }} />
        {props.children}
        {progress !== null && <ProgressBar value={progress} intent={Intent.PRIMARY} />}
        {error && <Callout intent={Intent.DANGER} data-testid={`${p}upload-error`}>{error}</Callout>}
      </div>
      <div className={Classes.DIALOG_FOOTER}>
        <div className={Classes.DIALOG_FOOTER_ACTIONS}>
          <Button text={t('cancel')} disabled={refreshBefore} onClick={close} />
          <Button intent={Intent.PRIMARY} icon="translate" data-testid={`${p}start-upload`} text={props.startText(files.length)} disabled={!canSend} loading={progress !== null} onClick={send} />
        </div>
      </div>
    </Dialog>
  );
}
