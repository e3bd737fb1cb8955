/**
 * The windowing behind DataGrid, free of React and Blueprint so it can be tested alone: which
 * server pages a window of rows needs, which are loaded, asked for or failed, and a bounded cache
 * that forgets the pages used longest ago (never the ones the window shows).
 */

/** 1-based page numbers covering rows `start..end` (0-based, inclusive), clamped to `total` when it is known. */
export function pagesForRows(start: number, end: number, pageSize: number, total?: number): number[] {
  const last = total === undefined ? end : Math.min(end, total - 1);
  if (last < 0 || last < start) return [];
  const first = Math.floor(Math.max(0, start) / pageSize) + 1;
  const final = Math.floor(last / pageSize) + 1;
  const pages: number[] = [];
  for (let p = first; p <= final; p++) pages.push(p);
  return pages;
}

type PageState<T> = { state: 'loading' } | { state: 'loaded'; rows: T[] } | { state: 'failed'; error: string };

export class GridPageCache<T> {
  /** Insertion order is recency: a page used again moves to the end, eviction takes from the front. */
  private pages = new Map<number, PageState<T>>();
  /** Bumped by `reset`: an answer for an older generation is dropped. */
  generation = 0;
  /** Rows in the list, as the latest answer said; undefined until one arrives. */
  total: number | undefined;

  constructor(
    readonly pageSize: number,
    /** At most this many loaded pages are kept (the window's own pages are always kept). */
    readonly maxPages: number,
  ) {
    if (pageSize < 1 || maxPages < 1) throw new RangeError('pageSize and maxPages must be at least 1');
  }

  /**
   * Forget every page and the total (new filters, a new sort, or an edit that may add, move or
   * remove rows: an empty list may have rows now, so the next `request` asks again).
   */
  reset(): void {
    this.pages.clear();
    this.total = undefined;
    this.generation++;
  }

  /** The row at `index`, if its page is loaded. */
  rowAt(index: number): T | undefined {
    const page = this.pages.get(Math.floor(index / this.pageSize) + 1);
    return page?.state === 'loaded' ? page.rows[index % this.pageSize] : undefined;
  }

  stateOf(page: number): PageState<T>['state'] | undefined {
    return this.pages.get(page)?.state;
  }

  /** The first failure among the cached pages, if any. */
  failure(): string | null {
    for (const p of this.pages.values()) if (p.state === 'failed') return p.error;
    return null;
  }

  /** Pages that cached, loaded or failed count as known. */
  get size(): number {
    return this.pages.size;
  }

  /**
   * The pages to ask the server for so rows `start..end` (plus `ahead` rows each side) show: neither
   * loaded nor already asked for nor failed (a failed page waits for `retry`). The window's loaded
   * pages count as used now. Marks the returned pages as loading.
   */
  request(start: number, end: number, ahead = 0): number[] {
    const wanted = pagesForRows(Math.max(0, start - ahead), end + ahead, this.pageSize, this.total);
    const visible = new Set(pagesForRows(start, end, this.pageSize, this.total));
    const ask: number[] = [];
    for (const p of wanted) {
      const known = this.pages.get(p);
      if (known) {
        if (visible.has(p)) this.touch(p);
        continue;
      }
      this.pages.set(p, { state: 'loading' });
      ask.push(p);
    }
    // Before the first answer the total is unknown: at least page 1.
    if (this.total === undefined && wanted.length === 0 && !this.pages.has(1)) {
      this.pages.set(1, { state: 'loading' });
      ask.push(1);
    }
    this.evict(visible);
    return ask;
  }

  /** A page's answer; false (and nothing stored) when it belongs to an older generation. */
  put(page: number, generation: number, rows: T[], total: number): boolean {
    if (generation !== this.generation) return false;
    this.total = total;
    this.pages.delete(page);
    this.pages.set(page, { state: 'loaded', rows });
    return true;
  }

  fail(page: number, generation: number, error: string): boolean {
    if (generation !== this.generation) return false;
    this.pages.set(page, { state: 'failed', error });
    return true;
  }

  /** Forget failed pages, so the next `request` asks for them again. */
  retry(): void {
    for (const [p, s] of this.pages) if (s.state === 'failed') this.pages.delete(p);
  }

  private touch(page: number): void {
    const s = this.pages.get(page)!;
    this.pages.delete(page);
    this.pages.set(page, s);
  }

  private evict(keep: Set<number>): void {
    let loaded = 0;
    for (const s of this.pages.values()) if (s.state === 'loaded') loaded++;
    for (const [p, s] of this.pages) {
      if (loaded <= this.maxPages) break;
      if (s.state !== 'loaded' || keep.has(p)) continue;
      this.pages.delete(p);
      loaded--;
    }
  }
}

/** Where keyboard navigation lands: arrows move one row, Page Up/Down a window, Home/End the ends. */
export function nextRow(key: string, current: number, total: number, windowRows: number): number | null {
  if (total <= 0) return null;
  const step = Math.max(1, windowRows - 1);
  const to =
    key === 'ArrowDown' ? current + 1
    : key === 'ArrowUp' ? current - 1
    : key === 'PageDown' ? current + step
    : key === 'PageUp' ? current - step
    : key === 'Home' ? 0
    : key === 'End' ? total - 1
    : null;
  return to === null ? null : Math.min(total - 1, Math.max(0, to));
}
