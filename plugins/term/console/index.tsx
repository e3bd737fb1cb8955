import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, ButtonGroup, Callout, Card, Classes, Dialog, H5, HTMLSelect, HTMLTable, InputGroup, Intent, NonIdealState, Spinner, Tag, TextArea } from '@blueprintjs/core';
import { PageHeader, ConfirmDialog, DataGrid, definePlugin, FormDialog, PagedTable, recordsLoader, SearchBar, useApi, useLanguageOptions, LibraryUserRights, ResourceExportDialog, ResourceImportCard, useNotify, usePermission, usePlatform, useQueryParam, useTranslation, type ApiErrorInfo, type FormField, type PagedColumn, type SlotViewProps } from '@linguaport/sdk/console';
import { actionsFrom, entryReview, formatDate, issueText, languageDisplayName } from '@linguaport/sdk/shared';
import { termEntrySchema } from '../shared/schemas.js';

interface TermBase {
  id: number;
  name: string;
  ownership: 'all' | 'department' | 'custom';
  kind: 'personal' | 'shared';
  entries: number;
  isDefault: boolean;
  mayEdit: boolean;
  createdAt: string;
  users: UserRight[];
}
interface UserRight {
  userId: number;
  username?: string;
  use: boolean;
  edit: boolean;
}
interface Term {
  id: number;
  source: string;
  target: string;
  sourceLang: string;
  targetLang: string;
  status: 'unchecked' | 'checked' | 'failed';
  enabled: boolean;
  forbidden: boolean;
  partOfSpeech: string | null;
  note: string | null;
  domain: string | null;
  createdAt: string;
}
interface Paged<T> {
  records: T[];
  total: number;
}
interface Hit {
  start: number;
  end: number;
  text: string;
  termId: number;
  target: string;
  forbidden: boolean;
}

/** Import into the term base: the SDK's card, with this area's formats and wording. */
function ImportCard({ termBase, onDone }: { termBase: TermBase; onDone(): void }) {
  const { t } = useTranslation();
  const languages = useLanguageOptions();
  return (
    <ResourceImportCard
      url="/term/import"
      libraryId={termBase.id}
      accept={['.tbx', '.csv', '.txt', '.xls', '.xlsx']}
      languages={languages}
      defaultLanguages={{ sourceLang: 'en', targetLang: 'zh-CN' }}
      help={t('importHelp')}
      reportText={(r) => t('importReport', { imported: r.imported, rejected: r.rejected })}
      testIdPrefix="term"
      onDone={onDone}
    />
  );
}

