import { Button, Callout, Checkbox, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { Cell, Column, ColumnHeaderCell, Regions, RenderMode, SelectionModes, Table, type Region } from '@blueprintjs/table';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { GridPageCache, nextRow } from './gridPages.js';
import type { DataGridProps, SortOrder } from './types.js';
import { useKitText } from './useKitText.js';

const HEADER_HEIGHT = 30;
/** A shift-click across a million rows selects them all, but only this many are reported (the loaded ones). */
const MAX_REPORTED = 5000;

/** Contiguous runs of sorted row indices as Blueprint row regions. */
const toRegions = (rows: number[]): Region[] => {
  const out: Region[] = [];
  for (const r of rows) {
    const last = out[out.length - 1];
    if (last?.rows && last.rows[1] === r - 1) last.rows = [last.rows[0], r];
    else out.push(Regions.row(r));
  }
  return out;
};

const fromRegions = (regions: Region[], total: number): number[] => {
  const rows = new Set<number>();
  for (const region of regions) {
    const [a, b] = region.rows ?? [0, total - 1];
    for (let r = a; r <= b && rows.size < MAX_REPORTED; r++) rows.add(r);
  }
  return [...rows].sort((x, y) => x - y);
};

/**
 * A virtualised grid over a server-paged list of any length (memories and term bases with a million
 * entries): Blueprint's Table renders only the visible cells, and the rows come page by page, as the
 * window scrolls to them, through the same `load` a PagedTable takes (`recordsLoader`). A bounded
 * cache keeps recent pages; rows not yet loaded show as placeholders.
 */
export function DataGrid<T>(props: DataGridProps<T>): ReactNode {
  const { columns, rowKey, reloadKey, refreshKey, onSelectionChange, onRowActivate, emptyText } = props;
  const pageSize = props.pageSize ?? 100;
  const rowHeight = props.rowHeight ?? 28;
  const height = props.height ?? 480;
  const prefix = props.testId ?? 'row';
  const { t } = useKitText();
  const cache = useMemo(() => new GridPageCache<T>(pageSize, props.maxCachedPages ?? 20), [pageSize, props.maxCachedPages]);
  const [version, setVersion] = useState(0);
  const [total, setTotal] = useState<number | undefined>(undefined);
  const [sort, setSort] = useState<{ by?: string; order?: SortOrder }>({});
  const [selected, setSelected] = useState<number[]>([]);
  const [cursor, setCursor] = useState<number | null>(null);
  const anchor = useRef<number | null>(null);
  const [widths, setWidths] = useState<number[]>(() => columns.map((c) => (typeof c.width === 'number' ? c.width : 180)));
  const table = useRef<Table>(null);
  // The window Blueprint reports; before its first report, the rows the height holds.
  const fit = Math.max(1, Math.floor((height - HEADER_HEIGHT) / rowHeight) - 1);
  const visible = useRef({ start: 0, end: fit });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const loadRef = useRef(props.load);
  loadRef.current = props.load;
  const sortRef = useRef(sort);
  sortRef.current = sort;

  useEffect(() => {
    if (widths.length !== columns.length) setWidths(columns.map((c) => (typeof c.width === 'number' ? c.width : 180)));
  }, [columns, widths.length]);

  /** Ask for the pages the window needs (and half a page each side). */
  const fetchWindow = () => {
    const { start, end } = visible.current;
    const generation = cache.generation;
    for (const page of cache.request(start, end, Math.floor(pageSize / 2))) {
      loadRef.current({ page, pageSize, sortBy: sortRef.current.by, sortOrder: sortRef.current.order }).then(
        (result) => {
          if (cache.put(page, generation, result.rows, result.total)) {
            setTotal(result.total);
            setVersion((n) => n + 1);
          }
        },
        (error: unknown) => {
          if (cache.fail(page, generation, (error as { msg?: string })?.msg ?? String(error))) setVersion((n) => n + 1);
        },
      );
    }
  };
  const fetchSoon = () => {
    clearTimeout(timer.current);
    // Dragging the scroll bar across a million rows should not ask for every page on the way.
    timer.current = setTimeout(fetchWindow, 60);
  };
  useEffect(() => () => clearTimeout(timer.current), []);

  const clearSelection = () => {
    setSelected([]);
    setCursor(null);
    anchor.current = null;
    onSelectionChange?.([], []);
  };

  // New filters or sort: start again from the top.
  const firstReload = useRef(true);
  useEffect(() => {
    if (firstReload.current) {
      firstReload.current = false;
      fetchWindow();
      return;
    }
    cache.reset();
    clearSelection();
    visible.current = { start: 0, end: fit };
    table.current?.scrollToRegion(Regions.row(0));
    setVersion((n) => n + 1);
    fetchWindow();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reloadKey, sort]);

  // An edit or a delete: read the window again where it is.
  const firstRefresh = useRef(true);
  useEffect(() => {
    if (firstRefresh.current) { firstRefresh.current = false; return; }
    cache.reset();
    clearSelection();
    setVersion((n) => n + 1);
    fetchWindow();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refreshKey]);

  const select = (rows: number[], at: number | null) => {
    setSelected(rows);
    setCursor(at);
    const loaded = rows.map((r) => cache.rowAt(r)).filter((r): r is T => r !== undefined);
    onSelectionChange?.(loaded.map(rowKey), loaded);
  };

  // The header checkbox: the rows of the window on screen (the grid's "page"), loaded ones only, for bulk actions.
  const windowRows = (): number[] => {
    if (!total) return [];
    const { start, end } = visible.current;
    const rows: number[] = [];
    for (let r = Math.max(0, start); r <= Math.min(end, total - 1) && rows.length < MAX_REPORTED; r++) if (cache.rowAt(r) !== undefined) rows.push(r);
    return rows;
  };
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  const shownState = (rows = windowRows(), chosen = selectedRef.current) => {
    const all = rows.length > 0 && rows.every((r) => chosen.includes(r));
    return { checked: all, indeterminate: !all && rows.some((r) => chosen.includes(r)) };
  };
  // Blueprint keeps header cells it has drawn: the checkbox reads its state from this store, not from props.
  const headerBox = useMemo(() => new BoxState(), []);
  useEffect(() => headerBox.set(shownState()));
  const toggleAll = () => {
    const rows = windowRows();
    if (shownState(rows).checked) select([], null);
    else select(rows, rows[0] ?? null);
  };

  const toggleAllRef = useRef(toggleAll);
  toggleAllRef.current = toggleAll;

  const scrollTo = (row: number) => {
    const { start } = visible.current;
    if (row < start) table.current?.scrollToRegion(Regions.row(row));
    else if (row > start + fit - 1) table.current?.scrollToRegion(Regions.row(Math.max(0, row - fit + 1)));
  };

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!total) return;
    if (e.key === 'Enter') {
      const row = cursor === null ? undefined : cache.rowAt(cursor);
      if (row !== undefined && onRowActivate) {
        e.preventDefault();
        e.stopPropagation();
        onRowActivate(row, cursor!);
      }
      return;
    }
    const to = nextRow(e.key, cursor ?? -1, total, fit);
    if (to === null) return;
    // Blueprint's own hotkeys would move its selection too: this grid owns the keys.
    e.preventDefault();
    e.stopPropagation();
    if (e.shiftKey && anchor.current !== null) {
      const [a, b] = [Math.min(anchor.current, to), Math.max(anchor.current, to)];
      select(Array.from({ length: Math.min(b - a + 1, MAX_REPORTED) }, (_, i) => a + i), to);
    } else {
      anchor.current = to;
      select([to], to);
    }
    scrollTo(to);
  };

  const onDoubleClick = (e: MouseEvent<HTMLDivElement>) => {
    const at = (e.target as Element).closest?.('[data-row]')?.getAttribute('data-row');
    if (at == null || !onRowActivate) return;
    const row = cache.rowAt(Number(at));
    if (row !== undefined) onRowActivate(row, Number(at));
  };

  const failure = cache.failure();
  const retry = () => {
    cache.retry();
    setVersion((n) => n + 1);
    fetchWindow();
  };

  if (total === undefined) {
    return (
      <div data-testid={`${prefix}-table`} aria-busy={!failure}>
        {failure ? (
          <NonIdealState title={t('loadFailed')} description={failure} action={<Button text={t('retry')} onClick={retry} />} />
        ) : (
          <div style={{ padding: 12 }}><Spinner size={20} /><span className="bp6-text-muted"> {t('loading')}</span></div>
        )}
      </div>
    );
  }

  const toggleSort = (key: string) =>
    setSort((s) => {
      const order: SortOrder | undefined = s.by !== key ? 'asc' : s.order === 'asc' ? 'desc' : undefined;
      return order ? { by: key, order } : {};
    });

  return (
    <div
      className="lp-data-grid"
      data-testid={`${prefix}-table`}
      data-total={total}
      data-cursor={cursor ?? ''}
      aria-busy={cache.size === 0}
      onKeyDownCapture={onKey}
      onDoubleClick={onDoubleClick}
    >
      {failure && (
        <Callout intent={Intent.DANGER} title={t('loadFailed')} style={{ marginBottom: 6 }}>
          {failure} <Button small text={t('retry')} onClick={retry} />
        </Callout>
      )}
      {total === 0 ? (
        <div data-testid={`${prefix}-empty`}><NonIdealState title={emptyText ?? t('empty')} /></div>
      ) : (
        <div style={{ height }}>
          <Table
            ref={table}
            numRows={total}
            defaultRowHeight={rowHeight}
            columnWidths={widths}
            enableColumnResizing
            onColumnWidthChanged={(index, size) => setWidths((w) => w.map((x, i) => (i === index ? size : x)))}
            enableFocusedCell={false}
            enableMultipleSelection
            selectionModes={SelectionModes.ROWS_AND_CELLS}
            selectedRegionTransform={(region) => (region.rows ? Regions.row(region.rows[0], region.rows[1]) : region)}
            selectedRegions={toRegions(selected)}
            onSelection={(regions) => {
              const rows = fromRegions(regions, total);
              const last = regions[regions.length - 1]?.rows;
              const at = last ? last[0] : null;
              if (rows.length === 1) anchor.current = at;
              select(rows, at);
            }}
            renderMode={RenderMode.NONE}
            cellRendererDependencies={[version, selected, columns]}
            onVisibleCellsChange={(rows) => {
              visible.current = { start: rows.rowIndexStart, end: rows.rowIndexEnd };
              fetchSoon();
            }}
          >
            {columns.map((c, columnIndex) => (
              <Column
                key={c.key}
                id={c.key}
                columnHeaderCellRenderer={() => (
                  <ColumnHeaderCell
                    nameRenderer={() => (
                      <div
                        // Blueprint's header name lets pointer events through to its drag layer: a sortable title takes them back.
                        style={{ cursor: c.sortable ? 'pointer' : undefined, pointerEvents: c.sortable ? 'auto' : undefined, fontWeight: 600 }}
                        role={c.sortable ? 'button' : undefined}
                        onClick={c.sortable ? () => toggleSort(c.key) : undefined}
                        data-testid={c.sortable ? `${prefix}-sort-${c.key}` : undefined}
                        aria-sort={sort.by === c.key ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined}
                      >
                        {columnIndex === 0 && onSelectionChange && (
                          <SelectShown box={headerBox} label={t('selectShown')} testId={`${prefix}-select-all`} onToggle={() => toggleAllRef.current()} />
                        )}
                        {c.title}
                        {c.sortable && <span aria-hidden> {sort.by === c.key ? (sort.order === 'asc' ? '▲' : '▼') : '↕'}</span>}
                      </div>
                    )}
                  />
                )}
                cellRenderer={(index) => {
                  const row = cache.rowAt(index);
                  if (row === undefined) return <Cell loading />;
                  return (
                    <Cell>
                      <div data-row={index} data-key={rowKey(row)} aria-selected={selected.includes(index)} style={{ height: '100%' }}>
                        {c.render ? c.render(row, index) : String((row as Record<string, unknown>)[c.key] ?? '')}
                      </div>
                    </Cell>
                  );
                }}
              />
            ))}
          </Table>
        </div>
      )}
      <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end', marginTop: 6 }}>
        {selected.length > 0 && <span>{t('selected', { count: selected.length })}</span>}
        <span data-testid={`${prefix}-total`}>{t('total', { total })}</span>
      </div>
    </div>
  );
}

