import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, Card, Dialog, DialogBody, DialogFooter, FileInput, H5, HTMLSelect, HTMLTable, Checkbox, InputGroup, Intent, ProgressBar, Radio, RadioGroup, Tag, TextArea } from '@blueprintjs/core';
import { PageHeader, ConfirmDelete, definePlugin, FormDialog, PagedTable, SearchBar, taskFraction, useApi, useLanguageOptions, useNotify, usePermission, useQueryParam, useTask, useTranslation, type ApiErrorInfo, type FormField, type PageResult, downloadFile } from '@linguaport/sdk/console';
import { formatDate, languageDisplayName } from '@linguaport/sdk/shared';
import { CLEANING_RULES, corpusSchema, type Bead } from '../shared/schemas.js';

interface Corpus {
  id: number;
  name: string;
  sourceLang: string;
  targetLang: string;
  domain: string | null;
  ownerId: number;
  /** Real name, else account name; null for a user since deleted. */
  ownerName: string | null;
  pairs: number;
  createdAt: string;
  updatedAt: string;
}
interface Pair {
  id: number;
  source: string;
  target: string;
  position: number;
  flags: string[];
}
interface Paged<T> {
  records: T[];
  total: number;
}
interface Report {
  id: number;
  taskId: string | null;
  status: 'running' | 'ready' | 'applied' | 'discarded' | 'failed';
  flagged: number;
  error: string | null;
  summary: { total: number; flagged: number; rules: Record<string, { count: number; examples: Array<{ id: number; source: string; target: string }> }> } | null;
}
interface DraftPair {
  source: string;
  target: string;
  bead: Bead;
  cost: number;
}
interface Draft {
  id: number;
  pairs: DraftPair[];
}

const paged = async <T,>(get: Promise<Paged<T>>): Promise<PageResult<T>> => {
  const r = await get;
  return { rows: r.records, total: r.total };
};

const download = (api: ReturnType<typeof useApi>, corpus: Corpus, format: 'tmx' | 'txt') => downloadFile(api, '/corpus/export', `${corpus.name}.${format}`, { corpusId: corpus.id, format });

