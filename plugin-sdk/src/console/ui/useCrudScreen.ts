import { useCallback, useRef, useState } from 'react';
import { useNotify, type ApiClient, type RequestOptions } from '../index.js';
import type { PageQuery, PageResult } from './types.js';

export interface CrudScreenOptions {
  /** Also called by `reload()`: for a screen that fetches its own list instead of through PagedTable. */
  onReload?: () => void;
}

/** The state an admin list screen keeps around its edit dialog and its delete confirmation. */
export interface CrudScreen<Edit, Delete> {
  /** What the edit dialog holds (a row, or the screen's own marker for a new one); null while it is closed. */
  editing: Edit | null;
  startEdit(target: Edit): void;
  stopEditing(): void;
  /** What the delete confirmation names; null while it is closed. */
  deleting: Delete | null;
  askDelete(target: Delete): void;
  stopDeleting(): void;
  /** Changes on every reload: give it to PagedTable's `refreshKey`. */
  refreshKey: number;
  reload(): void;
  /**
   * Runs the add or update of what is being edited, then toasts the text `run` resolves with (if
   * any), closes the dialog and reloads. A rejection passes through, so the dialog shows it and stays open.
   */
  save(run: (editing: Edit) => Promise<string | void>): Promise<void>;
  /** The same for the delete confirmation. */
  remove(run: (deleting: Delete) => Promise<string | void>): Promise<void>;
}

/** Edit and delete state for an admin list screen: the dialogs open and close here, saves and deletes toast, close and reload. */
export function useCrudScreen<Edit, Delete = Edit>(options: CrudScreenOptions = {}): CrudScreen<Edit, Delete> {
  const notify = useNotify();
  const [editing, setEditing] = useState<Edit | null>(null);
  const [deleting, setDeleting] = useState<Delete | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  // The latest onReload, so a reload after an await sees the screen's current search.
  const onReload = useRef(options.onReload);
  onReload.current = options.onReload;

  const reload = useCallback(() => {
    setRefreshKey((n) => n + 1);
    onReload.current?.();
  }, []);

  async function settle<T>(target: T | null, run: (target: T) => Promise<string | void>, close: () => void) {
    if (target === null) return;
    const text = await run(target);
    if (text) notify.success(text);
    close();
    reload();
  }

  return {
    editing,
    // Through an updater, so a target that is itself a function is stored rather than called.
    startEdit: (target) => setEditing(() => target),
    stopEditing: () => setEditing(null),
    deleting,
    askDelete: (target) => setDeleting(() => target),
    stopDeleting: () => setDeleting(null),
    refreshKey,
    reload,
    save: (run) => settle(editing, run, () => setEditing(null)),
    remove: (run) => settle(deleting, run, () => setDeleting(null)),
  };
}

/**
 * A PagedTable loader for the kernel's `{records, total}` pages: the filters plus `pageNum`,
 * `pageSize` and any sort, sent silently so the table shows a failure.
 */
export function recordsLoader<Row>(api: ApiClient, url: string, filters: Record<string, unknown>): (query: PageQuery) => Promise<PageResult<Row>> {
  return (q) =>
    api
      .get<{ records: Row[]; total: number }>(url, { params: { ...filters, pageNum: q.page, pageSize: q.pageSize, sortBy: q.sortBy, sortOrder: q.sortOrder }, silent: true })
      .then((p) => ({ rows: p.records, total: p.total }));
}

/**
 * The kernel's add/update/delete convention under one base path: `POST <base>/add`, `PUT <base>/update`
 * with the row's id, `DELETE <base>/delete?ids=1,2` (which answers `{deleted}`).
 */
export function rowCalls(api: ApiClient, base: string, options: Pick<RequestOptions, 'silent'> = {}) {
  return {
    /** Adds when `id` is null, else updates that row. */
    save: (id: number | null, body: Record<string, unknown>) => (id === null ? api.post(`${base}/add`, body, options) : api.put(`${base}/update`, { ...body, id }, options)),
    remove: (ids: number[]) => api.delete<{ deleted: number }>(`${base}/delete`, { ...options, params: { ids: ids.join(',') } }),
  };
}