/** The terms of the chosen term base found in a pasted text, marked where they occur. */
function Recognise({ termBase }: { termBase: TermBase }) {
  const { t } = useTranslation();
  const api = useApi();
  const languages = useLanguageOptions();
  const [text, setText] = useState('');
  const [langs, setLangs] = useState({ sourceLang: 'en', targetLang: 'zh-CN' });
  const [hits, setHits] = useState<Hit[] | null>(null);
  const [shown, setShown] = useState('');
  const run = () =>
    void api.post<{ hits: Hit[] }>('/term/recognise', { text, ...langs, termBaseIds: [termBase.id] }, { silent: true }).then(
      (r) => {
        setShown(text);
        setHits(r.hits);
      },
      () => setHits([]),
    );
  const marked = () => {
    const out: React.ReactNode[] = [];
    let at = 0;
    for (const h of hits ?? []) {
      out.push(shown.slice(at, h.start), <mark key={h.start} title={h.target} style={h.forbidden ? { background: '#fa999c' } : undefined}>{shown.slice(h.start, h.end)}</mark>);
      at = h.end;
    }
    out.push(shown.slice(at));
    return out;
  };
  return (
    <Card data-testid="term-recognise">
      <H5>{t('recognise')}</H5>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center', marginBottom: 6 }}>
        <HTMLSelect aria-label={t('sourceLang')} value={langs.sourceLang} options={languages} onChange={(e) => setLangs({ ...langs, sourceLang: e.target.value })} />
        →
        <HTMLSelect aria-label={t('targetLang')} value={langs.targetLang} options={languages} onChange={(e) => setLangs({ ...langs, targetLang: e.target.value })} />
        <Button icon="search-text" disabled={!text.trim()} text={t('recogniseNow')} onClick={run} />
      </div>
      <TextArea fill value={text} placeholder={t('recogniseHint')} aria-label={t('recogniseHint')} onChange={(e) => setText(e.target.value)} />
      {hits && hits.length === 0 && <div style={{ marginTop: 6 }}>{t('noHits')}</div>}
      {hits && hits.length > 0 && (
        <>
          <p style={{ marginTop: 6 }}>{marked()}</p>
          <HTMLTable compact style={{ width: '100%' }}>
            <tbody>
              {hits.map((h) => (
                <tr key={`${h.start}:${h.termId}`}>
                  <td>{h.text}</td>
                  <td>{h.target}</td>
                  <td>{h.forbidden && <Tag intent={Intent.DANGER}>{t('forbidden')}</Tag>}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </>
      )}
    </Card>
  );
}

type ReviewAction = 'pass' | 'reject' | 'enable' | 'disable';

function Terms({ termBase, onChanged, outerRefresh }: { termBase: TermBase; onChanged(): void; outerRefresh: number }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const perms = usePermission();
  const languages = useLanguageOptions();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [refresh, setRefresh] = useState(0);
  const [selected, setSelected] = useState<Term[]>([]);
  // A new term (no id) or the one being edited.
  const [editing, setEditing] = useState<Partial<Term> | null>(null);
  const [deleting, setDeleting] = useState(false);
  const reload = () => {
    setRefresh((n) => n + 1);
    onChanged();
  };
  // A term base may hold a million terms: the grid asks for the pages it scrolls to.
  const load = recordsLoader<Term>(api, '/term/entry/list', { libraryId: termBase.id, ...filters });
  // Each review button works on the selection only when every selected term allows it (the same machine the server reads).
  const allows = (action: ReviewAction) => selected.length > 0 && selected.every((e) => actionsFrom(entryReview, e.status).includes(action));
  const review = async (action: ReviewAction) => {
    try {
      await api.post('/term/entry/review', { ids: selected.map((e) => e.id), action }, { silent: true });
      reload();
    } catch (err) {
      notify.error((err as ApiErrorInfo).msg);
    }
  };
  const isNew = !editing?.id;
  const fields: FormField[] = [
    { name: 'source', label: t('source'), type: 'textarea', required: true },
    { name: 'target', label: t('target'), type: 'textarea', required: true },
    { name: 'sourceLang', label: t('sourceLang'), type: 'select', options: languages, required: true, disabled: !isNew },
    { name: 'targetLang', label: t('targetLang'), type: 'select', options: languages, required: true, disabled: !isNew },
    { name: 'partOfSpeech', label: t('partOfSpeech') },
    { name: 'domain', label: t('domain') },
    { name: 'note', label: t('note'), type: 'textarea' },
    { name: 'forbidden', label: t('forbidden'), type: 'checkbox', helperText: t('forbiddenHelp') },
    ...(isNew ? [{ name: 'bidirectional', label: t('bidirectional'), type: 'checkbox' as const }] : []),
  ];
  const canEdit = termBase.mayEdit;
  const mayEditEntry = canEdit && perms.hasButton('term:edit');
  // Say why add, import, edit or delete are missing: the resource's own right, or the role's buttons.
  const missing = (['add', 'import', 'edit', 'delete'] as const).filter((a) => !perms.hasButton(`term:${a}`));
  const readOnly = !canEdit ? t('readOnlyShared') : missing.length ? t('readOnlyRole', { actions: missing.map((a) => t(`right_${a}`)).join(t('listSeparator')) }) : null;
  const columns = useMemo<PagedColumn<Term>[]>(
    () => [
      { key: 'source', title: t('source'), sortable: true, width: 220 },
      { key: 'target', title: t('target'), sortable: true, width: 220, render: (r) => (r.forbidden ? <><Tag intent={Intent.DANGER} minimal>{t('forbidden')}</Tag> {r.target}</> : r.target) },
      { key: 'langs', title: t('direction'), width: 100, render: (r) => `${languageDisplayName(r.sourceLang, i18n.language)} → ${languageDisplayName(r.targetLang, i18n.language)}` },
      { key: 'partOfSpeech', title: t('partOfSpeech'), width: 100, render: (r) => r.partOfSpeech ?? '' },
      { key: 'domain', title: t('domain'), sortable: true, width: 120, render: (r) => r.domain ?? '' },
      { key: 'status', title: t('status'), sortable: true, width: 110, render: (r) => <Tag minimal intent={r.status === 'checked' ? Intent.SUCCESS : r.status === 'failed' ? Intent.DANGER : Intent.NONE}>{t(`status_${r.status}`)}</Tag> },
      { key: 'enabled', title: t('enabled'), width: 80, render: (r) => (r.enabled ? t('yes') : t('no')) },
      { key: 'createdAt', title: t('createdAt'), sortable: true, width: 160, render: (r) => formatDate(r.createdAt) },
    ],
    [t],
  );
  // The dialog says what the export holds (and whether it is empty) before anything is downloaded.
  const [exporting, setExporting] = useState<'tbx' | 'csv' | 'xlsx' | null>(null);
  const exportAs = (format: 'tbx' | 'csv' | 'xlsx') => setExporting(format);
  return (
    <div style={{ display: 'grid', gap: 8 }}>
      {readOnly && <Callout intent={Intent.PRIMARY} data-testid="term-read-only">{readOnly}</Callout>}
      <SearchBar
        fields={[
          { name: 'text', label: t('searchText') },
          { name: 'status', label: t('status'), type: 'select', options: [{ value: '', label: t('all') }, ...entryReview.states.map((s) => ({ value: s, label: t(`status_${s}`) }))] },
          { name: 'forbidden', label: t('forbidden'), type: 'select', options: [{ value: '', label: t('all') }, { value: 'true', label: t('yes') }, { value: 'false', label: t('no') }] },
          { name: 'domain', label: t('domain') },
        ]}
        onSearch={(v) => setFilters(Object.fromEntries(Object.entries(v).filter(([, x]) => x !== '')) as Record<string, string>)}
        actions={
          <>
            {canEdit && perms.hasButton('term:add') && <Button icon="add" intent={Intent.PRIMARY} text={t('addEntry')} onClick={() => setEditing({ sourceLang: 'en', targetLang: 'zh-CN', forbidden: false })} data-testid="term-add-entry" />}
            {mayEditEntry && <Button icon="edit" disabled={selected.length !== 1} text={t('edit')} onClick={() => setEditing(selected[0]!)} data-testid="term-edit-entry" />}
            {canEdit && perms.hasButton('term:review') && (
              <ButtonGroup>
                <Button icon="tick" disabled={!allows('pass')} text={t('pass')} onClick={() => void review('pass')} data-testid="term-pass" />
                <Button icon="cross" disabled={!allows('reject')} text={t('reject')} onClick={() => void review('reject')} data-testid="term-reject" />
                <Button icon="eye-open" disabled={!allows('enable')} text={t('enable')} onClick={() => void review('enable')} />
                <Button icon="eye-off" disabled={!allows('disable')} text={t('disable')} onClick={() => void review('disable')} />
              </ButtonGroup>
            )}
            {canEdit && perms.hasButton('term:delete') && <Button icon="trash" intent={Intent.DANGER} disabled={!selected.length} text={t('delete')} onClick={() => setDeleting(true)} data-testid="term-delete-entries" />}
            {perms.hasButton('term:export') && (
              <ButtonGroup>
                <Button icon="export" text="TBX" onClick={() => exportAs('tbx')} data-testid="term-export-tbx" />
                <Button icon="export" text="CSV" onClick={() => exportAs('csv')} />
                <Button icon="export" text="XLSX" onClick={() => exportAs('xlsx')} />
              </ButtonGroup>
            )}
          </>
        }
      />
      <DataGrid<Term>
        testId="term-entry"
        rowKey={(r) => r.id}
        load={load}
        reloadKey={`${termBase.id}:${JSON.stringify(filters)}`}
        refreshKey={refresh + outerRefresh * 100000}
        onSelectionChange={(_, rows) => setSelected(rows)}
        onRowActivate={mayEditEntry ? (row) => setEditing(row) : undefined}
        emptyText={t('noEntries')}
        columns={columns}
      />
      <FormDialog
        isOpen={!!editing}
        title={isNew ? t('addEntry') : t('editEntry')}
        fields={fields}
        schema={termEntrySchema}
        initialValues={editing ?? {}}
        onSubmit={async (v) => {
          const extra = { partOfSpeech: (v.partOfSpeech as string) || null, domain: (v.domain as string) || null, note: (v.note as string) || null, forbidden: !!v.forbidden };
          if (isNew) await api.post('/term/entry/add', { source: v.source, target: v.target, sourceLang: v.sourceLang, targetLang: v.targetLang, ...extra, libraryId: termBase.id, bidirectional: !!v.bidirectional }, { silent: true });
          else await api.put('/term/entry/update', { id: editing!.id, source: v.source, target: v.target, ...extra }, { silent: true });
          setEditing(null);
          reload();
        }}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        isOpen={deleting}
        title={t('deleteEntries')}
        message={t('deleteEntriesMessage')}
        count={selected.length}
        items={selected.map((e) => e.source)}
        intent="danger"
        onConfirm={async () => {
          await api.delete('/term/entry/delete', { params: { ids: selected.map((e) => e.id).join(',') }, silent: true });
          setDeleting(false);
          reload();
        }}
        onClose={() => setDeleting(false)}
      />
      {exporting && (
        <ResourceExportDialog
          url="/term/export"
          libraryId={termBase.id}
          format={exporting}
          fileName={termBase.name}
          texts={{ checked: (count) => t('exportChecked', { count }), all: (count) => t('exportAll', { count }), noneChecked: (count) => t('exportNoneChecked', { count }), empty: t('exportEmpty') }}
          testIdPrefix="term"
          onClose={() => setExporting(null)}
        />
      )}
    </div>
  );
}

/** `/term`: the term bases the user may use, and the chosen one's terms, import, export and recognition. */
function TermBases() {
  const { t } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const perms = usePermission();
  const { navigate } = usePlatform();
  const [list, setList] = useState<TermBase[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The chosen term base lives in the address (?libraryId=), so a reload or a shared link keeps it.
  const [chosenParam, setChosen] = useQueryParam('libraryId');
  const chosen = Number(chosenParam) || null;
  const [editing, setEditing] = useState<Partial<TermBase> | null>(null);
  const [removing, setRemoving] = useState<TermBase | null>(null);
  // Bumped after an import, so the terms list reads the new rows.
  const [imports, setImports] = useState(0);
  const load = useCallback(() => {
    api.get<Paged<TermBase>>('/term/library/list', { params: { pageNum: 1, pageSize: 200 }, silent: true }).then(
      (r) => {
        setList(r.records);
        const asked = Number(new URLSearchParams(window.location.search).get('libraryId'));
        setChosen(asked && r.records.some((m) => m.id === asked) ? asked : (r.records[0]?.id ?? null));
      },
      (err: ApiErrorInfo) => setError(err.msg),
    );
  }, [api, setChosen]);
  useEffect(load, [load]);
  const termBase = list?.find((m) => m.id === chosen) ?? null;
  const toggleDefault = (b: TermBase) =>
    void api.put('/term/library/default', { id: b.id, isDefault: !b.isDefault }, { silent: true }).then(load, (err: ApiErrorInfo) => notify.error(err.msg));
  const fields: FormField[] = [
    { name: 'name', label: t('name'), required: true },
    { name: 'ownership', label: t('ownership'), type: 'select', required: true, options: (['all', 'department', 'custom'] as const).map((o) => ({ value: o, label: t(`ownership_${o}`) })) },
    { name: 'kind', label: t('kind'), type: 'select', options: [{ value: 'shared', label: t('kind_shared') }, { value: 'personal', label: t('kind_personal') }] },
    { name: 'users', label: t('users'), type: 'custom', render: (v, set) => <LibraryUserRights usersUrl="/term/users" testId="term-user-rights" value={(v as UserRight[]) ?? []} onChange={set} /> },
    { name: 'isDefault', label: t('isDefault'), type: 'checkbox' },
  ];
  return (
    <div data-testid="term-view" style={{ padding: 20, display: 'grid', gap: 12 }}>
      <PageHeader title={t('title')} />
      {error && <Callout intent={Intent.DANGER}>{t('loadFailed', { msg: error })}</Callout>}
      {!list && !error && <Spinner size={24} />}
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
        {list?.map((m) => (
          <Button key={m.id} active={m.id === chosen} onClick={() => setChosen(m.id)} data-testid={`term-base-${m.id}`} text={`${m.name} (${m.entries})`} icon={m.isDefault ? 'star' : 'book'} />
        ))}
        {perms.hasButton('term:library') && <Button icon="add" intent={Intent.PRIMARY} text={t('addTermBase')} onClick={() => setEditing({ ownership: 'department', kind: 'shared', users: [], isDefault: false })} data-testid="term-add-base" />}
        {termBase && <Button icon={termBase.isDefault ? 'star-empty' : 'star'} minimal text={termBase.isDefault ? t('unmakeDefault') : t('makeDefault')} onClick={() => toggleDefault(termBase)} data-testid="term-default" />}
        {termBase?.mayEdit && perms.hasButton('term:library') && (
          <>
            <Button icon="edit" minimal text={t('editTermBase')} onClick={() => setEditing(termBase)} />
            <Button icon="trash" minimal intent={Intent.DANGER} text={t('deleteTermBase')} onClick={() => setRemoving(termBase)} />
          </>
        )}
        {termBase && <Button icon="history" minimal text={t('historyTitle')} onClick={() => navigate(`/termHistory?libraryId=${termBase.id}`)} />}
      </div>
      {list && list.length === 0 && <NonIdealState icon="book" title={t('noTermBases')} description={perms.hasButton('term:library') ? t('noTermBasesHelp') : t('noTermBasesAsk')} />}
      {termBase && (
        <>
          <Terms termBase={termBase} onChanged={load} outerRefresh={imports} />
          {termBase.mayEdit && perms.hasButton('term:import') && (
            <ImportCard
              termBase={termBase}
              onDone={() => {
                setImports((n) => n + 1);
                load();
              }}
            />
          )}
          <Recognise termBase={termBase} />
        </>
      )}
      <FormDialog
        isOpen={!!editing}
        title={editing?.id ? t('editTermBase') : t('addTermBase')}
        fields={fields}
        initialValues={editing ?? {}}
        onSubmit={async (v) => {
          const body = { name: v.name, ownership: v.ownership, kind: v.kind ?? 'shared', users: ((v.users as UserRight[]) ?? []).map(({ userId, use, edit }) => ({ userId, use, edit })), isDefault: !!v.isDefault };
          if (editing?.id) await api.put('/term/library/update', { ...body, id: editing.id }, { silent: true });
          else await api.post('/term/library/add', body, { silent: true });
          setEditing(null);
          load();
        }}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        isOpen={!!removing}
        title={t('deleteTermBase')}
        message={t('deleteTermBaseMessage', { name: removing?.name ?? '', count: removing?.entries ?? 0 })}
        count={1}
        items={removing ? [removing.name] : []}
        intent="danger"
        onConfirm={async () => {
          await api.delete('/term/library/delete', { params: { id: removing!.id }, silent: true });
          setRemoving(null);
          load();
        }}
        onClose={() => setRemoving(null)}
      />
    </div>
  );
}

interface HistoryRow {
  id: number;
  entryId: number;
  action: string;
  actorId: number;
  /** Real name, else account name; null for a user since deleted. */
  actorName: string | null;
  at: string;
  before: Partial<Term> | null;
  after: Partial<Term> | null;
}

/** `/termHistory`: who did what to which term, with the term before and after. */
function TermHistory() {
  const { t } = useTranslation();
  const api = useApi();
  const [bases, setBases] = useState<TermBase[]>([]);
  const initial = Number(new URLSearchParams(window.location.search).get('libraryId')) || null;
  const [libraryId, setLibraryId] = useState<number | null>(initial);
  const [action, setAction] = useState('');
  useEffect(() => {
    void api.get<Paged<TermBase>>('/term/library/list', { params: { pageNum: 1, pageSize: 200 }, silent: true }).then((r) => {
      setBases(r.records);
      setLibraryId((id) => id ?? r.records[0]?.id ?? null);
    });
  }, [api]);
  const describe = (e: Partial<Term> | null) =>
    e ? `${e.source ?? ''} → ${e.target ?? ''} (${e.status ? t(`status_${e.status}`) : ''}${e.enabled === false ? `, ${t('disabled')}` : ''}${e.forbidden ? `, ${t('forbidden')}` : ''})` : '—';
  const actions = ['add', 'edit', 'delete', 'pass', 'reject', 'enable', 'disable'];
  return (
    <div data-testid="term-history-view" style={{ padding: 20, display: 'grid', gap: 12 }}>
      <PageHeader title={t('historyTitle')} />
      <div style={{ display: 'flex', gap: 8 }}>
        <HTMLSelect aria-label={t('chooseTermBase')} value={libraryId ?? ''} options={bases.map((m) => ({ value: m.id, label: m.name }))} onChange={(e) => setLibraryId(Number(e.target.value))} />
        <HTMLSelect aria-label={t('what')} value={action} options={[{ value: '', label: t('all') }, ...actions.map((a) => ({ value: a, label: t(`action_${a}`) }))]} onChange={(e) => setAction(e.target.value)} />
      </div>
      {libraryId && (
        <PagedTable<HistoryRow>
          testId="term-history"
          rowKey={(r) => r.id}
          reloadKey={`${libraryId}:${action}`}
          load={recordsLoader<HistoryRow>(api, '/termHistory/list', { libraryId, ...(action ? { action } : {}) })}
          emptyText={t('noHistory')}
          columns={[
            { key: 'at', title: t('when'), render: (r) => formatDate(r.at) },
            { key: 'actorId', title: t('who'), render: (r) => r.actorName ?? t('formerUser', { id: r.actorId }) },
            { key: 'action', title: t('what'), render: (r) => t(`action_${r.action}`) },
            { key: 'before', title: t('before'), render: (r) => describe(r.before) },
            { key: 'after', title: t('after'), render: (r) => describe(r.after) },
          ]}
        />
      )}
    </div>
  );
}

interface PanelProps {
  text: string;
  source: string;
  target: string;
  /** The translated sentences with the issues the pipeline's hooks found (ours: term-missing, term-forbidden). */
  segments?: Array<{ id: string; issues: Array<{ hook: string; severity?: string; code: string; message: string; params?: Record<string, string> }> }>;
}


/** Beside a text translation: the terms of the user's default term bases found in the source, with the translation each requires. */
function TermsPanel({ props }: SlotViewProps<PanelProps>) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const [hits, setHits] = useState<Hit[]>([]);
  const key = `${props.source}|${props.target}|${props.text}`;
  useEffect(() => {
    let live = true;
    const load = () =>
      void api.post<{ hits: Hit[] }>('/term/recognise', { text: props.text, sourceLang: props.source, targetLang: props.target }, { silent: true }).then(
        (r) => live && setHits(r.hits),
        () => live && setHits([]),
      );
    load();
    // A term added from the translation screen shows at once.
    window.addEventListener(TERM_ADDED, load);
    return () => {
      live = false;
      window.removeEventListener(TERM_ADDED, load);
    };
    // The key holds everything the lookup depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, key]);
  // The term hook's findings on this translation, worded in the console's language from their code.
  const issues = (props.segments ?? []).flatMap((s) => s.issues.filter((i) => i.hook === 'term').map((i, n) => ({ ...i, key: `${s.id}:${n}` })));
  if (!hits.length && !issues.length) return null;
  return (
    <Card data-testid="term-panel">
      <H5>{t('panelTitle')}</H5>
      {hits.map((h) => (
        <div key={`${h.start}:${h.termId}`} data-testid="term-panel-hit">
          {h.text} → {h.target} {h.forbidden && <Tag minimal intent={Intent.DANGER}>{t('forbidden')}</Tag>}
        </div>
      ))}
      {issues.map((i) => (
        <Callout key={i.key} intent={i.severity === 'info' ? Intent.NONE : Intent.WARNING} compact data-testid="term-panel-issue" style={{ marginTop: 6 }}>
          {issueText(i, i18n.language)}
        </Callout>
      ))}
    </Card>
  );
}

const TERM_ADDED = 'linguaport:term-added';

/**
 * "Add a term" among the text translation's actions: into a term base the user may edit (their
 * default first), the source prefilled with the text selected on the page.
 */
function TermAddAction({ props }: SlotViewProps<PanelProps>) {
  const { t } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  // The slot asks for term:add; the text translation's own button permission is needed too.
  const mayAdd = usePermission().hasButton('transText:addTerm');
  const [open, setOpen] = useState(false);
  const [bases, setBases] = useState<TermBase[] | null>(null);
  const [draft, setDraft] = useState({ libraryId: 0, source: '', target: '' });
  const [error, setError] = useState<string | null>(null);
  const start = () => {
    setError(null);
    setDraft({ libraryId: 0, source: window.getSelection()?.toString().trim().slice(0, 200) ?? '', target: '' });
    setOpen(true);
    void api.get<Paged<TermBase>>('/term/library/list', { params: { pageNum: 1, pageSize: 100 }, silent: true }).then(
      (r) => {
        const editable = r.records.filter((b) => b.mayEdit);
        setBases(editable);
        setDraft((d) => ({ ...d, libraryId: (editable.find((b) => b.isDefault) ?? editable[0])?.id ?? 0 }));
      },
      () => setBases([]),
    );
  };
  const save = async () => {
    try {
      await api.post('/term/entry/add', { libraryId: draft.libraryId, source: draft.source, target: draft.target, sourceLang: props.source, targetLang: props.target, forbidden: false, bidirectional: false }, { silent: true });
      notify.success(t('panelAdded', { name: bases?.find((b) => b.id === draft.libraryId)?.name ?? '' }));
      setOpen(false);
      window.dispatchEvent(new Event(TERM_ADDED));
    } catch (err) {
      setError((err as ApiErrorInfo).msg);
    }
  };
  if (!mayAdd) return null;
  return (
    <>
      <Button icon="add" text={t('panelAdd')} onClick={start} data-testid="add-term" />
      <Dialog isOpen={open} onClose={() => setOpen(false)} title={t('panelAdd')}>
        <div className={Classes.DIALOG_BODY} style={{ display: 'grid', gap: 8 }} data-testid="term-add-form">
          {!bases && <Spinner size={20} />}
          {bases && bases.length === 0 && <Callout intent={Intent.WARNING}>{t('panelNoBase')}</Callout>}
          {bases && bases.length > 0 && (
            <>
              <HTMLSelect aria-label={t('panelAddTo')} value={draft.libraryId} options={bases.map((b) => ({ value: b.id, label: b.name }))} onChange={(e) => setDraft({ ...draft, libraryId: Number(e.target.value) })} />
              <InputGroup aria-label={t('source')} placeholder={t('source')} value={draft.source} onChange={(e) => setDraft({ ...draft, source: e.target.value })} data-testid="term-add-source" />
              <InputGroup aria-label={t('target')} placeholder={t('target')} value={draft.target} onChange={(e) => setDraft({ ...draft, target: e.target.value })} data-testid="term-add-target" />
              {error && <Callout intent={Intent.DANGER}>{error}</Callout>}
            </>
          )}
        </div>
        <div className={Classes.DIALOG_FOOTER}>
          <div className={Classes.DIALOG_FOOTER_ACTIONS}>
            <Button text={t('cancel')} onClick={() => setOpen(false)} />
            <Button intent={Intent.PRIMARY} text={t('save')} disabled={!draft.libraryId || !draft.source.trim() || !draft.target.trim()} onClick={() => void save()} data-testid="term-add-save" />
          </div>
        </div>
      </Dialog>
    </>
  );
}

export default definePlugin({ id: 'term', views: { TermBases, TermHistory, TermsPanel, TermAddAction } });