/** Import: bilingual files (TMX, XLIFF, PO, TXT, XLSX; at most 5) or two line-aligned TXT files, with the rejection report. */
function ImportDialog({ corpus, isOpen, onClose, onDone }: { corpus: Corpus; isOpen: boolean; onClose(): void; onDone(): void }) {
  const { t } = useTranslation();
  const api = useApi();
  const [mode, setMode] = useState<'bilingual' | 'parallel'>('bilingual');
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [report, setReport] = useState<{ imported: number; rejected: number; rejections: { file: string; row: number; reason: string }[] } | null>(null);
  const tooMany = files.length > 5 || (mode === 'parallel' && files.length !== 2);
  const tooBig = files.find((f) => f.size > 20 * 1024 * 1024);
  const submit = async () => {
    const form = new FormData();
    form.set('corpusId', String(corpus.id));
    form.set('mode', mode);
    for (const f of files) form.append('files', f);
    setBusy(true);
    setError(null);
    try {
      setReport(await api.post('/corpus/import', form, { silent: true }));
      setFiles([]);
      onDone();
    } catch (err) {
      setError((err as ApiErrorInfo).msg);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('import')} style={{ width: 600 }}>
      <DialogBody>
        <RadioGroup inline selectedValue={mode} onChange={(e) => setMode(e.currentTarget.value as 'bilingual' | 'parallel')}>
          <Radio value="bilingual" label={t('importBilingual')} />
          <Radio value="parallel" label={t('importParallel')} />
        </RadioGroup>
        <p>{mode === 'bilingual' ? t('importBilingualHelp') : t('importParallelHelp')}</p>
        <FileInput fill text={files.length ? files.map((f) => f.name).join(', ') : t('chooseFiles')} inputProps={{ multiple: true, accept: mode === 'bilingual' ? '.tmx,.xlf,.xliff,.po,.txt,.xlsx' : '.txt' }} onInputChange={(e) => setFiles(Array.from((e.target as HTMLInputElement).files ?? []))} />
        {tooMany && files.length > 0 && <Callout intent={Intent.WARNING}>{mode === 'parallel' ? t('parallelNeedsTwo') : t('atMostFive')}</Callout>}
        {tooBig && <Callout intent={Intent.WARNING}>{t('tooBig', { name: tooBig.name })}</Callout>}
        {error && <Callout intent={Intent.DANGER}>{error}</Callout>}
        {report && (
          <Callout intent={report.rejected ? Intent.WARNING : Intent.SUCCESS} data-testid="corpus-import-report">
            {t('imported', { imported: report.imported, rejected: report.rejected })}
            {report.rejections.length > 0 && (
              <HTMLTable compact style={{ width: '100%' }}>
                <thead><tr><th>{t('file')}</th><th>{t('row')}</th><th>{t('reason')}</th></tr></thead>
                <tbody>{report.rejections.slice(0, 100).map((r, i) => <tr key={i}><td>{r.file}</td><td>{r.row}</td><td>{r.reason}</td></tr>)}</tbody>
              </HTMLTable>
            )}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter actions={<><Button text={t('close')} onClick={onClose} /><Button intent={Intent.PRIMARY} loading={busy} disabled={!files.length || tooMany || !!tooBig} text={t('import')} onClick={submit} /></>} />
    </Dialog>
  );
}

/** Cleaning: start the task, follow its progress, read the report, apply or discard it. */
function Cleaning({ corpus, mayEdit, onApplied }: { corpus: Corpus; mayEdit: boolean; onApplied(): void }) {
  const { t } = useTranslation();
  const api = useApi();
  const [report, setReport] = useState<Report | null>(null);
  const load = useCallback(() => api.get<Report | null>('/corpus/clean/report', { params: { corpusId: corpus.id }, silent: true }).then(setReport, () => setReport(null)), [api, corpus.id]);
  useEffect(() => void load(), [load]);
  const running = report?.status === 'running';
  const { task } = useTask(running ? report!.taskId : null);
  const fraction = task ? taskFraction(task) : null;
  // The task's end (pushed live) means the report is written: read it once more.
  const ended = running && !!task && (task.state === 'completed' || task.state === 'failed' || task.state === 'cancelled');
  useEffect(() => {
    if (ended) void load();
  }, [ended, load]);
  const settle = async (action: 'apply' | 'discard') => {
    await api.post(`/corpus/clean/${action}`, { reportId: report!.id });
    await load();
    onApplied();
  };
  return (
    <Card data-testid="corpus-cleaning">
      <H5>{t('cleaning')}</H5>
      <p>{t('cleaningHelp')}</p>
      {mayEdit && <Button icon="clean" text={t('startCleaning')} disabled={running} onClick={async () => { setReport(await api.post<Report>('/corpus/clean/start', { corpusId: corpus.id })); }} />}
      {running && <ProgressBar intent={Intent.PRIMARY} value={fraction ?? undefined} />}
      {running && task && <span>{t('progress', { done: task.progress.done, total: task.progress.total })}</span>}
      {report?.status === 'failed' && <Callout intent={Intent.DANGER}>{report.error}</Callout>}
      {report?.summary && (
        <>
          <HTMLTable compact striped style={{ width: '100%', marginTop: 8 }}>
            <thead><tr><th>{t('rule')}</th><th>{t('count')}</th><th>{t('examples')}</th></tr></thead>
            <tbody>
              {CLEANING_RULES.map((rule) => (
                <tr key={rule}>
                  <td>{t(`rule_${rule}`)}</td>
                  <td>{report.summary!.rules[rule]?.count ?? 0}</td>
                  <td>{(report.summary!.rules[rule]?.examples ?? []).map((e) => <div key={e.id}>{e.source || '∅'} → {e.target || '∅'}</div>)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <p>{t('reportStatus', { status: t(`status_${report.status}`), flagged: report.flagged, total: report.summary.total })}</p>
          {mayEdit && report.status === 'ready' && (
            <>
              <Button intent={Intent.DANGER} icon="trash" text={t('applyReport', { count: report.flagged })} disabled={!report.flagged} onClick={() => void settle('apply')} />{' '}
              <Button minimal text={t('discardReport')} onClick={() => void settle('discard')} />
            </>
          )}
        </>
      )}
    </Card>
  );
}

/** Alignment: two files or two pasted texts, the draft side by side, then accept all or the chosen pairs. */
function AlignDialog({ corpus, isOpen, onClose, onDone }: { corpus: Corpus; isOpen: boolean; onClose(): void; onDone(): void }) {
  const { t } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const [from, setFrom] = useState<'text' | 'files'>('text');
  const [texts, setTexts] = useState({ source: '', target: '' });
  const [files, setFiles] = useState<{ source?: File; target?: File }>({});
  const [draft, setDraft] = useState<Draft | null>(null);
  const [rows, setRows] = useState<Array<DraftPair & { keep: boolean }>>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const align = async () => {
    setBusy(true);
    setError(null);
    try {
      let d: Draft;
      if (from === 'text') d = await api.post<Draft>('/corpus/align/text', { corpusId: corpus.id, sourceText: texts.source, targetText: texts.target }, { silent: true });
      else {
        const form = new FormData();
        form.set('corpusId', String(corpus.id));
        form.append('files', files.source!);
        form.append('files', files.target!);
        d = await api.post<Draft>('/corpus/align/files', form, { silent: true });
      }
      setDraft(d);
      setRows(d.pairs.map((p) => ({ ...p, keep: !!p.source && !!p.target })));
    } catch (err) {
      setError((err as ApiErrorInfo).msg);
    } finally {
      setBusy(false);
    }
  };
  const accept = async () => {
    const pairs = rows.filter((r) => r.keep).map(({ source, target }) => ({ source, target }));
    const r = await api.post<{ added: number; skipped: number }>('/corpus/align/accept', { draftId: draft!.id, pairs });
    notify.success(t('alignAdded', { added: r.added }));
    setDraft(null);
    onDone();
    onClose();
  };
  const discard = async () => {
    if (draft) await api.delete('/corpus/align/draft', { params: { id: draft.id } });
    setDraft(null);
  };
  const set = (i: number, patch: Partial<DraftPair & { keep: boolean }>) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('align')} style={{ width: '90vw', maxWidth: 1200 }}>
      <DialogBody>
        {!draft && (
          <>
            <p>{t('alignHelp')}</p>
            <RadioGroup inline selectedValue={from} onChange={(e) => setFrom(e.currentTarget.value as 'text' | 'files')}>
              <Radio value="text" label={t('alignFromText')} />
              <Radio value="files" label={t('alignFromFiles')} />
            </RadioGroup>
            {from === 'text' ? (
              <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}>
                <TextArea fill rows={10} placeholder={t('sourceText', { lang: corpus.sourceLang })} value={texts.source} onChange={(e) => setTexts({ ...texts, source: e.target.value })} />
                <TextArea fill rows={10} placeholder={t('targetText', { lang: corpus.targetLang })} value={texts.target} onChange={(e) => setTexts({ ...texts, target: e.target.value })} />
              </div>
            ) : (
              <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}>
                <FileInput text={files.source?.name ?? t('sourceFile', { lang: corpus.sourceLang })} inputProps={{ accept: '.txt' }} onInputChange={(e) => setFiles({ ...files, source: (e.target as HTMLInputElement).files?.[0] })} />
                <FileInput text={files.target?.name ?? t('targetFile', { lang: corpus.targetLang })} inputProps={{ accept: '.txt' }} onInputChange={(e) => setFiles({ ...files, target: (e.target as HTMLInputElement).files?.[0] })} />
              </div>
            )}
          </>
        )}
        {error && <Callout intent={Intent.DANGER}>{error}</Callout>}
        {draft && (
          <HTMLTable compact striped style={{ width: '100%' }} data-testid="corpus-draft">
            <thead><tr><th /><th>{t('bead')}</th><th>{corpus.sourceLang}</th><th>{corpus.targetLang}</th></tr></thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={i}>
                  <td><Checkbox checked={r.keep} aria-label={t('keep')} onChange={() => set(i, { keep: !r.keep })} /></td>
                  <td><Tag minimal intent={r.bead === '1-1' ? Intent.NONE : Intent.WARNING}>{r.bead}</Tag></td>
                  <td><TextArea fill value={r.source} onChange={(e) => set(i, { source: e.target.value })} /></td>
                  <td><TextArea fill value={r.target} onChange={(e) => set(i, { target: e.target.value })} /></td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          draft ? (
            <>
              <Button text={t('discardDraft')} onClick={() => void discard()} />
              <Button text={t('selectAll')} onClick={() => setRows((rs) => rs.map((r) => ({ ...r, keep: true })))} />
              <Button intent={Intent.PRIMARY} text={t('acceptChosen', { count: rows.filter((r) => r.keep).length })} onClick={() => void accept()} />
            </>
          ) : (
            <Button intent={Intent.PRIMARY} loading={busy} disabled={from === 'text' ? !texts.source.trim() || !texts.target.trim() : !files.source || !files.target} text={t('alignRun')} onClick={() => void align()} />
          )
        }
      />
    </Dialog>
  );
}

/** One corpus: its pairs (search, paging, inline edit, batch delete), import, export, cleaning, alignment. */
function CorpusPage({ corpus, onChanged, onBack }: { corpus: Corpus; onChanged(): void; onBack(): void }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const perms = usePermission();
  const mayEdit = perms.hasButton('corpus:edit');
  const [text, setText] = useState('');
  const [refresh, setRefresh] = useState(0);
  const [selected, setSelected] = useState<Pair[]>([]);
  const [editing, setEditing] = useState<{ id: number; source: string; target: string } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [importing, setImporting] = useState(false);
  const [aligning, setAligning] = useState(false);
  const reload = () => {
    setRefresh((n) => n + 1);
    onChanged();
  };
  const save = async () => {
    await api.put('/corpus/pair/update', editing);
    setEditing(null);
    reload();
  };
  return (
    <div style={{ display: 'grid', gap: 12 }} data-testid="corpus-page">
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
        <Button minimal icon="arrow-left" text={t('back')} onClick={onBack} />
        <H5 style={{ margin: 0 }}>{corpus.name} ({languageDisplayName(corpus.sourceLang, i18n.language)} → {languageDisplayName(corpus.targetLang, i18n.language)}) · {t('pairCount', { count: corpus.pairs })}</H5>
        {mayEdit && <Button icon="import" text={t('import')} onClick={() => setImporting(true)} />}
        {mayEdit && <Button icon="align-justify" text={t('align')} onClick={() => setAligning(true)} />}
        <Button icon="export" text={t('exportTmx')} onClick={() => void download(api, corpus, 'tmx')} />
        <Button icon="export" text={t('exportTxt')} onClick={() => void download(api, corpus, 'txt')} />
        {mayEdit && <Button icon="trash" intent={Intent.DANGER} disabled={!selected.length} text={t('deleteSelected', { count: selected.length })} onClick={() => setDeleting(true)} />}
      </div>
      {!mayEdit && <Callout intent={Intent.PRIMARY} data-testid="read-only-note">{t('readOnlyPairs')}</Callout>}
      <SearchBar fields={[{ name: 'text', label: t('searchPairs') }]} onSearch={(v) => setText(v.text ?? '')} />
      <PagedTable<Pair>
        testId="corpus-pair"
        rowKey={(p) => p.id}
        reloadKey={`${corpus.id}|${text}`}
        refreshKey={refresh}
        selectable={mayEdit}
        onSelectionChange={(_, rows) => setSelected(rows)}
        load={(q) => paged(api.get<Paged<Pair>>('/corpus/pair/list', { params: { corpusId: corpus.id, text: text || undefined, pageNum: q.page, pageSize: q.pageSize } }))}
        emptyText={t('noPairs')}
        columns={[
          { key: 'position', title: '#', width: 60 },
          { key: 'source', title: t('source'), render: (p) => (editing?.id === p.id ? <InputGroup value={editing.source} onChange={(e) => setEditing({ ...editing, source: e.target.value })} /> : p.source) },
          { key: 'target', title: t('target'), render: (p) => (editing?.id === p.id ? <InputGroup value={editing.target} onChange={(e) => setEditing({ ...editing, target: e.target.value })} /> : p.target) },
          { key: 'flags', title: t('flags'), render: (p) => p.flags.map((f) => <Tag key={f} minimal intent={Intent.WARNING}>{t(`rule_${f}`)}</Tag>) },
          {
            key: 'actions',
            title: '',
            render: (p) =>
              !mayEdit ? null : editing?.id === p.id ? (
                <>
                  <Button small icon="tick" aria-label={t('save')} onClick={() => void save()} />
                  <Button small minimal icon="cross" aria-label={t('cancel')} onClick={() => setEditing(null)} />
                </>
              ) : (
                <Button small minimal icon="edit" aria-label={t('edit')} onClick={() => setEditing({ id: p.id, source: p.source, target: p.target })} />
              ),
          },
        ]}
      />
      <Cleaning corpus={corpus} mayEdit={mayEdit} onApplied={reload} />
      <ImportDialog corpus={corpus} isOpen={importing} onClose={() => setImporting(false)} onDone={reload} />
      <AlignDialog corpus={corpus} isOpen={aligning} onClose={() => setAligning(false)} onDone={reload} />
      <ConfirmDelete
        isOpen={deleting}
        title={t('deletePairs')}
        message={t('deletePairsMessage')}
        items={selected.map((p) => p.source)}
        url="/corpus/pair/delete"
        params={{ corpusId: corpus.id, ids: selected.map((p) => p.id).join(',') }}
        onDeleted={() => {
          setDeleting(false);
          setSelected([]);
          reload();
        }}
        onClose={() => setDeleting(false)}
      />
    </div>
  );
}

/** `/corpus`: the corpora the user owns (every one with corpus:manage), and the chosen one's page. */
function Corpora() {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const perms = usePermission();
  const languages = useLanguageOptions();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [refresh, setRefresh] = useState(0);
  const [open, setOpenState] = useState<Corpus | null>(null);
  // The open corpus lives in the address (?corpusId=), so a reload or a shared link reopens it.
  const [openParam, setOpenParam] = useQueryParam('corpusId');
  const setOpen = useCallback((c: Corpus | null) => { setOpenState(c); setOpenParam(c?.id ?? null); }, [setOpenParam]);
  useEffect(() => {
    const id = Number(openParam);
    if (!id || open?.id === id) return;
    let live = true;
    api.get<Corpus>('/corpus/detail', { params: { id }, silent: true }).then((c) => live && setOpenState(c), () => live && setOpenParam(null));
    return () => { live = false; };
    // Only a changed address asks the server again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openParam]);
  const [editing, setEditing] = useState<Partial<Corpus> | null>(null);
  const [removing, setRemoving] = useState<Corpus | null>(null);
  const mayEdit = perms.hasButton('corpus:edit');
  // Managers see everyone's corpora: the owner column says whose each one is.
  const mayManage = perms.hasButton('corpus:manage');
  const reopen = async () => {
    setRefresh((n) => n + 1);
    if (open) setOpen(await api.get<Corpus>('/corpus/detail', { params: { id: open.id }, silent: true }).catch(() => null));
  };
  const fields: FormField[] = [
    { name: 'name', label: t('name'), required: true },
    { name: 'sourceLang', label: t('sourceLang'), type: 'select', required: true, options: languages },
    { name: 'targetLang', label: t('targetLang'), type: 'select', required: true, options: languages },
    { name: 'domain', label: t('domain') },
  ];
  return (
    <div data-testid="corpus-view" style={{ padding: 20, display: 'grid', gap: 12 }}>
      <PageHeader title={t('title')} />
      {open ? (
        <CorpusPage corpus={open} onChanged={() => void reopen()} onBack={() => setOpen(null)} />
      ) : (
        <>
          <SearchBar
            fields={[
              { name: 'name', label: t('name') },
              { name: 'sourceLang', label: t('sourceLang'), type: 'select', options: languages },
              { name: 'targetLang', label: t('targetLang'), type: 'select', options: languages },
              { name: 'domain', label: t('domain') },
            ]}
            onSearch={setFilters}
            actions={mayEdit && <Button icon="add" intent={Intent.PRIMARY} text={t('addCorpus')} onClick={() => setEditing({ sourceLang: 'en', targetLang: 'zh-CN' })} data-testid="corpus-add" />}
          />
          {!mayEdit && <Callout intent={Intent.PRIMARY} data-testid="read-only-note">{t('readOnlyCorpora')}</Callout>}
          <PagedTable<Corpus>
            testId="corpus"
            rowKey={(c) => c.id}
            reloadKey={JSON.stringify(filters)}
            refreshKey={refresh}
            load={(q) => paged(api.get<Paged<Corpus>>('/corpus/list', { params: { ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v)), pageNum: q.page, pageSize: q.pageSize } }))}
            emptyText={mayEdit ? t('noCorporaCreate') : t('noCorpora')}
            columns={[
              { key: 'name', title: t('name'), render: (c) => (
                  // A real link: reachable by keyboard and announced as one.
                  <a href={`#corpus-${c.id}`} onClick={(e) => { e.preventDefault(); setOpen(c); }}>
                    {c.name}
                  </a>
                ) },
              { key: 'langs', title: t('languages'), render: (c) => `${languageDisplayName(c.sourceLang, i18n.language)} → ${languageDisplayName(c.targetLang, i18n.language)}` },
              { key: 'domain', title: t('domain'), render: (c) => c.domain ?? '—' },
              { key: 'pairs', title: t('pairs') },
              ...(mayManage ? [{ key: 'ownerName', title: t('owner'), render: (c: Corpus) => c.ownerName ?? t('formerUser', { id: c.ownerId }) }] : []),
              { key: 'updatedAt', title: t('updatedAt'), render: (c) => formatDate(c.updatedAt) },
              {
                key: 'actions',
                title: '',
                render: (c) => (
                  <>
                    <Button small minimal icon="folder-open" text={t('open')} onClick={() => setOpen(c)} />
                    {mayEdit && <Button small minimal icon="edit" aria-label={t('edit')} onClick={() => setEditing(c)} />}
                    {mayEdit && <Button small minimal icon="trash" intent={Intent.DANGER} aria-label={t('deleteCorpus')} onClick={() => setRemoving(c)} />}
                  </>
                ),
              },
            ]}
          />
        </>
      )}
      <FormDialog
        isOpen={!!editing}
        title={editing?.id ? t('editCorpus') : t('addCorpus')}
        fields={fields}
        schema={corpusSchema}
        initialValues={editing ?? {}}
        onSubmit={async (v) => {
          const body = { name: v.name, sourceLang: v.sourceLang, targetLang: v.targetLang, domain: v.domain || null };
          if (editing?.id) await api.put('/corpus/update', { ...body, id: editing.id }, { silent: true });
          else await api.post('/corpus/add', body, { silent: true });
          setEditing(null);
          void reopen();
        }}
        onClose={() => setEditing(null)}
      />
      <ConfirmDelete
        isOpen={!!removing}
        title={t('deleteCorpus')}
        message={t('deleteCorpusMessage', { name: removing?.name ?? '', count: removing?.pairs ?? 0 })}
        items={removing ? [removing.name] : []}
        url="/corpus/delete"
        params={{ id: removing?.id }}
        onDeleted={() => {
          setRemoving(null);
          setRefresh((n) => n + 1);
        }}
        onClose={() => setRemoving(null)}
      />
    </div>
  );
}

export default definePlugin({ id: 'corpus', views: { Corpora } });
