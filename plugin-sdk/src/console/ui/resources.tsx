import { Button, ButtonGroup, Callout, Card, Checkbox, Classes, Dialog, FileInput, H5, HTMLSelect, HTMLTable, InputGroup, Intent, ProgressBar, Radio, RadioGroup, Tag } from '@blueprintjs/core';
import { useEffect, useState, type ReactNode } from 'react';
import { downloadFile } from '../download.js';
import { taskFraction, useTask } from '../tasks.js';
import { useApi, useNotify, usePermission, type ApiErrorInfo } from '../index.js';
import { languageTag } from '../../shared/language-tags.js';
import type { ChosenResources, ResourcePickersProps, LanguageVariantPickerProps, LibraryUserRight, ResourceExportDialogProps, ResourceExportScope, ResourceImportCardProps, ResourceImportDuplicates, ResourceImportReport, LibraryUserRightsProps } from './types.js';
import { useKitText } from './useKitText.js';

/**
 * The parts of the language-resource screens every library area shares (memories, term bases, and
 * the areas after them): the users of a library with their use and edit rights, and the import card
 * with the rejection report and, for a large file imported by a task, its live progress.
 */

/** The users listed on a library, each with use and edit; found by name through the area's `users` call. */
export function LibraryUserRights({ value, onChange, usersUrl, testId }: LibraryUserRightsProps): ReactNode {
  const { t } = useKitText();
  const api = useApi();
  const [q, setQ] = useState('');
  const [found, setFound] = useState<{ id: number; username: string }[]>([]);
  useEffect(() => {
    if (!q.trim()) return setFound([]);
    const timer = setTimeout(() => void api.get<{ id: number; username: string }[]>(usersUrl, { params: { q }, silent: true }).then(setFound, () => setFound([])), 250);
    return () => clearTimeout(timer);
  }, [api, q, usersUrl]);
  const set = (userId: number, patch: Partial<LibraryUserRight>) => onChange(value.map((u) => (u.userId === userId ? { ...u, ...patch } : u)));
  return (
    <div data-testid={testId}>
      <InputGroup leftIcon="search" placeholder={t('findUser')} value={q} onChange={(e) => setQ(e.target.value)} aria-label={t('findUser')} />
      {found
        .filter((f) => !value.some((v) => v.userId === f.id))
        .slice(0, 6)
        .map((f) => (
          <Button key={f.id} small minimal icon="plus" text={f.username} onClick={() => onChange([...value, { userId: f.id, username: f.username, use: true, edit: false }])} />
        ))}
      {value.length > 0 && (
        <HTMLTable compact style={{ width: '100%', marginTop: 6 }}>
          <tbody>
            {value.map((u) => (
              <tr key={u.userId}>
                <td>{u.username ?? `#${u.userId}`}</td>
                <td>
                  <Checkbox inline checked={u.use} label={t('rightUse')} onChange={() => set(u.userId, { use: !u.use })} />
                  <Checkbox inline checked={u.edit} label={t('rightEdit')} onChange={() => set(u.userId, { edit: !u.edit })} />
                  {!u.use && !u.edit && <Tag intent={Intent.WARNING}>{t('needsOneRight')}</Tag>}
                </td>
                <td>
                  <Button small minimal icon="cross" aria-label={t('remove')} onClick={() => onChange(value.filter((x) => x.userId !== u.userId))} />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </div>
  );
}

/**
 * A language with its variant (`en-GB`, `zh-Hans-CN`, `sr-Latn`): the language from the enabled list, the
 * rest (script, region) typed beside it, and the whole tag named by the browser (`British English`).
 */
export function LanguageVariantPicker({ value, onChange, languages, disabled, ...props }: LanguageVariantPickerProps): ReactNode {
  const { t, lng } = useKitText();
  // The longest enabled code the tag starts with (zh-CN is a language of the list), else its first subtag.
  const base = [...languages.map((l) => String(l.value))].sort((a, b) => b.length - a.length).find((c) => value === c || value.toLowerCase().startsWith(`${c.toLowerCase()}-`)) ?? value.split('-')[0] ?? '';
  const [rest, setRest] = useState(value.slice(base.length + 1));
  useEffect(() => setRest(value.slice(base.length + 1)), [value, base]);
  const tagOf = (b: string, r: string) => (r.trim() ? (languageTag(`${b}-${r.trim()}`) ?? `${b}-${r.trim()}`) : b);
  const valid = languageTag(tagOf(base, rest)) !== null;
  let name = '';
  try {
    name = valid ? (new Intl.DisplayNames([lng ?? 'en'], { type: 'language' }).of(tagOf(base, rest)) ?? '') : '';
  } catch {
    name = '';
  }
  const options = languages.some((l) => l.value === base) || !base ? languages : [...languages, { value: base, label: base }];
  return (
    <span style={{ display: 'inline-flex', gap: 4, alignItems: 'center' }} data-testid={props['data-testid']}>
      {/* Another language starts without a variant (en-GB to French is fr, not fr-GB). */}
      <HTMLSelect aria-label={props['aria-label']} value={base} options={options} disabled={disabled} onChange={(e) => onChange(e.target.value)} />
      <InputGroup
        aria-label={`${props['aria-label'] ?? ''} ${t('languageVariant')}`.trim()}
        placeholder={t('languageVariant')}
        value={rest}
        disabled={disabled}
        intent={valid ? Intent.NONE : Intent.DANGER}
        style={{ width: 150 }}
        onChange={(e) => setRest(e.target.value)}
        onBlur={() => onChange(tagOf(base, rest))}
      />
      {name && <span style={{ color: '#5f6b7c' }}>{name}</span>}
    </span>
  );
}

/**
 * Import into a library: files (at most 5) with the languages of their entries. A small file is
 * answered at once with its report; a large one is imported by a task, whose progress shows here (the
 * card may be hidden meanwhile, and a toast says when it is done).
 */
export function ResourceImportCard({ url, libraryId, accept, languages, defaultLanguages, variants, help, reportText, testIdPrefix, onDone }: ResourceImportCardProps): ReactNode {
  const { t } = useKitText();
  const api = useApi();
  const notify = useNotify();
  const [files, setFiles] = useState<File[]>([]);
  const [langs, setLangs] = useState(defaultLanguages);
  const [duplicates, setDuplicates] = useState<ResourceImportDuplicates>('skip');
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<ResourceImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [taskId, setTaskId] = useState<string | null>(null);
  const [shown, setShown] = useState(true);
  const running = useTask<ResourceImportReport>(taskId);
  const state = running.task?.state;
  useEffect(() => {
    const task = running.task;
    if (!task || !taskId) return;
    const title = task.title ?? '';
    if (task.state === 'completed' && task.output) {
      setReport(task.output);
      setShown(true);
      setTaskId(null);
      notify.success(t('importDone', { title, imported: task.output.imported, rejected: task.output.rejected }));
      onDone();
    } else if (task.state === 'failed') {
      setError(task.error ?? t('importFailed', { title }));
      setTaskId(null);
      notify.error(t('importFailed', { title }));
    } else if (task.state === 'cancelled') {
      setTaskId(null);
      notify.info(t('importCancelled', { title }));
    }
    // Only a change of state matters here (progress events re-render through `running`).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state]);
  const fraction = running.task ? taskFraction(running.task) : null;
  const submit = async () => {
    const form = new FormData();
    form.set('libraryId', String(libraryId));
    form.set('sourceLang', langs.sourceLang);
    form.set('targetLang', langs.targetLang);
    form.set('duplicates', duplicates);
    for (const f of files) form.append('files', f);
    setBusy(true);
    setError(null);
    try {
      const answer = await api.post<ResourceImportReport | { taskId: string }>(url, form, { silent: true });
      setFiles([]);
      if ('taskId' in answer) {
        setTaskId(answer.taskId);
        setShown(true);
        setReport(null);
      } else {
        setReport(answer);
        onDone();
      }
    } catch (err) {
      setError((err as ApiErrorInfo).msg);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card data-testid={`${testIdPrefix}-import`}>
      <H5>{t('import')}</H5>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
        {variants ? (
          <>
            <LanguageVariantPicker aria-label={t('sourceLang')} value={langs.sourceLang} languages={languages} onChange={(v) => setLangs((l) => ({ ...l, sourceLang: v }))} data-testid={`${testIdPrefix}-import-source`} />
            →
            <LanguageVariantPicker aria-label={t('targetLang')} value={langs.targetLang} languages={languages} onChange={(v) => setLangs((l) => ({ ...l, targetLang: v }))} data-testid={`${testIdPrefix}-import-target`} />
          </>
        ) : (
          <>
            <HTMLSelect aria-label={t('sourceLang')} value={langs.sourceLang} options={languages} onChange={(e) => setLangs({ ...langs, sourceLang: e.target.value })} />
            →
            <HTMLSelect aria-label={t('targetLang')} value={langs.targetLang} options={languages} onChange={(e) => setLangs({ ...langs, targetLang: e.target.value })} />
          </>
        )}
        <FileInput
          text={files.length ? files.map((f) => f.name).join(', ') : t('chooseFiles')}
          inputProps={{ multiple: true, accept: accept.join(','), 'data-testid': `${testIdPrefix}-import-files` } as never}
          onInputChange={(e) => {
            const input = e.target as HTMLInputElement;
            setFiles([...(input.files ?? [])].slice(0, 5));
            // Emptied once read: a browser fires no change for the same file chosen again (the next import of it, with another duplicates choice).
            input.value = '';
          }}
        />
        <Button intent={Intent.PRIMARY} icon="import" loading={busy} disabled={!files.length || !!taskId} onClick={() => void submit()} text={t('importNow')} data-testid={`${testIdPrefix}-import-submit`} />
      </div>
      <RadioGroup inline label={t('importDuplicates')} selectedValue={duplicates} onChange={(e) => setDuplicates(e.currentTarget.value as ResourceImportDuplicates)} className={`${testIdPrefix}-import-duplicates`}>
        <Radio value="skip" label={t('importSkip')} data-testid={`${testIdPrefix}-import-skip`} />
        <Radio value="overwrite" label={t('importOverwrite')} data-testid={`${testIdPrefix}-import-overwrite`} />
        <Radio value="keepBoth" label={t('importKeepBoth')} data-testid={`${testIdPrefix}-import-keep-both`} />
      </RadioGroup>
      {help && <div style={{ color: '#5f6b7c', marginTop: 4 }}>{help}</div>}
      {error && <Callout intent={Intent.DANGER}>{error}</Callout>}
      {taskId && !shown && <Button minimal small icon="eye-open" text={t('importShow')} onClick={() => setShown(true)} />}
      {taskId && shown && (
        <Callout intent={Intent.PRIMARY} data-testid={`${testIdPrefix}-import-progress`} style={{ marginTop: 8 }}>
          <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
            <span>
              {running.task?.title} {fraction === null ? t('importQueued') : `${Math.floor(fraction * 100)}%`} {running.task?.progress.message ?? ''}
            </span>
            <ButtonGroup minimal>
              {running.cancellable && <Button small icon="cross" text={t('importCancel')} onClick={() => void running.cancel()} />}
              <Button small icon="eye-off" text={t('importHide')} onClick={() => setShown(false)} />
            </ButtonGroup>
          </div>
          <ProgressBar value={fraction ?? undefined} intent={Intent.PRIMARY} />
        </Callout>
      )}
      {report && (
        <Callout intent={report.rejected ? Intent.WARNING : Intent.SUCCESS} data-testid={`${testIdPrefix}-import-report`} style={{ marginTop: 8 }}>
          {reportText(report)}
          {report.duplicates && <div data-testid={`${testIdPrefix}-import-duplicate-counts`}>{t('importDuplicateCounts', report.duplicates)}</div>}
          {report.rejected > report.rejections.length && <div>{t('importFirstRejections', { count: report.rejections.length })}</div>}
          {report.rejections.length > 0 && (
            <ul style={{ maxHeight: 160, overflowY: 'auto' }}>
              {report.rejections.map((r) => (
                <li key={`${r.file}:${r.row}`}>
                  {r.file} #{r.row}: {r.reason}
                </li>
              ))}
            </ul>
          )}
          {!!report.notices?.length && (
            <div data-testid={`${testIdPrefix}-import-notices`}>
              {t('importNotices')}
              <ul style={{ maxHeight: 160, overflowY: 'auto' }}>
                {report.notices.map((r) => (
                  <li key={`${r.file}:${r.row}`}>
                    {r.file} #{r.row}: {r.reason}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </Callout>
      )}
    </Card>
  );
}

/**
 * What an export holds before it is downloaded: checked entries only (the default) or all with their
 * review state, with the count of each; an empty choice is said, and Download disabled, instead of an empty file.
 */
export function ResourceExportDialog({ url, libraryId, format, label, extension, fileName, texts, testIdPrefix, onClose }: ResourceExportDialogProps): ReactNode {
  const { t } = useKitText();
  const api = useApi();
  const notify = useNotify();
  const [counts, setCounts] = useState<{ checked: number; all: number } | null>(null);
  const [scope, setScope] = useState<ResourceExportScope>('checked');
  useEffect(() => {
    void api.get<{ checked: number; all: number }>(`${url}/count`, { params: { libraryId }, silent: true }).then(
      (c) => {
        setCounts(c);
        // Nothing reviewed yet: all entries is the only choice that gives a file.
        if (c.checked === 0 && c.all > 0) setScope('all');
      },
      (err: ApiErrorInfo) => notify.error(err.msg),
    );
  }, [api, url, libraryId, notify]);
  const n = counts ? counts[scope] : null;
  const id = (part: string) => `${testIdPrefix}-export-${part}`;
  return (
    <Dialog isOpen title={t('exportTitle', { format: label ?? format.toUpperCase() })} onClose={onClose}>
      <div className={Classes.DIALOG_BODY} data-testid={id('dialog')}>
        <RadioGroup selectedValue={scope} onChange={(e) => setScope(e.currentTarget.value as ResourceExportScope)}>
          <Radio value="checked" label={texts.checked(counts?.checked ?? 0)} data-testid={id('checked')} />
          <Radio value="all" label={texts.all(counts?.all ?? 0)} data-testid={id('all')} />
        </RadioGroup>
        {n === 0 && <Callout intent={Intent.WARNING} data-testid={id('empty')}>{scope === 'checked' && counts!.all > 0 ? texts.noneChecked(counts!.all) : texts.empty}</Callout>}
      </div>
      <div className={Classes.DIALOG_FOOTER}>
        <div className={Classes.DIALOG_FOOTER_ACTIONS}>
          <Button text={t('cancel')} onClick={onClose} />
          <Button
            intent={Intent.PRIMARY}
            icon="download"
            text={t('download')}
            disabled={!n}
            data-testid={id('download')}
            onClick={() => void downloadFile(api, url, `${fileName}.${extension ?? format}`, { libraryId, format, scope }).then(onClose, (err: ApiErrorInfo) => notify.error(err.msg))}
          />
        </div>
      </div>
    </Dialog>
  );
}

interface Library {
  id: number;
  name: string;
  isDefault?: boolean;
}

/** The libraries of an area the user reaches (memories at `/TM`, term bases at `/term`); none when the area is not theirs. */
function useLibraries(route: string, url: string): Library[] | null {
  const api = useApi();
  const reaches = usePermission().hasRoute(route);
  const [list, setList] = useState<Library[] | null>(null);
  useEffect(() => {
    if (!reaches) return setList([]);
    let live = true;
    api.get<{ records: Library[] }>(url, { params: { pageNum: 1, pageSize: 200 }, silent: true }).then(
      (r) => live && setList(r.records ?? []),
      () => live && setList([]),
    );
    return () => {
      live = false;
    };
  }, [api, reaches, url]);
  return list;
}

/**
 * The memories and term bases a piece of work uses (a document, a picture, a recording, a live
 * session), each ticked or not; the user's defaults come preselected on a new upload, and an empty
 * choice says that the defaults are used.
 */
export function ResourcePickers({ value, onChange, preselectDefaults, disabled, testIds }: ResourcePickersProps): ReactNode {
  const { t } = useKitText();
  const memories = useLibraries('/TM', '/TM/library/list');
  const termBases = useLibraries('/term', '/term/library/list');
  const [preselected, setPreselected] = useState(false);
  useEffect(() => {
    if (!preselectDefaults || preselected || memories === null || termBases === null) return;
    setPreselected(true);
    if (value.memories.length || value.termBases.length) return;
    const chosen: ChosenResources = { memories: memories.filter((l) => l.isDefault).map((l) => l.id), termBases: termBases.filter((l) => l.isDefault).map((l) => l.id) };
    if (chosen.memories.length || chosen.termBases.length) onChange(chosen);
  }, [preselectDefaults, preselected, memories, termBases, value, onChange]);
  const group = (label: string, list: Library[] | null, chosen: number[], set: (ids: number[]) => void, testId: string) => {
    if (!list?.length) return null;
    const note = chosen.length === 0 && list.some((l) => l.isDefault) ? t('noneChosenDefaults') : undefined;
    return (
      <div className="bp6-form-group">
        <label className="bp6-label">{label}</label>
        <div className="bp6-form-content">
          <div data-testid={testId} style={{ display: 'flex', flexWrap: 'wrap', gap: 6 }}>
            {list.map((l) => (
              <Checkbox key={l.id} inline label={l.name} disabled={disabled} checked={chosen.includes(l.id)} onChange={() => set(chosen.includes(l.id) ? chosen.filter((x) => x !== l.id) : [...chosen, l.id])} />
            ))}
          </div>
          {note && <div className="bp6-form-helper-text">{note}</div>}
        </div>
      </div>
    );
  };
  return (
    <>
      {group(t('memories'), memories, value.memories, (ids) => onChange({ ...value, memories: ids }), testIds?.memories ?? 'memories')}
      {group(t('termBases'), termBases, value.termBases, (ids) => onChange({ ...value, termBases: ids }), testIds?.termBases ?? 'term-bases')}
    </>
  );
}
