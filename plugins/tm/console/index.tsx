import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, ButtonGroup, Callout, Card, H5, HTMLSelect, HTMLTable, InputGroup, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { PageHeader, ConfirmDialog, DataGrid, definePlugin, FormDialog, LanguageVariantPicker, PagedTable, recordsLoader, SearchBar, TaggedText, useApi, useLanguageOptions, LibraryUserRights, ResourceExportDialog, ResourceImportCard, useNotify, usePermission, usePlatform, useQueryParam, useTranslation, type ApiErrorInfo, type FormField, type PagedColumn, type SlotViewProps } from '@linguaport/sdk/console';
import { actionsFrom, entryReview, formatDate, languageDisplayName } from '@linguaport/sdk/shared';

interface Memory {
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
export interface Entry {
  id: number;
  source: string;
  target: string;
  sourceLang: string;
  targetLang: string;
  status: 'unchecked' | 'checked' | 'failed';
  enabled: boolean;
  quality: number | null;
  createdAt: string;
  /** Notes of the entry's TMX unit and its sides, and what else the unit said (tuid, dates, usage, props). */
  notes?: string[];
  metadata?: EntryMetadata;
}
interface SideMetadata {
  attrs?: Record<string, string>;
  props?: Array<{ type: string; value: string; lang?: string }>;
  notes?: string[];
}
interface EntryMetadata extends SideMetadata {
  tuid?: string;
  source?: SideMetadata;
  target?: SideMetadata;
}
interface Paged<T> {
  records: T[];
  total: number;
}

/** Import into the memory: the SDK's card, with this area's formats and wording. */
function ImportCard({ memory, onDone }: { memory: Memory; onDone(): void }) {
  const { t } = useTranslation();
  const languages = useLanguageOptions();
  return (
    <ResourceImportCard
      url="/TM/import"
      libraryId={memory.id}
      accept={['.tmx', '.xlf', '.xliff', '.po', '.txt', '.xls', '.xlsx']}
      languages={languages}
      defaultLanguages={{ sourceLang: 'en', targetLang: 'es' }}
      // A memory keeps language variants: en-US to en-GB is a memory of its own.
      variants
      help={t('importHelp')}
      reportText={(r) => t('importReport', { imported: r.imported, rejected: r.rejected })}
      testIdPrefix="tm"
      onDone={onDone}
    />
  );
}

function Concordance({ memoryId }: { memoryId: number }) {
  const { t } = useTranslation();
  const api = useApi();
  const [q, setQ] = useState('');
  const [hits, setHits] = useState<{ entryId: number; source: string; target: string; sourceHighlights: [number, number][]; targetHighlights: [number, number][] }[] | null>(null);
  const mark = (text: string, ranges: [number, number][]) => {
    const out: React.ReactNode[] = [];
    let at = 0;
    for (const [a, b] of ranges) {
      out.push(text.slice(at, a), <mark key={a}>{text.slice(a, b)}</mark>);
      at = b;
    }
    out.push(text.slice(at));
    return out;
  };
  return (
    <Card data-testid="tm-concordance">
      <H5>{t('concordance')}</H5>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (q.trim()) void api.get<{ entries: NonNullable<typeof hits> }>('/TM/concordance', { params: { libraryIds: String(memoryId), q }, silent: true }).then((r) => setHits(r.entries), () => setHits([]));
        }}
      >
        <InputGroup leftIcon="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder={t('concordanceHint')} aria-label={t('concordance')} />
      </form>
      {hits && hits.length === 0 && <div style={{ marginTop: 6 }}>{t('noHits')}</div>}
      {hits && hits.length > 0 && (
        <HTMLTable compact style={{ width: '100%' }}>
          <tbody>
            {hits.map((h) => (
              <tr key={h.entryId}>
                <td>{mark(h.source, h.sourceHighlights)}</td>
                <td>{mark(h.target, h.targetHighlights)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}

/** The selected entry's notes and what its TMX unit said (tuid, dates, usage, props), as imported and exported. */
export function EntryDetails({ entry }: { entry: Entry }) {
  const { t } = useTranslation();
  const m = entry.metadata ?? {};
  const rows: Array<[string, string]> = [];
  if (m.tuid) rows.push(['tuid', m.tuid]);
  const sides: Array<[string, SideMetadata | undefined]> = [[t('entryUnit'), m], [t('source'), m.source], [t('target'), m.target]];
  for (const [label, side] of sides) {
    for (const [k, v] of Object.entries(side?.attrs ?? {})) rows.push([`${label} · ${k}`, v]);
    for (const p of side?.props ?? []) rows.push([`${label} · ${p.type}${p.lang ? ` (${p.lang})` : ''}`, p.value]);
  }
  const notes = entry.notes ?? [];
  if (!notes.length && !rows.length) return null;
  return (
    <Card data-testid="tm-entry-details">
      <H5>{t('entryDetails')}</H5>
      {notes.length > 0 && (
        <ul data-testid="tm-entry-notes" style={{ margin: '0 0 8px', paddingLeft: 18 }}>
          {notes.map((n, i) => (
            <li key={i} style={{ whiteSpace: 'pre-wrap' }}>{n}</li>
          ))}
        </ul>
      )}
      {rows.length > 0 && (
        <HTMLTable compact>
          <tbody>
            {rows.map(([k, v], i) => (
              <tr key={i}>
                <td style={{ color: '#5f6b7c' }}>{k}</td>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}

function Entries({ memory, onChanged, outerRefresh }: { memory: Memory; onChanged(): void; outerRefresh: number }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const perms = usePermission();
  const languages = useLanguageOptions();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [refresh, setRefresh] = useState(0);
  const [selected, setSelected] = useState<Entry[]>([]);
  // A new entry (no id) or the one being edited.
  const [editing, setEditing] = useState<Partial<Entry> | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [exporting, setExporting] = useState<'tmx' | 'xlsx' | 'xliff12' | 'xliff21' | null>(null);
  const reload = () => {
    setRefresh((n) => n + 1);
    onChanged();
  };
  // A memory may hold a million entries: the grid asks for the pages it scrolls to.
  const load = recordsLoader<Entry>(api, '/TM/entry/list', { libraryId: memory.id, ...filters });
  // Each review button works on the selection only when every selected entry allows it (the same machine the server reads).
  const allows = (action: 'pass' | 'reject' | 'enable' | 'disable') => selected.length > 0 && selected.every((e) => actionsFrom(entryReview, e.status).includes(action));
  const review = async (action: 'pass' | 'reject' | 'enable' | 'disable') => {
    try {
      await api.post('/TM/entry/review', { ids: selected.map((e) => e.id), action }, { silent: true });
      reload();
    } catch (err) {
      notify.error((err as ApiErrorInfo).msg);
    }
  };
  const columns = useMemo<PagedColumn<Entry>[]>(
    () => [
      // Placeholders of imported or document entries as the editors' chips, not raw `<1>`.
      { key: 'source', title: t('source'), sortable: true, width: 320, render: (r) => <TaggedText text={r.source} /> },
      { key: 'target', title: t('target'), sortable: true, width: 320, render: (r) => <TaggedText text={r.target} /> },
      { key: 'langs', title: t('direction'), width: 90, render: (r) => `${languageDisplayName(r.sourceLang, i18n.language)} → ${languageDisplayName(r.targetLang, i18n.language)}` },
      { key: 'status', title: t('status'), sortable: true, width: 110, render: (r) => <Tag minimal intent={r.status === 'checked' ? Intent.SUCCESS : r.status === 'failed' ? Intent.DANGER : Intent.NONE}>{t(`status_${r.status}`)}</Tag> },
      { key: 'enabled', title: t('enabled'), width: 80, render: (r) => (r.enabled ? t('yes') : t('no')) },
      { key: 'createdAt', title: t('createdAt'), sortable: true, width: 160, render: (r) => formatDate(r.createdAt) },
      // The translator's notes kept from the TMX file (all of them in the details below the grid).
      { key: 'notes', title: t('notes'), width: 220, render: (r) => (r.notes?.length ? <span title={r.notes.join('\n')}>{r.notes.join(' · ')}</span> : '') },
    ],
    [t],
  );
  const isNew = !editing?.id;
  const fields: FormField[] = [
    { name: 'source', label: t('source'), type: 'textarea', required: true },
    { name: 'target', label: t('target'), type: 'textarea', required: true },
    // A language with its variant (en-GB, zh-Hans-CN): the language from the list, the region or script typed.
    ...(['sourceLang', 'targetLang'] as const).map((name) => ({
      name,
      label: t(name),
      type: 'custom' as const,
      required: true,
      disabled: !isNew,
      render: (value: unknown, setValue: (v: unknown) => void) => <LanguageVariantPicker aria-label={t(name)} value={String(value ?? '')} languages={languages} disabled={!isNew} onChange={setValue} data-testid={`tm-entry-${name}`} />,
    })),
    ...(isNew ? [{ name: 'bidirectional', label: t('bidirectional'), type: 'checkbox' as const }] : []),
  ];
  const canEdit = memory.mayEdit;
  const mayEditEntry = canEdit && perms.hasButton('tm:edit');
  // Say why add, import, edit or delete are missing: the resource's own right, or the role's buttons.
  const missing = (['add', 'import', 'edit', 'delete'] as const).filter((a) => !perms.hasButton(`tm:${a}`));
  const readOnly = !canEdit ? t('readOnlyShared') : missing.length ? t('readOnlyRole', { actions: missing.map((a) => t(`right_${a}`)).join(t('listSeparator')) }) : null;
  return (
    <div style={{ display: 'grid', gap: 8 }}>
      {readOnly && <Callout intent={Intent.PRIMARY} data-testid="tm-read-only">{readOnly}</Callout>}
      <SearchBar
        fields={[
          { name: 'text', label: t('searchText') },
          { name: 'status', label: t('status'), type: 'select', options: [{ value: '', label: t('all') }, ...entryReview.states.map((s) => ({ value: s, label: t(`status_${s}`) }))] },
        ]}
        onSearch={(v) => setFilters(Object.fromEntries(Object.entries(v).filter(([, x]) => x !== '')) as Record<string, string>)}
        actions={
          <>
            {canEdit && perms.hasButton('tm:add') && <Button icon="add" intent={Intent.PRIMARY} text={t('addEntry')} onClick={() => setEditing({ sourceLang: 'en', targetLang: 'es' })} data-testid="tm-add-entry" />}
            {mayEditEntry && <Button icon="edit" disabled={selected.length !== 1} text={t('edit')} onClick={() => setEditing(selected[0]!)} data-testid="tm-edit-entry" />}
            {canEdit && perms.hasButton('tm:review') && (
              <ButtonGroup>
                <Button icon="tick" disabled={!allows('pass')} text={t('pass')} onClick={() => void review('pass')} data-testid="tm-pass" />
                <Button icon="cross" disabled={!allows('reject')} text={t('reject')} onClick={() => void review('reject')} data-testid="tm-reject" />
                <Button icon="eye-open" disabled={!allows('enable')} text={t('enable')} onClick={() => void review('enable')} />
                <Button icon="eye-off" disabled={!allows('disable')} text={t('disable')} onClick={() => void review('disable')} />
              </ButtonGroup>
            )}
            {canEdit && perms.hasButton('tm:delete') && <Button icon="trash" intent={Intent.DANGER} disabled={!selected.length} text={t('delete')} onClick={() => setDeleting(true)} data-testid="tm-delete-entries" />}
            {perms.hasButton('tm:export') && (
              <>
                <Button icon="export" text="TMX" onClick={() => setExporting('tmx')} data-testid="tm-export-tmx" />
                <Button icon="export" text="XLSX" onClick={() => setExporting('xlsx')} />
                <Button icon="export" text="XLIFF 1.2" title={t('exportXliffHelp')} onClick={() => setExporting('xliff12')} data-testid="tm-export-xliff12" />
                <Button icon="export" text="XLIFF 2.1" title={t('exportXliffHelp')} onClick={() => setExporting('xliff21')} data-testid="tm-export-xliff21" />
              </>
            )}
          </>
        }
      />
      <DataGrid<Entry>
        testId="tm-entry"
        rowKey={(r) => r.id}
        load={load}
        reloadKey={`${memory.id}:${JSON.stringify(filters)}`}
        refreshKey={refresh + outerRefresh * 100000}
        onSelectionChange={(_, rows) => setSelected(rows)}
        onRowActivate={mayEditEntry ? (row) => setEditing(row) : undefined}
        emptyText={t('noEntries')}
        columns={columns}
      />
      {selected.length === 1 && <EntryDetails entry={selected[0]!} />}
      <FormDialog
        isOpen={!!editing}
        title={isNew ? t('addEntry') : t('editEntry')}
        fields={fields}
        initialValues={editing ? { bidirectional: false, ...editing } : {}}
        onSubmit={async (v) => {
          if (isNew) await api.post('/TM/entry/add', { source: v.source, target: v.target, sourceLang: v.sourceLang, targetLang: v.targetLang, libraryId: memory.id, bidirectional: !!v.bidirectional }, { silent: true });
          else await api.put('/TM/entry/update', { id: editing!.id, source: v.source, target: v.target }, { silent: true });
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
          await api.delete('/TM/entry/delete', { params: { ids: selected.map((e) => e.id).join(',') }, silent: true });
          setDeleting(false);
          reload();
        }}
        onClose={() => setDeleting(false)}
      />
      {exporting && (
        <ResourceExportDialog
          url="/TM/export"
          libraryId={memory.id}
          format={exporting}
          {...(exporting === 'xliff12' ? { label: 'XLIFF 1.2', extension: 'xlf' } : exporting === 'xliff21' ? { label: 'XLIFF 2.1', extension: 'xliff2.xlf' } : {})}
          fileName={memory.name}
          texts={{ checked: (count) => t('exportChecked', { count }), all: (count) => t('exportAll', { count }), noneChecked: (count) => t('exportNoneChecked', { count }), empty: t('exportEmpty') }}
          testIdPrefix="tm"
          onClose={() => setExporting(null)}
        />
      )}
    </div>
  );
}

/** `/TM`: the memories the user may use, and the chosen one's entries, import, export and concordance. */
function Memories() {
  const { t } = useTranslation();
  const api = useApi();
  const perms = usePermission();
  const { navigate } = usePlatform();
  const [list, setList] = useState<Memory[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The chosen memory lives in the address (?libraryId=), so a reload or a shared link keeps it.
  const [chosenParam, setChosenParam] = useQueryParam('libraryId');
  const chosen = Number(chosenParam) || null;
  const setChosen = setChosenParam;
  const [editing, setEditing] = useState<Partial<Memory> | null>(null);
  const [removing, setRemoving] = useState<Memory | null>(null);
  // Bumped after an import, so the entries list reads the new rows.
  const [imports, setImports] = useState(0);
  // The match thresholds being edited (null: the dialog is closed).
  const [matchSettings, setMatchSettings] = useState<{ showThreshold: number; autoUseThreshold: number; variantPenalty: number } | null>(null);
  const notify = useNotify();
  const openSettings = async () => setMatchSettings(await api.get<{ showThreshold: number; autoUseThreshold: number; variantPenalty: number }>('/TM/settings'));
  const load = useCallback(() => {
    api.get<Paged<Memory>>('/TM/library/list', { params: { pageNum: 1, pageSize: 200 }, silent: true }).then(
      (r) => {
        setList(r.records);
        const asked = Number(new URLSearchParams(window.location.search).get('libraryId'));
        setChosen(asked && r.records.some((m) => m.id === asked) ? asked : (r.records[0]?.id ?? null));
      },
      (err: ApiErrorInfo) => setError(err.msg),
    );
  }, [api, setChosen]);
  useEffect(load, [load]);
  const memory = list?.find((m) => m.id === chosen) ?? null;
  const toggleDefault = (m: Memory) => void api.put('/TM/library/default', { id: m.id, isDefault: !m.isDefault }, { silent: true }).then(load, (err: ApiErrorInfo) => notify.error(err.msg));
  const fields: FormField[] = [
    { name: 'name', label: t('name'), required: true },
    { name: 'ownership', label: t('ownership'), type: 'select', required: true, options: (['all', 'department', 'custom'] as const).map((o) => ({ value: o, label: t(`ownership_${o}`) })) },
    { name: 'kind', label: t('kind'), type: 'select', options: [{ value: 'shared', label: t('kind_shared') }, { value: 'personal', label: t('kind_personal') }] },
    { name: 'users', label: t('users'), type: 'custom', render: (v, set) => <LibraryUserRights usersUrl="/TM/users" testId="tm-user-rights" value={(v as UserRight[]) ?? []} onChange={set} /> },
    { name: 'isDefault', label: t('isDefault'), type: 'checkbox' },
  ];
  return (
    <div data-testid="tm-view" style={{ padding: 20, display: 'grid', gap: 12 }}>
      <PageHeader title={t('title')} />
      {error && <Callout intent={Intent.DANGER}>{t('loadFailed', { msg: error })}</Callout>}
      {!list && !error && <Spinner size={24} />}
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
        {list?.map((m) => (
          <Button key={m.id} active={m.id === chosen} onClick={() => setChosen(m.id)} data-testid={`tm-memory-${m.id}`} text={`${m.name} (${m.entries})`} icon={m.isDefault ? 'star' : 'database'} />
        ))}
        {perms.hasButton('tm:library') && <Button icon="add" intent={Intent.PRIMARY} text={t('addMemory')} onClick={() => setEditing({ ownership: 'department', kind: 'shared', users: [], isDefault: false })} data-testid="tm-add-memory" />}
        {memory?.mayEdit && perms.hasButton('tm:library') && (
          <>
            <Button icon="edit" minimal text={t('editMemory')} onClick={() => setEditing(memory)} />
            <Button icon="trash" minimal intent={Intent.DANGER} text={t('deleteMemory')} onClick={() => setRemoving(memory)} />
          </>
        )}
        {memory && <Button icon="history" minimal text={t('historyTitle')} onClick={() => navigate(`/TMHistory?libraryId=${memory.id}`)} />}
        {/* Anyone who may use a memory may make it their default (the server checks the use right). */}
        {memory && <Button icon={memory.isDefault ? 'star-empty' : 'star'} minimal text={memory.isDefault ? t('unmakeDefault') : t('makeDefault')} onClick={() => toggleDefault(memory)} data-testid="tm-default" />}
        {perms.hasButton('tm:settings') && <Button icon="settings" minimal text={t('matchSettings')} onClick={() => void openSettings()} data-testid="tm-settings" />}
      </div>
      <FormDialog
        isOpen={!!matchSettings}
        title={t('matchSettings')}
        fields={[
          { name: 'showThreshold', label: t('showThreshold'), type: 'number', required: true, helperText: t('showThresholdHelp') },
          { name: 'autoUseThreshold', label: t('autoUseThreshold'), type: 'number', required: true, helperText: t('autoUseThresholdHelp') },
          { name: 'variantPenalty', label: t('variantPenaltySetting'), type: 'number', required: true, helperText: t('variantPenaltyHelp') },
        ]}
        initialValues={matchSettings ?? undefined}
        onSubmit={async (v) => {
          await api.put('/TM/settings', { showThreshold: Number(v.showThreshold), autoUseThreshold: Number(v.autoUseThreshold), variantPenalty: Number(v.variantPenalty) }, { silent: true });
          setMatchSettings(null);
          notify.success(t('matchSettingsSaved'));
        }}
        onClose={() => setMatchSettings(null)}
      />
      {list && list.length === 0 && <NonIdealState icon="database" title={t('noMemories')} description={perms.hasButton('tm:library') ? t('noMemoriesHelp') : t('noMemoriesAsk')} />}
      {memory && (
        <>
          <Entries memory={memory} onChanged={load} outerRefresh={imports} />
          {memory.mayEdit && perms.hasButton('tm:import') && (
            <ImportCard
              memory={memory}
              onDone={() => {
                setImports((n) => n + 1);
                load();
              }}
            />
          )}
          <Concordance memoryId={memory.id} />
        </>
      )}
      <FormDialog
        isOpen={!!editing}
        title={editing?.id ? t('editMemory') : t('addMemory')}
        fields={fields}
        initialValues={editing ?? {}}
        onSubmit={async (v) => {
          const body = { name: v.name, ownership: v.ownership, kind: v.kind ?? 'shared', users: ((v.users as UserRight[]) ?? []).map(({ userId, use, edit }) => ({ userId, use, edit })), isDefault: !!v.isDefault };
          if (editing?.id) await api.put('/TM/library/update', { ...body, id: editing.id }, { silent: true });
          else await api.post('/TM/library/add', body, { silent: true });
          setEditing(null);
          load();
        }}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        isOpen={!!removing}
        title={t('deleteMemory')}
        message={t('deleteMemoryMessage', { name: removing?.name ?? '', count: removing?.entries ?? 0 })}
        count={1}
        items={removing ? [removing.name] : []}
        intent="danger"
        onConfirm={async () => {
          await api.delete('/TM/library/delete', { params: { id: removing!.id }, silent: true });
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
  before: Partial<Entry> | null;
  after: Partial<Entry> | null;
}

/** `/TMHistory`: who did what to which entry, with the entry before and after. */
function MemoryHistory() {
  const { t } = useTranslation();
  const api = useApi();
  const [memories, setMemories] = useState<Memory[]>([]);
  const initial = Number(new URLSearchParams(window.location.search).get('libraryId')) || null;
  const [libraryId, setLibraryId] = useState<number | null>(initial);
  useEffect(() => {
    void api.get<Paged<Memory>>('/TM/library/list', { params: { pageNum: 1, pageSize: 200 }, silent: true }).then((r) => {
      setMemories(r.records);
      setLibraryId((id) => id ?? r.records[0]?.id ?? null);
    });
  }, [api]);
  const describe = (e: Partial<Entry> | null) => (e ? `${e.source ?? ''} → ${e.target ?? ''} (${e.status ? t(`status_${e.status}`) : ''}${e.enabled === false ? `, ${t('disabled')}` : ''})` : '—');
  return (
    <div data-testid="tm-history-view" style={{ padding: 20, display: 'grid', gap: 12 }}>
      <PageHeader title={t('historyTitle')} />
      <HTMLSelect aria-label={t('title')} value={libraryId ?? ''} options={memories.map((m) => ({ value: m.id, label: m.name }))} onChange={(e) => setLibraryId(Number(e.target.value))} />
      {libraryId && (
        <PagedTable<HistoryRow>
          testId="tm-history"
          rowKey={(r) => r.id}
          reloadKey={libraryId}
          load={recordsLoader<HistoryRow>(api, '/TMHistory/list', { libraryId })}
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

/** What text translation gives its side panel (the shape its manifest's slot describes). */
interface PanelProps {
  text: string;
  source: string;
  target: string;
  segments: Array<{ id: string; source: string; target: string; origin: { kind: string; hook?: string; score?: number } }>;
  /** The memories the translation used (absent: the user's defaults; empty: none). */
  resources?: { memories?: number[] };
  onInsert?(segmentId: string, target: string, origin: { kind: string; hook?: string; score?: number }): void;
}

/**
 * Beside a text translation: which sentences came from a memory (exact matches), and the best fuzzy
 * matches of the others in the user's default memories, with their scores.
 */
function MemoryMatchesPanel({ props }: SlotViewProps<PanelProps>) {
  const { t } = useTranslation();
  const api = useApi();
  const [fuzzy, setFuzzy] = useState<Record<string, { score: number; source: string; target: string; targetLang?: string; penalty?: number; notes?: string[] }[]>>({});
  const chosen = props.resources?.memories;
  // No memory chosen: nothing to look up.
  const open = chosen && chosen.length === 0 ? [] : props.segments.filter((s) => s.origin.hook !== 'tm' && s.source.trim()).slice(0, 5);
  const key = `${props.source}|${props.target}|${chosen?.join(',') ?? ''}|${open.map((s) => s.source).join('|')}`;
  useEffect(() => {
    let live = true;
    void Promise.all(
      open.map((s) =>
        api
          .get<{ matches: { score: number; source: string; target: string; targetLang?: string; penalty?: number; notes?: string[] }[] }>('/TM/match', { params: { sourceLang: props.source, targetLang: props.target, text: s.source.trim(), limit: 3, ...(chosen?.length ? { libraryIds: chosen.join(',') } : {}) }, silent: true })
          .then((r) => [s.id, r.matches] as const, () => [s.id, []] as const),
      ),
    ).then((pairs) => live && setFuzzy(Object.fromEntries(pairs)));
    return () => {
      live = false;
    };
    // The key holds everything the lookups depend on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, key]);
  const exact = props.segments.filter((s) => s.origin.hook === 'tm');
  const found = Object.values(fuzzy).some((m) => m.length > 0);
  if (!exact.length && !found) return null;
  return (
    <Card data-testid="tm-panel">
      <H5>{t('panelTitle')}</H5>
      {exact.map((s) => (
        <div key={s.id}>
          <Tag intent={Intent.SUCCESS} minimal>{s.origin.score ?? 100}%</Tag> {s.source.trim()} → {s.target.trim()}
        </div>
      ))}
      {open.map((s) =>
        (fuzzy[s.id] ?? []).map((m, i) => (
          <div key={`${s.id}:${i}`} data-testid="tm-panel-match">
            <Tag minimal>{m.score}%</Tag> {m.source} → {m.target}{' '}
            {/* From another variant of the language (en-US for en-GB): which, and the points it cost. */}
            {!!m.penalty && (
              <Tag minimal intent={Intent.WARNING} data-testid="tm-panel-variant" title={t('variantPenalty', { penalty: m.penalty })}>
                {m.targetLang}
              </Tag>
            )}{' '}
            {props.onInsert && <Button small minimal icon="insert" text={t('insertMatch')} data-testid="tm-insert-match" onClick={() => props.onInsert!(s.id, m.target, { kind: 'hook', hook: 'tm', score: m.score })} />}
            {/* The translator's notes kept with the entry (from its TMX unit). */}
            {!!m.notes?.length && (
              <div data-testid="tm-panel-notes" style={{ color: '#5f6b7c', fontSize: 12, whiteSpace: 'pre-wrap' }}>
                {m.notes.join('\n')}
              </div>
            )}
          </div>
        )),
      )}
    </Card>
  );
}

export default definePlugin({ id: 'tm', views: { Memories, MemoryHistory, MemoryMatchesPanel } });
