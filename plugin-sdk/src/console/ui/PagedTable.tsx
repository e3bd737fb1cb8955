import { Button, Checkbox, HTMLSelect, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { PagedTableProps, PageQuery, SortOrder } from './types.js';
import { useKitText } from './useKitText.js';

/**
 * A server-paged table. An HTML table (Blueprint's HTMLTable) rather than @blueprintjs/table:
 * pages are at most a few hundred rows, and the grid would add 121 KB minified (31 KB gzipped)
 * plus its CSS to the host for nothing a paged list needs.
 */
export function PagedTable<T>(props: PagedTableProps<T>): ReactNode {
  const { columns, rowKey, load, reloadKey, refreshKey, selectable, onSelectionChange, emptyText } = props;
  const pageSizes = props.pageSizes ?? [10, 20, 50, 100];
  const prefix = props.testId ?? 'row';
  const { t } = useKitText();
  const [query, setQuery] = useState<PageQuery>({ page: 1, pageSize: props.defaultPageSize ?? pageSizes[0] ?? 10 });
  const [rows, setRows] = useState<T[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<string | number>>(new Set());
  const [retry, setRetry] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const firstReload = useRef(true);

  // New filters: back to page 1 (the effect below then loads).
  useEffect(() => {
    if (firstReload.current) { firstReload.current = false; return; }
    setQuery((q) => ({ ...q, page: 1 }));
  }, [reloadKey]);

  useEffect(() => {
    let live = true;
    setLoading(true);
    setFailed(null);
    loadRef.current(query).then(
      (result) => {
        if (!live) return;
        // A delete can leave the current page past the end: step back.
        const pages = Math.max(1, Math.ceil(result.total / query.pageSize));
        if (result.rows.length === 0 && query.page > pages) { setQuery((q) => ({ ...q, page: pages })); return; }
        setRows(result.rows);
        setTotal(result.total);
        setSelected(new Set());
        onSelectionChange?.([], []);
        setLoading(false);
      },
      (error: unknown) => {
        if (!live) return;
        setFailed((error as { msg?: string })?.msg ?? String(error));
        setRows([]);
        setLoading(false);
      },
    );
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query, reloadKey, refreshKey, retry]);

  const pages = Math.max(1, Math.ceil(total / query.pageSize));
  const keys = rows.map(rowKey);
  const allChecked = keys.length > 0 && keys.every((k) => selected.has(k));

  function changeSelection(next: Set<string | number>) {
    setSelected(next);
    onSelectionChange?.([...next], rows.filter((r) => next.has(rowKey(r))));
  }

  function toggleSort(key: string) {
    setQuery((q) => {
      const order: SortOrder | undefined = q.sortBy !== key ? 'asc' : q.sortOrder === 'asc' ? 'desc' : undefined;
      return { ...q, page: 1, sortBy: order ? key : undefined, sortOrder: order };
    });
  }

  const span = columns.length + (selectable ? 1 : 0);
  return (
    <div className="lp-paged-table" data-testid={`${prefix}-table`} aria-busy={loading}>
      {/* Under 600 px (a container query in the host's styles.css) each row becomes a card: one line per
          cell under its column's name, so a narrow window never scrolls the page sideways. */}
      <HTMLTable striped interactive compact style={{ width: '100%' }}>
        <thead>
          <tr>
            {selectable && (
              <th style={{ width: 36 }}>
                <Checkbox
                  aria-label="select-all"
                  checked={allChecked}
                  indeterminate={!allChecked && keys.some((k) => selected.has(k))}
                  onChange={() => changeSelection(allChecked ? new Set() : new Set(keys))}
                  style={{ margin: 0 }}
                />
              </th>
            )}
            {columns.map((c) => (
              <th
                key={c.key}
                style={{ width: c.width, cursor: c.sortable ? 'pointer' : undefined, whiteSpace: 'nowrap' }}
                onClick={c.sortable ? () => toggleSort(c.key) : undefined}
                aria-sort={query.sortBy === c.key ? (query.sortOrder === 'asc' ? 'ascending' : 'descending') : undefined}
                data-testid={c.sortable ? `${prefix}-sort-${c.key}` : undefined}
              >
                {c.title}
                {c.sortable && <span aria-hidden> {query.sortBy === c.key ? (query.sortOrder === 'asc' ? '▲' : '▼') : '↕'}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {loading && rows.length === 0 && (
            <tr><td colSpan={span}><Spinner size={20} /><span className="bp6-text-muted"> {t('loading')}</span></td></tr>
          )}
          {!loading && failed && (
            <tr><td colSpan={span}>
              <NonIdealState title={t('loadFailed')} description={failed} action={<Button text={t('retry')} onClick={() => setRetry((n) => n + 1)} />} />
            </td></tr>
          )}
          {!loading && !failed && rows.length === 0 && (
            <tr><td colSpan={span} data-testid={`${prefix}-empty`}><NonIdealState title={emptyText ?? t('empty')} /></td></tr>
          )}
          {rows.map((row, index) => {
            const key = rowKey(row);
            return (
              <tr key={key} data-testid={`${prefix}-${key}`} style={{ opacity: loading ? 0.5 : 1 }}>
                {selectable && (
                  <td>
                    <Checkbox
                      aria-label={`select-${key}`}
                      checked={selected.has(key)}
                      onChange={() => {
                        const next = new Set(selected);
                        if (next.has(key)) next.delete(key); else next.add(key);
                        changeSelection(next);
                      }}
                      style={{ margin: 0 }}
                    />
                  </td>
                )}
                {columns.map((c) => (
                  <td key={c.key} data-label={typeof c.title === 'string' ? c.title : undefined}>{c.render ? c.render(row, index) : String((row as Record<string, unknown>)[c.key] ?? '')}</td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', justifyContent: 'flex-end', marginTop: 8 }} data-testid={`${prefix}-pager`}>
        {selectable && selected.size > 0 && <span>{t('selected', { count: selected.size })}</span>}
        <span data-testid={`${prefix}-total`}>{t('total', { total })}</span>
        <HTMLSelect
          aria-label={t('pageSize')}
          value={query.pageSize}
          onChange={(e) => setQuery((q) => ({ ...q, page: 1, pageSize: Number(e.currentTarget.value) }))}
          options={pageSizes.map((s) => ({ value: s, label: t('perPage', { size: s }) }))}
        />
        <Button small text={t('prev')} disabled={query.page <= 1 || loading} onClick={() => setQuery((q) => ({ ...q, page: q.page - 1 }))} />
        <span data-testid={`${prefix}-page`}>{t('page', { page: query.page, pages })}</span>
        <Button small text={t('next')} disabled={query.page >= pages || loading} onClick={() => setQuery((q) => ({ ...q, page: q.page + 1 }))} />
      </div>
    </div>
  );
}
