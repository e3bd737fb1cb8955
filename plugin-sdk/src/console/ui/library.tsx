import { Button, ButtonGroup, Callout, HTMLSelect, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { formatDate } from '../../shared/format.js';
import { languageDisplayName } from '../../shared/language-names.js';
import { actionsFrom } from '../../shared/state-machine.js';
import { entryReview } from '../../shared/states.js';
import { useApi, useNotify, usePermission, usePlatform, useTranslation, type ApiErrorInfo } from '../index.js';
import { useQueryParam } from '../remembered.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { DataGrid } from './DataGrid.js';
import { FormDialog } from './FormDialog.js';
import { PageHeader } from './PageHeader.js';
import { PagedTable } from './PagedTable.js';
import { SearchBar } from './SearchBar.js';
import { LibraryUserRights, ResourceExportDialog, ResourceImportCard } from './resources.js';
import type { ConfirmDeleteProps, FormField, LibraryUserRight, PagedColumn, ResourceEntriesProps, ResourceEntry, ResourceEntryColumns, ResourceHistoryProps, ResourceLibrary, ResourceLibraryScreenProps } from './types.js';
import { recordsLoader } from './useCrudScreen.js';

/**
 * The library screens the resource areas share (memories, term bases): the libraries with their
 * counts and the user's default, the entries grid with review, delete and export, and the review
 * history. Every word comes from the area's own locale namespace; paths, permissions and test ids
 * from its base (`/TM`) and prefix (`tm`).
 */

/** The words these screens read from the area's namespace (an area using them holds each, in every language). */
export const RESOURCE_LIBRARY_WORDS = [
  ...['title', 'historyTitle', 'loadFailed', 'name', 'ownership', 'kind', 'users', 'isDefault', 'makeDefault', 'unmakeDefault'],
  ...['ownership_all', 'ownership_department', 'ownership_custom', 'kind_shared', 'kind_personal'],
  ...['readOnlyShared', 'readOnlyRole', 'right_add', 'right_import', 'right_edit', 'right_delete', 'listSeparator'],
  ...['searchText', 'status', 'all', 'status_unchecked', 'status_checked', 'status_failed', 'source', 'target', 'direction', 'enabled', 'yes', 'no', 'createdAt'],
  ...['addEntry', 'editEntry', 'edit', 'pass', 'reject', 'enable', 'disable', 'delete', 'deleteEntries', 'deleteEntriesMessage', 'noEntries', 'bidirectional'],
  ...['exportChecked', 'exportAll', 'exportNoneChecked', 'exportEmpty'],
  ...['when', 'who', 'what', 'before', 'after', 'formerUser', 'noHistory', 'disabled', 'action_add', 'action_edit', 'action_delete', 'action_pass', 'action_reject', 'action_enable', 'action_disable'],
];

type ReviewAction = 'pass' | 'reject' | 'enable' | 'disable';
const HISTORY_ACTIONS = ['add', 'edit', 'delete', 'pass', 'reject', 'enable', 'disable'];

interface Paged<T> {
  records: T[];
  total: number;
}

/** The library list of the area, read once (the history screen's select). */
function useLibraryNames(api: ReturnType<typeof useApi>, base: string) {
  const [list, setList] = useState<ResourceLibrary[]>([]);
  useEffect(() => {
    void api.get<Paged<ResourceLibrary>>(`${base}/library/list`, { params: { pageNum: 1, pageSize: 200 }, silent: true }).then((r) => setList(r.records));
  }, [api, base]);
  return list;
}

/** The confirmation before rows are deleted: names them, then `DELETE url?params` and `onDeleted` (the dialog shows a failure). */
export function ConfirmDelete({ isOpen, title, message, items, url, params, onDeleted, onClose }: ConfirmDeleteProps): ReactNode {
  const api = useApi();
  return (
    <ConfirmDialog
      isOpen={isOpen}
      title={title}
      message={message}
      count={items.length}
      items={items}
      intent="danger"
      onConfirm={async () => {
        await api.delete(url, { params, silent: true });
        onDeleted();
      }}
      onClose={onClose}
    />
  );
}

/** `/TM`, `/term`: the libraries the user may use, the chosen one (kept in `?libraryId=`) and its entries, import and tools. */
export function ResourceLibraryScreen<L extends ResourceLibrary>({ base, area, libraryTestWord, icon, texts, entries, importCard, tools, below }: ResourceLibraryScreenProps<L>): ReactNode {
  const { t } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const perms = usePermission();
  const { navigate } = usePlatform();
  const [list, setList] = useState<L[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The chosen library lives in the address, so a reload or a shared link keeps it.
  const [chosenParam, setChosen] = useQueryParam('libraryId');
  const chosen = Number(chosenParam) || null;
  // A new library (no id) or the one being edited.
  const [editing, setEditing] = useState<Partial<ResourceLibrary> | null>(null);
  const [removing, setRemoving] = useState<L | null>(null);
  // Bumped after an import, so the entries grid reads the new rows.
  const [imports, setImports] = useState(0);
  const load = useCallback(() => {
    api.get<Paged<L>>(`${base}/library/list`, { params: { pageNum: 1, pageSize: 200 }, silent: true }).then(
      (r) => {
        setList(r.records);
        const asked = Number(new URLSearchParams(window.location.search).get('libraryId'));
        setChosen(asked && r.records.some((m) => m.id === asked) ? asked : (r.records[0]?.id ?? null));
      },
      (err: ApiErrorInfo) => setError(err.msg),
    );
  }, [api, base, setChosen]);
  useEffect(load, [load]);
  const library = list?.find((m) => m.id === chosen) ?? null;
  const mayManage = perms.hasButton(`${area}:library`);
  const toggleDefault = (l: L) => void api.put(`${base}/library/default`, { id: l.id, isDefault: !l.isDefault }, { silent: true }).then(load, (err: ApiErrorInfo) => notify.error(err.msg));
  const fields: FormField[] = [
    { name: 'name', label: t('name'), required: true },
    { name: 'ownership', label: t('ownership'), type: 'select', required: true, options: (['all', 'department', 'custom'] as const).map((o) => ({ value: o, label: t(`ownership_${o}`) })) },
    { name: 'kind', label: t('kind'), type: 'select', options: [{ value: 'shared', label: t('kind_shared') }, { value: 'personal', label: t('kind_personal') }] },
    { name: 'users', label: t('users'), type: 'custom', render: (v, set) => <LibraryUserRights usersUrl={`${base}/users`} testId={`${area}-user-rights`} value={(v as LibraryUserRight[]) ?? []} onChange={set} /> },
    { name: 'isDefault', label: t('isDefault'), type: 'checkbox' },
  ];
  return (
    <div data-testid={`${area}-view`} style={{ padding: 20, display: 'grid', gap: 12 }}>
      <PageHeader title={t('title')} />
      {error && <Callout intent={Intent.DANGER}>{t('loadFailed', { msg: error })}</Callout>}
      {!list && !error && <Spinner size={24} />}
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
        {list?.map((m) => (
          <Button key={m.id} active={m.id === chosen} onClick={() => setChosen(m.id)} data-testid={`${area}-${libraryTestWord}-${m.id}`} text={`${m.name} (${m.entries})`} icon={m.isDefault ? 'star' : icon} />
        ))}
        {mayManage && <Button icon="add" intent={Intent.PRIMARY} text={texts.add} onClick={() => setEditing({ ownership: 'department', kind: 'shared', users: [], isDefault: false })} data-testid={`${area}-add-${libraryTestWord}`} />}
        {library?.mayEdit && mayManage && (
          <>
            <Button icon="edit" minimal text={texts.edit} onClick={() => setEditing(library)} />
            <Button icon="trash" minimal intent={Intent.DANGER} text={texts.delete} onClick={() => setRemoving(library)} />
          </>
        )}
        {library && <Button icon="history" minimal text={t('historyTitle')} onClick={() => navigate(`${base}History?libraryId=${library.id}`)} />}
        {/* Anyone who may use a library may make it their default (the server checks the use right). */}
        {library && <Button icon={library.isDefault ? 'star-empty' : 'star'} minimal text={library.isDefault ? t('unmakeDefault') : t('makeDefault')} onClick={() => toggleDefault(library)} data-testid={`${area}-default`} />}
        {tools}
      </div>
      {list && list.length === 0 && <NonIdealState icon={icon} title={texts.none} description={mayManage ? texts.noneHelp : texts.noneAsk} />}
      {library && (
        <>
          {entries(library, { onChanged: load, outerRefresh: imports })}
          {library.mayEdit && perms.hasButton(`${area}:import`) && (
            <ResourceImportCard
              {...importCard}
              url={`${base}/import`}
              libraryId={library.id}
              testIdPrefix={area}
              onDone={() => {
                setImports((n) => n + 1);
                load();
              }}
            />
          )}
          {below?.(library)}
        </>
      )}
      <FormDialog
        isOpen={!!editing}
        title={editing?.id ? texts.edit : texts.add}
        fields={fields}
        initialValues={editing ?? {}}
        onSubmit={async (v) => {
          const body = { name: v.name, ownership: v.ownership, kind: v.kind ?? 'shared', users: ((v.users as LibraryUserRight[]) ?? []).map(({ userId, use, edit }) => ({ userId, use, edit })), isDefault: !!v.isDefault };
          if (editing?.id) await api.put(`${base}/library/update`, { ...body, id: editing.id }, { silent: true });
          else await api.post(`${base}/library/add`, body, { silent: true });
          setEditing(null);
          load();
        }}
        onClose={() => setEditing(null)}
      />
      <ConfirmDelete
        isOpen={!!removing}
        title={texts.delete}
        message={removing ? texts.deleteMessage(removing) : ''}
        items={removing ? [removing.name] : []}
        url={`${base}/library/delete`}
        params={{ id: removing?.id }}
        onDeleted={() => {
          setRemoving(null);
          load();
        }}
        onClose={() => setRemoving(null)}
      />
    </div>
  );
}

/** Why some actions are missing: the library is only shared for use, or the role lacks buttons. */
export function useReadOnlyNote(area: string, mayEditLibrary: boolean): string | null {
  const { t } = useTranslation();
  const perms = usePermission();
  const missing = (['add', 'import', 'edit', 'delete'] as const).filter((a) => !perms.hasButton(`${area}:${a}`));
  return !mayEditLibrary ? t('readOnlyShared') : missing.length ? t('readOnlyRole', { actions: missing.map((a) => t(`right_${a}`)).join(t('listSeparator')) }) : null;
}

/** The chosen library's entries: search, add and edit, review, delete with confirmation, export. */
export function ResourceEntries<E extends ResourceEntry>({ base, area, library, onChanged, outerRefresh, columns, fields, schema, newEntry, entryBody, filters: moreFilters = [], exports, details }: ResourceEntriesProps<E>): ReactNode {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const notify = useNotify();
  const perms = usePermission();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [refresh, setRefresh] = useState(0);
  const [selected, setSelected] = useState<E[]>([]);
  // A new entry (no id) or the one being edited.
  const [editing, setEditing] = useState<Partial<E> | null>(null);
  const [deleting, setDeleting] = useState(false);
  // The dialog says what the export holds (and whether it is empty) before anything is downloaded.
  const [exporting, setExporting] = useState<ResourceEntriesProps<E>['exports'][number] | null>(null);
  const reload = () => {
    setRefresh((n) => n + 1);
    onChanged();
  };
  // A library may hold a million entries: the grid asks for the pages it scrolls to.
  const load = recordsLoader<E>(api, `${base}/entry/list`, { libraryId: library.id, ...filters });
  // Each review button works on the selection only when every selected entry allows it (the same machine the server reads).
  const allows = (action: ReviewAction) => selected.length > 0 && selected.every((e) => actionsFrom(entryReview, e.status).includes(action));
  const review = async (action: ReviewAction) => {
    try {
      await api.post(`${base}/entry/review`, { ids: selected.map((e) => e.id), action }, { silent: true });
      reload();
    } catch (err) {
      notify.error((err as ApiErrorInfo).msg);
    }
  };
  const grid = useMemo(() => {
    const standard: ResourceEntryColumns<E> = {
      direction: { key: 'langs', title: t('direction'), width: 90, render: (r) => `${languageDisplayName(r.sourceLang, i18n.language)} → ${languageDisplayName(r.targetLang, i18n.language)}` },
      status: { key: 'status', title: t('status'), sortable: true, width: 110, render: (r) => <Tag minimal intent={r.status === 'checked' ? Intent.SUCCESS : r.status === 'failed' ? Intent.DANGER : Intent.NONE}>{t(`status_${r.status}`)}</Tag> },
      enabled: { key: 'enabled', title: t('enabled'), width: 80, render: (r) => (r.enabled ? t('yes') : t('no')) },
      createdAt: { key: 'createdAt', title: t('createdAt'), sortable: true, width: 160, render: (r) => formatDate(r.createdAt) },
    };
    return columns(standard);
    // The columns change with the language only (as the areas' own grids did).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [t]);
  const isNew = !editing?.id;
  const form: FormField[] = [
    { name: 'source', label: t('source'), type: 'textarea', required: true },
    { name: 'target', label: t('target'), type: 'textarea', required: true },
    ...fields(isNew),
    ...(isNew ? [{ name: 'bidirectional', label: t('bidirectional'), type: 'checkbox' as const }] : []),
  ];
  const canEdit = library.mayEdit;
  const mayEditEntry = canEdit && perms.hasButton(`${area}:edit`);
  const readOnly = useReadOnlyNote(area, canEdit);
  return (
    <div style={{ display: 'grid', gap: 8 }}>
      {readOnly && <Callout intent={Intent.PRIMARY} data-testid={`${area}-read-only`}>{readOnly}</Callout>}
      <SearchBar
        fields={[
          { name: 'text', label: t('searchText') },
          { name: 'status', label: t('status'), type: 'select', options: [{ value: '', label: t('all') }, ...entryReview.states.map((s) => ({ value: s, label: t(`status_${s}`) }))] },
          ...moreFilters,
        ]}
        onSearch={(v) => setFilters(Object.fromEntries(Object.entries(v).filter(([, x]) => x !== '')) as Record<string, string>)}
        actions={
          <>
            {canEdit && perms.hasButton(`${area}:add`) && <Button icon="add" intent={Intent.PRIMARY} text={t('addEntry')} onClick={() => setEditing({ ...newEntry })} data-testid={`${area}-add-entry`} />}
            {mayEditEntry && <Button icon="edit" disabled={selected.length !== 1} text={t('edit')} onClick={() => setEditing(selected[0]!)} data-testid={`${area}-edit-entry`} />}
            {canEdit && perms.hasButton(`${area}:review`) && (
              <ButtonGroup>
                <Button icon="tick" disabled={!allows('pass')} text={t('pass')} onClick={() => void review('pass')} data-testid={`${area}-pass`} />
                <Button icon="cross" disabled={!allows('reject')} text={t('reject')} onClick={() => void review('reject')} data-testid={`${area}-reject`} />
                <Button icon="eye-open" disabled={!allows('enable')} text={t('enable')} onClick={() => void review('enable')} />
                <Button icon="eye-off" disabled={!allows('disable')} text={t('disable')} onClick={() => void review('disable')} />
              </ButtonGroup>
            )}
            {canEdit && perms.hasButton(`${area}:delete`) && <Button icon="trash" intent={Intent.DANGER} disabled={!selected.length} text={t('delete')} onClick={() => setDeleting(true)} data-testid={`${area}-delete-entries`} />}
            {perms.hasButton(`${area}:export`) && (
              <ButtonGroup>
                {exports.map((x) => (
                  <Button key={x.format} icon="export" text={x.text} title={x.title} onClick={() => setExporting(x)} data-testid={x.testId} />
                ))}
              </ButtonGroup>
            )}
          </>
        }
      />
      <DataGrid<E>
        testId={`${area}-entry`}
        rowKey={(r) => r.id}
        load={load}
        reloadKey={`${library.id}:${JSON.stringify(filters)}`}
        refreshKey={refresh + outerRefresh * 100000}
        onSelectionChange={(_, rows) => setSelected(rows)}
        onRowActivate={mayEditEntry ? (row) => setEditing(row) : undefined}
        emptyText={t('noEntries')}
        columns={grid}
      />
      {details?.(selected)}
      <FormDialog
        isOpen={!!editing}
        title={isNew ? t('addEntry') : t('editEntry')}
        fields={form}
        schema={schema}
        initialValues={editing ? { bidirectional: false, ...editing } : {}}
        onSubmit={async (v) => {
          const extra = entryBody?.(v) ?? {};
          if (isNew) await api.post(`${base}/entry/add`, { source: v.source, target: v.target, sourceLang: v.sourceLang, targetLang: v.targetLang, ...extra, libraryId: library.id, bidirectional: !!v.bidirectional }, { silent: true });
          else await api.put(`${base}/entry/update`, { id: editing!.id, source: v.source, target: v.target, ...extra }, { silent: true });
          setEditing(null);
          reload();
        }}
        onClose={() => setEditing(null)}
      />
      <ConfirmDelete
        isOpen={deleting}
        title={t('deleteEntries')}
        message={t('deleteEntriesMessage')}
        items={selected.map((e) => e.source)}
        url={`${base}/entry/delete`}
        params={{ ids: selected.map((e) => e.id).join(',') }}
        onDeleted={() => {
          setDeleting(false);
          reload();
        }}
        onClose={() => setDeleting(false)}
      />
      {exporting && (
        <ResourceExportDialog
          url={`${base}/export`}
          libraryId={library.id}
          format={exporting.format}
          label={exporting.label}
          extension={exporting.extension}
          fileName={library.name}
          texts={{ checked: (count) => t('exportChecked', { count }), all: (count) => t('exportAll', { count }), noneChecked: (count) => t('exportNoneChecked', { count }), empty: t('exportEmpty') }}
          testIdPrefix={area}
          onClose={() => setExporting(null)}
        />
      )}
    </div>
  );
}

interface HistoryRow<E> {
  id: number;
  entryId: number;
  action: string;
  actorId: number;
  /** Real name, else account name; null for a user since deleted. */
  actorName: string | null;
  at: string;
  before: Partial<E> | null;
  after: Partial<E> | null;
}

/** `/TMHistory`, `/termHistory`: who did what to which entry, with the entry before and after. */
export function ResourceHistory<E extends ResourceEntry>({ base, area, chooseLabel, actionFilter, describeExtra }: ResourceHistoryProps<E>): ReactNode {
  const { t } = useTranslation();
  const api = useApi();
  const libraries = useLibraryNames(api, base);
  const initial = Number(new URLSearchParams(window.location.search).get('libraryId')) || null;
  const [libraryId, setLibraryId] = useState<number | null>(initial);
  const [action, setAction] = useState('');
  useEffect(() => setLibraryId((id) => id ?? libraries[0]?.id ?? null), [libraries]);
  const describe = (e: Partial<E> | null) =>
    e ? `${e.source ?? ''} → ${e.target ?? ''} (${e.status ? t(`status_${e.status}`) : ''}${e.enabled === false ? `, ${t('disabled')}` : ''}${describeExtra?.(e) ?? ''})` : '—';
  const choose = <HTMLSelect aria-label={chooseLabel} value={libraryId ?? ''} options={libraries.map((m) => ({ value: m.id, label: m.name }))} onChange={(e) => setLibraryId(Number(e.target.value))} />;
  return (
    <div data-testid={`${area}-history-view`} style={{ padding: 20, display: 'grid', gap: 12 }}>
      <PageHeader title={t('historyTitle')} />
      {actionFilter ? (
        <div style={{ display: 'flex', gap: 8 }}>
          {choose}
          <HTMLSelect aria-label={t('what')} value={action} options={[{ value: '', label: t('all') }, ...HISTORY_ACTIONS.map((a) => ({ value: a, label: t(`action_${a}`) }))]} onChange={(e) => setAction(e.target.value)} />
        </div>
      ) : (
        choose
      )}
      {libraryId && (
        <PagedTable<HistoryRow<E>>
          testId={`${area}-history`}
          rowKey={(r) => r.id}
          reloadKey={`${libraryId}:${action}`}
          load={recordsLoader<HistoryRow<E>>(api, `${base}History/list`, { libraryId, ...(action ? { action } : {}) })}
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
