import { describe, expect, it } from 'vitest';
import { GridPageCache, nextRow, pagesForRows } from '../../src/console/ui/gridPages.js';

/** A server of `total` rows numbered from 0, answering pages like the kernel's `{records, total}`. */
const serve = (total: number, pageSize: number, page: number) => {
  const from = (page - 1) * pageSize;
  return Array.from({ length: Math.max(0, Math.min(pageSize, total - from)) }, (_, i) => from + i);
};

describe('pagesForRows', () => {
  it('covers a window that straddles page boundaries', () => {
    expect(pagesForRows(0, 0, 100)).toEqual([1]);
    expect(pagesForRows(99, 100, 100)).toEqual([1, 2]);
    expect(pagesForRows(250, 530, 100)).toEqual([3, 4, 5, 6]);
  });
  it('stops at the last row when the total is known', () => {
    expect(pagesForRows(0, 500, 100, 120)).toEqual([1, 2]);
    expect(pagesForRows(0, 10, 100, 0)).toEqual([]);
    expect(pagesForRows(300, 400, 100, 120)).toEqual([]);
  });
});

describe('GridPageCache', () => {
  it('asks only for the pages of the window, once each, and serves their rows', () => {
    const cache = new GridPageCache<number>(50, 10);
    expect(cache.request(0, 30)).toEqual([1]);
    expect(cache.request(0, 30)).toEqual([]); // already asked for
    expect(cache.rowAt(10)).toBeUndefined(); // a placeholder until the answer
    cache.put(1, cache.generation, serve(1000, 50, 1), 1000);
    expect(cache.rowAt(10)).toBe(10);
    expect(cache.total).toBe(1000);
    // Scrolling to the end: only the last pages, not the thousand rows between.
    expect(cache.request(980, 999)).toEqual([20]);
    cache.put(20, cache.generation, serve(1000, 50, 20), 1000);
    expect(cache.rowAt(999)).toBe(999);
    expect(cache.rowAt(500)).toBeUndefined();
  });

  it('asks for page 1 before it knows the total, even for an empty window', () => {
    const cache = new GridPageCache<number>(100, 4);
    expect(cache.request(0, -1)).toEqual([1]);
    cache.put(1, cache.generation, [], 0);
    expect(cache.request(0, 20)).toEqual([]);
  });

  it('prefetches `ahead` rows each side of the window', () => {
    const cache = new GridPageCache<number>(100, 10);
    cache.total = 10_000;
    expect(cache.request(450, 470, 100)).toEqual([4, 5, 6]);
  });

  it('keeps at most maxPages loaded pages, dropping the least recently used but never the visible ones', () => {
    const cache = new GridPageCache<number>(10, 3);
    const total = 1000;
    for (const p of [1, 2, 3]) {
      expect(cache.request((p - 1) * 10, p * 10 - 1)).toEqual([p]);
      cache.put(p, cache.generation, serve(total, 10, p), total);
    }
    cache.request(0, 9); // page 1 used again: page 2 is now the oldest
    expect(cache.request(50, 59)).toEqual([6]);
    cache.put(6, cache.generation, serve(total, 10, 6), total);
    cache.request(50, 59);
    expect(cache.stateOf(2)).toBeUndefined();
    expect([1, 3, 6].map((p) => cache.stateOf(p))).toEqual(['loaded', 'loaded', 'loaded']);
    // A window wider than the cache keeps all of its own pages.
    const wide = cache.request(100, 159);
    for (const p of wide) cache.put(p, cache.generation, serve(total, 10, p), total);
    cache.request(100, 159);
    expect(wide.map((p) => cache.stateOf(p)).every((s) => s === 'loaded')).toBe(true);
    expect(cache.size).toBe(6);
  });

  it('drops an answer that arrives after a reset (new filters)', () => {
    const cache = new GridPageCache<string>(10, 5);
    cache.request(0, 9);
    const before = cache.generation;
    cache.reset();
    expect(cache.put(1, before, ['stale'], 1)).toBe(false);
    expect(cache.rowAt(0)).toBeUndefined();
    expect(cache.request(0, 9)).toEqual([1]);
    expect(cache.put(1, cache.generation, ['fresh'], 1)).toBe(true);
    expect(cache.rowAt(0)).toBe('fresh');
  });

  it('asks again after a reset of an empty list (an entry was just added)', () => {
    const cache = new GridPageCache<string>(10, 5);
    expect(cache.request(0, 9)).toEqual([1]);
    cache.put(1, cache.generation, [], 0);
    expect(cache.request(0, 9)).toEqual([]);
    cache.reset();
    expect(cache.total).toBeUndefined();
    expect(cache.request(0, 9)).toEqual([1]);
  });

  it('holds a failed page until retry, then asks again', () => {
    const cache = new GridPageCache<number>(10, 5);
    cache.request(0, 9);
    cache.fail(1, cache.generation, 'boom');
    expect(cache.failure()).toBe('boom');
    expect(cache.request(0, 9)).toEqual([]);
    cache.retry();
    expect(cache.failure()).toBeNull();
    expect(cache.request(0, 9)).toEqual([1]);
  });

  it('refuses a page size or cache size below one', () => {
    expect(() => new GridPageCache(0, 1)).toThrow(RangeError);
    expect(() => new GridPageCache(10, 0)).toThrow(RangeError);
  });
});

describe('nextRow', () => {
  it('moves by one, by a window and to the ends, within the rows', () => {
    expect(nextRow('ArrowDown', 0, 100, 20)).toBe(1);
    expect(nextRow('ArrowUp', 0, 100, 20)).toBe(0);
    expect(nextRow('PageDown', 5, 100, 20)).toBe(24);
    expect(nextRow('PageUp', 5, 100, 20)).toBe(0);
    expect(nextRow('End', 5, 100, 20)).toBe(99);
    expect(nextRow('Home', 50, 100, 20)).toBe(0);
    expect(nextRow('PageDown', 95, 100, 20)).toBe(99);
    expect(nextRow('a', 5, 100, 20)).toBeNull();
    expect(nextRow('ArrowDown', 0, 0, 20)).toBeNull();
  });
});
