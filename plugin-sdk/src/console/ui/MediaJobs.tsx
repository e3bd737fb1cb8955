import { Button, ButtonGroup, Intent, NonIdealState, ProgressBar, Spinner, Tooltip } from '@blueprintjs/core';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ZodType } from 'zod';
import { formatSize } from '../../shared/format.js';
import { useApi, useBus, useNotify, type ApiErrorInfo } from '../index.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { FormDialog } from './FormDialog.js';
import { PageHeader } from './PageHeader.js';
import { PagedTable } from './PagedTable.js';
import { SearchBar } from './SearchBar.js';
import { StatusTag } from './StatusTag.js';
import type { FormField, PagedColumn, PageQuery, SearchField, StatusIntent } from './types.js';

export type MediaJobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** What every media job's row carries (the server kit's `present` gives more). */
export interface MediaJobListRow {
  id: number;
  name: string;
  status: MediaJobStatus;
  progress: number;
  error: string | null;
}

export interface MediaJobScreenProps<Row extends MediaJobListRow, Setup extends { limits: object }> {
  /** The area's API base (`/video`): `setup`, `list`, `cancel/:id`, `retry/:id`, `delete`, `settings` under it. */
  base: string;
  /** The bus event that pushes a changed job to its owner. */
  event: string;
  /** Prefix of the test ids: `<testId>-view`, `-status-<id>`, `-progress-<id>`, `-cancel-<id>`, `-retry-<id>`, `-delete-<id>`, `-settings`, `-job`. */
  testId: string;
  /**
   * The area's texts: `title`, `settings`, `setupFailed`, `tryAgain`, `status`, `actions`, `cancel`,
   * `retry`, `delete`, `deleteTitle`, `deleteMessage`, `empty`, `name`, `states.<status>`.
   */
  t(key: string, params?: Record<string, unknown>): string;
  /** May change the limits (the area's manage permission). */
  manage: boolean;
  /** The area's columns, before status and actions; `render` gets the row as last pushed. */
  columns: PagedColumn<Row>[];
  statusWidth?: number;
  /** Shown beside the status tag (a stage), and under the progress bar (a second task's state). */
  stage?(row: Row): ReactNode;
  statusExtra?(row: Row): ReactNode;
  /** Buttons before cancel, retry and delete (download, open). */
  actions?(row: Row): ReactNode;
  /** Whether the cancel button shows; by default for a queued or running job. */
  cancellable?(row: Row): boolean;
  /** Whether a pushed copy is no newer than the listed row, so the list's copy replaces it; by default the same status. */
  stale?(pushed: Row, listed: Row): boolean;
  /** Filters after the name and the status. */
  searchFields?: SearchField[];
  /** The upload form, given the area's setup and a way to reload the list. */
  newJob(setup: Setup, reload: () => void): ReactNode;
  settingsFields: FormField[];
  settingsSchema: ZodType;
}

type Load<T> = { state: 'loading' } | { state: 'failed'; msg: string } | { state: 'ready'; value: T };

const INTENTS: Record<MediaJobStatus, StatusIntent> = { queued: 'none', running: 'primary', completed: 'success', failed: 'danger', cancelled: 'warning' };

/**
 * A media-job area's page (video conversion, video translation): setup, upload form, search, the
 * own-job list with live status and progress pushed over the bus, cancel, run again, delete after a
 * confirmation, and the limits for managers. The area gives its columns, upload form and texts.
 */