/** The header checkbox's state, outside React props (Blueprint caches the header cells it drew). */
class BoxState {
  private value = { checked: false, indeterminate: false };
  private listeners = new Set<() => void>();
  get = () => this.value;
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  set(next: { checked: boolean; indeterminate: boolean }) {
    if (next.checked === this.value.checked && next.indeterminate === this.value.indeterminate) return;
    this.value = next;
    for (const l of this.listeners) l();
  }
}

function SelectShown({ box, label, testId, onToggle }: { box: BoxState; label: string; testId: string; onToggle(): void }): ReactNode {
  const state = useSyncExternalStore(box.subscribe, box.get);
  const wrap = useRef<HTMLSpanElement>(null);
  // Blueprint's header listens natively for the press (a column selection, which would select every
  // row): stop it at the checkbox, natively, since React's stopPropagation comes after native listeners.
  useEffect(() => {
    const el = wrap.current;
    if (!el) return;
    const stop = (e: Event) => e.stopPropagation();
    const kinds = ['mousedown', 'pointerdown', 'touchstart'];
    for (const k of kinds) el.addEventListener(k, stop);
    return () => { for (const k of kinds) el.removeEventListener(k, stop); };
  }, []);
  return (
    <span ref={wrap} style={{ pointerEvents: 'auto', display: 'inline-block', verticalAlign: 'middle' }} onClick={(e) => e.stopPropagation()}>
      <Checkbox aria-label={label} data-testid={testId} checked={state.checked} indeterminate={state.indeterminate} onChange={onToggle} style={{ margin: '0 6px 0 0', display: 'inline-block' }} />
    </span>
  );
}