export function MediaJobScreen<Row extends MediaJobListRow, Setup extends { limits: object }>(p: MediaJobScreenProps<Row, Setup>) {
  const { t, base, testId } = p;
  const api = useApi();
  const notify = useNotify();
  const [setup, setSetup] = useState<Load<Setup>>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [refresh, setRefresh] = useState(0);
  const [live, setLive] = useState<Record<number, Row>>({});
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [editing, setEditing] = useState(false);
  const reload = useCallback(() => setRefresh((n) => n + 1), []);
  const known = useRef(new Set<number>());
  const stale = p.stale ?? ((pushed: Row, listed: Row) => pushed.status === listed.status);

  useEffect(() => {
    setSetup({ state: 'loading' });
    api.get<Setup>(`${base}/setup`, { silent: true }).then(
      (value) => setSetup({ state: 'ready', value }),
      (e: ApiErrorInfo) => setSetup({ state: 'failed', msg: e.msg }),
    );
  }, [api, attempt, base]);

  // Progress and state changes arrive live; a job the table has not loaded yet reloads it.
  useBus<Row>(
    p.event,
    useCallback(
      (event) => {
        const job = event.payload;
        setLive((prev) => ({ ...prev, [job.id]: job }));
        if (!known.current.has(job.id)) reload();
      },
      [reload],
    ),
  );

  const load = useCallback(
    async (q: PageQuery) => {
      const r = await api.get<{ records: Row[]; total: number }>(`${base}/list`, { params: { pageNum: q.page, pageSize: q.pageSize, ...filters }, silent: true });
      for (const row of r.records) known.current.add(row.id);
      // What the server says now replaces older pushed copies of these rows.
      setLive((prev) => {
        const next = { ...prev };
        for (const row of r.records) if (!next[row.id] || stale(next[row.id]!, row)) delete next[row.id];
        return next;
      });
      return { rows: r.records, total: r.total };
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [api, base, filters],
  );

  const states = useMemo(() => Object.fromEntries((Object.keys(INTENTS) as MediaJobStatus[]).map((s) => [s, { label: t(`states.${s}`), intent: INTENTS[s] }])), [t]);
  const act = (call: Promise<unknown>) => void call.then(reload, (e: ApiErrorInfo) => notify.error(e.msg));
  const cancellable = p.cancellable ?? ((r: Row) => r.status === 'queued' || r.status === 'running');

  const columns: PagedColumn<Row>[] = [
    ...p.columns.map((c) => (c.render ? { ...c, render: (row: Row, i: number) => c.render!(live[row.id] ?? row, i) } : c)),
    {
      key: 'status',
      title: t('status'),
      width: p.statusWidth ?? 200,
      render: (row) => {
        const r = live[row.id] ?? row;
        return (
          <div style={{ display: 'grid', gap: 4 }}>
            <Tooltip content={r.error ?? ''} disabled={!r.error}>
              <span data-testid={`${testId}-status-${r.id}`} data-status={r.status}>
                <StatusTag value={r.status} states={states} />
                {p.stage?.(r)}
              </span>
            </Tooltip>
            {(r.status === 'running' || r.status === 'queued') && (
              <ProgressBar data-testid={`${testId}-progress-${r.id}`} value={r.status === 'queued' ? undefined : r.progress} animate={r.status === 'running'} intent={Intent.PRIMARY} />
            )}
            {p.statusExtra?.(r)}
          </div>
        );
      },
    },
    {
      key: 'actions',
      title: t('actions'),
      render: (row) => {
        const r = live[row.id] ?? row;
        return (
          <ButtonGroup minimal>
            {p.actions?.(r)}
            {cancellable(r) && <Button icon="stop" aria-label={t('cancel')} title={t('cancel')} data-testid={`${testId}-cancel-${r.id}`} onClick={() => act(api.post(`${base}/cancel/${r.id}`, undefined, { silent: true }))} />}
            {(r.status === 'failed' || r.status === 'cancelled') && <Button icon="refresh" aria-label={t('retry')} title={t('retry')} data-testid={`${testId}-retry-${r.id}`} onClick={() => act(api.post(`${base}/retry/${r.id}`, undefined, { silent: true }))} />}
            <Button icon="trash" intent={Intent.DANGER} aria-label={t('delete')} title={t('delete')} data-testid={`${testId}-delete-${r.id}`} onClick={() => setDeleting(r)} />
          </ButtonGroup>
        );
      },
    },
  ];

  return (
    <div data-testid={`${testId}-view`} style={{ padding: 16, display: 'grid', gap: 12 }}>
      <PageHeader title={t('title')} actions={p.manage && setup.state === 'ready' && <Button icon="cog" text={t('settings')} data-testid={`${testId}-settings`} onClick={() => setEditing(true)} />} />
      {setup.state === 'loading' && <Spinner size={24} />}
      {setup.state === 'failed' && <NonIdealState icon="error" title={t('setupFailed')} description={setup.msg} action={<Button text={t('tryAgain')} onClick={() => setAttempt((n) => n + 1)} />} />}
      {setup.state === 'ready' && p.newJob(setup.value, reload)}
      <SearchBar
        fields={[
          { name: 'name', label: t('name') },
          { name: 'status', label: t('status'), type: 'select', options: (Object.keys(INTENTS) as MediaJobStatus[]).map((s) => ({ value: s, label: t(`states.${s}`) })) },
          ...(p.searchFields ?? []),
        ]}
        onSearch={setFilters}
      />
      <PagedTable<Row> testId={`${testId}-job`} columns={columns} rowKey={(r) => r.id} load={load} reloadKey={JSON.stringify(filters)} refreshKey={refresh} emptyText={t('empty')} />
      <ConfirmDialog
        isOpen={deleting !== null}
        title={t('deleteTitle')}
        message={t('deleteMessage')}
        items={deleting ? [deleting.name] : []}
        intent="danger"
        confirmText={t('delete')}
        onConfirm={async () => {
          await api.delete(`${base}/delete`, { params: { ids: String(deleting!.id) } });
          setDeleting(null);
          reload();
        }}
        onClose={() => setDeleting(null)}
      />
      {setup.state === 'ready' && (
        <FormDialog
          isOpen={editing}
          title={t('settings')}
          schema={p.settingsSchema}
          initialValues={setup.value.limits as never}
          fields={p.settingsFields}
          onSubmit={async (values) => {
            const limits = await api.put<Setup['limits']>(`${base}/settings`, values, { silent: true });
            setSetup({ state: 'ready', value: { ...setup.value, limits } });
            setEditing(false);
          }}
          onClose={() => setEditing(false)}
        />
      )}
    </div>
  );
}

export interface MediaDropZoneProps {
  /** Prefix of the test ids: `<testId>-drop`, `-chosen`, `-input`. */
  testId: string;
  files: File[];
  onFiles(files: File[]): void;
  multiple?: boolean;
  /** The file picker's filter. */
  accept: string;
  /** Shown while nothing is chosen. */
  prompt: ReactNode;
  /** The area's limits, under the prompt. */
  limits: ReactNode;
}

/** Where a media-job area's upload form takes its files: click or keyboard opens the picker, or files are dropped on it. */
export function MediaDropZone({ testId, files, onFiles, multiple, accept, prompt, limits }: MediaDropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const pick = (list: FileList | null | undefined) => {
    const all = Array.from(list ?? []);
    onFiles(multiple ? all : all.slice(0, 1));
  };
  return (
    <div
      role="button"
      tabIndex={0}
      data-testid={`${testId}-drop`}
      onClick={() => input.current?.click()}
      onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && input.current?.click()}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        pick(e.dataTransfer.files);
      }}
      style={{ border: '2px dashed #abb3bf', borderRadius: 6, padding: 16, textAlign: 'center', cursor: 'pointer' }}
    >
      {files.length ? <span data-testid={`${testId}-chosen`}>{files.map((f) => `${f.name} (${formatSize(f.size)})`).join(', ')}</span> : prompt}
      <div style={{ color: '#738091', fontSize: 12, marginTop: 4 }}>{limits}</div>
      <input
        ref={input}
        data-testid={`${testId}-input`}
        type="file"
        multiple={multiple}
        accept={accept}
        style={{ display: 'none' }}
        onChange={(e) => {
          pick(e.currentTarget.files);
          // The same file chosen again is a change too.
          e.currentTarget.value = '';
        }}
      />
    </div>
  );
}
