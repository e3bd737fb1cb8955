import { BitPattern } from './bit-pattern.js';
import { maxEditsFor, scoreFrom } from './score.js';
import { kindOfHash, TokenKind } from './text.js';

/**
 * The fuzzy tier's candidate search, in memory, for one memory and language pair: every entry's source
 * as token hashes (so candidates are scored without the database) and, per word or number, the entries
 * holding it.
 *
 * Every match at or above the guaranteed score (75) is found, by prefix filtering: a match that good
 * shares at least k of the query's q distinct words, so it holds one of the query's q − k + 1 rarest
 * words, and only those lists are read. Below it, down to the show threshold, the search is best
 * effort: further lists are read while a budget of postings lasts, and a candidate must share two of
 * the words read. Candidates outside the length window a score allows are skipped; the rest get an
 * upper bound of their score from the words they share, and are scored exactly (a bit-parallel token
 * edit distance), best bound first, only while a bound can still beat the matches in hand.
 *
 * Memory: 4 bytes per token and 4 per distinct word of each entry, in flat typed arrays (a million
 * sentences of about 17 tokens: some 130 MB). Entries are appended; a removed or changed entry is
 * marked dead. The word lists are one packed array (rebuilt when a quarter more entries came after it)
 * plus small lists of what was added since.
 */

export interface SearchOptions {
  limit?: number;
  /** Matches below this are not returned (the show threshold). */
  minScore?: number;
  /** Matches at or above this are never missed. */
  guaranteedScore?: number;
  /** Postings read beyond the guaranteed prefix. */
  budget?: number;
}

export interface IndexHit {
  id: number;
  score: number;
}

/** What one search did (for the benchmark's notes). */
export interface SearchStats {
  lists: number;
  read: number;
  touched: number;
  candidates: number;
  scored: number;
}

/** Postings beyond which even the guaranteed prefix stops (a query of nothing but the commonest words). */
const HARD_CAP = 4_000_000;

class IntList {
  a = new Int32Array(4);
  n = 0;
  push(v: number) {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

/** Integer keys to integer values in typed arrays (linear probing, deletion by backward shift). */
export class IntMap {
  private keys = new Int32Array(16);
  private values = new Int32Array(16);
  private used = new Uint8Array(16);
  size = 0;

  get bytes(): number {
    return this.keys.byteLength + this.values.byteLength + this.used.byteLength;
  }

  private home(key: number): number {
    return (Math.imul(key, 0x9e3779b1) >>> 0) & (this.keys.length - 1);
  }

  private slot(key: number): number {
    const mask = this.keys.length - 1;
    let i = this.home(key);
    while (this.used[i] && this.keys[i] !== key) i = (i + 1) & mask;
    return i;
  }

  get(key: number): number {
    const i = this.slot(key);
    return this.used[i] ? this.values[i]! : -1;
  }

  set(key: number, value: number): void {
    if ((this.size + 1) * 2 > this.keys.length) this.resize(this.keys.length * 2);
    const i = this.slot(key);
    if (!this.used[i]) {
      this.used[i] = 1;
      this.keys[i] = key;
      this.size++;
    }
    this.values[i] = value;
  }

  delete(key: number): void {
    const mask = this.keys.length - 1;
    let i = this.slot(key);
    if (!this.used[i]) return;
    this.used[i] = 0;
    this.size--;
    // Later keys of the same run move back into the hole, so a lookup never stops early.
    for (let j = (i + 1) & mask; this.used[j]; j = (j + 1) & mask) {
      const home = this.home(this.keys[j]!);
      const stays = i <= j ? home > i && home <= j : home > i || home <= j;
      if (stays) continue;
      this.keys[i] = this.keys[j]!;
      this.values[i] = this.values[j]!;
      this.used[i] = 1;
      this.used[j] = 0;
      i = j;
    }
  }

  clear(): void {
    this.keys = new Int32Array(16);
    this.values = new Int32Array(16);
    this.used = new Uint8Array(16);
    this.size = 0;
  }

  private resize(size: number): void {
    const { keys, values, used } = this;
    this.keys = new Int32Array(size);
    this.values = new Int32Array(size);
    this.used = new Uint8Array(size);
    this.size = 0;
    for (let i = 0; i < keys.length; i++) if (used[i]) this.set(keys[i]!, values[i]!);
  }
}

function grown<T extends Int32Array | Uint32Array | Uint16Array | Uint8Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  const b = new (a.constructor as new (n: number) => T)(Math.max(need, Math.ceil(a.length * 1.5)));
  b.set(a);
  return b;
}

/** One word's entries: a slice of the packed array and the list of those added since it was packed. */
interface WordList {
  from: number;
  to: number;
  extra: IntList | undefined;
  n: number;
}

export class MemoryIndex {
  private ids = new Int32Array(1024);
  private starts = new Uint32Array(1025);
  private lens = new Uint16Array(1024);
  private alive = new Uint8Array(1024);
  private pool = new Int32Array(16 * 1024);
  private count = 0;
  private poolUsed = 0;
  private dead = 0;
  /** ids[0..sortedEnd) rise strictly: found by binary search; later positions through `recent`. */
  private sortedEnd = 0;
  private readonly recent = new IntMap();
  /** Word hash -> word number; the packed lists of positions below `packedEnd`. */
  private readonly words = new IntMap();
  private offsets = new Int32Array(1);
  private packed = new Int32Array(0);
  private packedEnd = 0;
  private readonly extra = new Map<number, IntList>();
  private extraCount = 0;
  private touchedCounts = new Uint8Array(0);
  private touchedScratch = new Int32Array(1024);
  stats: SearchStats = { lists: 0, read: 0, touched: 0, candidates: 0, scored: 0 };

  /** Live entries. */
  get size(): number {
    return this.count - this.dead;
  }

  /** Bytes of the typed arrays (the figure the server reports). */
  get bytes(): number {
    let extra = 0;
    for (const l of this.extra.values()) extra += l.a.byteLength + 64;
    return (
      this.ids.byteLength + this.starts.byteLength + this.lens.byteLength + this.alive.byteLength + this.pool.byteLength +
      this.recent.bytes + this.words.bytes + this.offsets.byteLength + this.packed.byteLength + this.touchedCounts.byteLength + extra
    );
  }

  /** Adds an entry's source as token hashes (`fingerprint`); an id already there is replaced. */
  add(id: number, hashes: Int32Array): void {
    this.remove(id);
    const pos = this.count;
    this.ids = grown(this.ids, pos + 1);
    this.lens = grown(this.lens, pos + 1);
    this.alive = grown(this.alive, pos + 1);
    this.starts = grown(this.starts, pos + 2);
    this.pool = grown(this.pool, this.poolUsed + hashes.length);
    this.ids[pos] = id;
    this.pool.set(hashes, this.poolUsed);
    this.starts[pos] = this.poolUsed;
    this.poolUsed += hashes.length;
    this.starts[pos + 1] = this.poolUsed;
    let len = 0;
    for (const h of hashes) if (kindOfHash(h) !== TokenKind.Punct) len++;
    this.lens[pos] = Math.min(len, 65535);
    this.alive[pos] = 1;
    this.count++;
    if (pos === this.sortedEnd && (pos === 0 || this.ids[pos - 1]! < id)) this.sortedEnd++;
    else this.recent.set(id, pos);
    for (const h of informative(hashes)) {
      let list = this.extra.get(h);
      if (!list) this.extra.set(h, (list = new IntList()));
      list.push(pos);
    }
    this.extraCount++;
    if (this.extraCount > Math.max(20_000, this.packedEnd / 4)) this.pack();
  }

  private position(id: number): number {
    const r = this.recent.get(id);
    if (r !== -1) return this.alive[r] ? r : -1;
    let lo = 0;
    let hi = this.sortedEnd - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.ids[mid]!;
      if (v === id) return this.alive[mid] ? mid : -1;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  remove(id: number): boolean {
    const pos = this.position(id);
    if (pos === -1) return false;
    this.alive[pos] = 0;
    this.recent.delete(id);
    this.dead++;
    return true;
  }

  has(id: number): boolean {
    return this.position(id) !== -1;
  }

  /** Ids of the live entries (a consistency check against the database). */
  *entryIds(): Generator<number> {
    for (let p = 0; p < this.count; p++) if (this.alive[p]) yield this.ids[p]!;
  }

  /** Packs every word's entries into one array (dead entries left out), from the token hashes kept. */
  pack(): void {
    const counts: number[] = [];
    const seen: number[] = [];
    const wordOf = (h: number) => {
      let w = this.words.get(h);
      if (w === -1) {
        w = this.words.size;
        this.words.set(h, w);
        counts.push(0);
        seen.push(-1);
      }
      return w;
    };
    for (let w = 0; w < this.words.size; w++) {
      counts.push(0);
      seen.push(-1);
    }
    // Two passes over the kept hashes: count, then place (each word once per entry).
    // Positions by token count (a counting sort): every list comes out ordered by length, so a search
    // reads only the slice of lengths its score allows.
    const byLength = new Uint32Array(65537);
    for (let pos = 0; pos < this.count; pos++) if (this.alive[pos]) byLength[this.lens[pos]! + 1]!++;
    for (let l = 1; l < byLength.length; l++) byLength[l]! += byLength[l - 1]!;
    const order = new Int32Array(this.size);
    for (let pos = 0; pos < this.count; pos++) if (this.alive[pos]) order[byLength[this.lens[pos]!]!++] = pos;
    const visit = (place: (w: number, pos: number) => void) => {
      for (const pos of order) {
        for (let p = this.starts[pos]!; p < this.starts[pos + 1]!; p++) {
          const h = this.pool[p]!;
          const k = kindOfHash(h);
          if (k !== TokenKind.Word && k !== TokenKind.Number) continue;
          const w = wordOf(h);
          if (seen[w] === pos) continue;
          seen[w] = pos;
          place(w, pos);
        }
      }
    };
    visit((w) => counts[w]!++);
    const offsets = new Int32Array(counts.length + 1);
    for (let w = 0; w < counts.length; w++) offsets[w + 1] = offsets[w]! + counts[w]!;
    const packed = new Int32Array(offsets[counts.length]!);
    const fill = offsets.slice(0, counts.length);
    seen.fill(-1);
    visit((w, pos) => (packed[fill[w]!++] = pos));
    this.offsets = offsets;
    this.packed = packed;
    this.packedEnd = this.count;
    this.extra.clear();
    this.extraCount = 0;
  }

  /** A copy without dead entries, in id order, packed (after many changes). */
  compacted(): MemoryIndex {
    const next = new MemoryIndex();
    const order: number[] = [];
    for (let p = 0; p < this.count; p++) if (this.alive[p]) order.push(p);
    order.sort((a, b) => this.ids[a]! - this.ids[b]!);
    for (const p of order) next.add(this.ids[p]!, this.pool.subarray(this.starts[p], this.starts[p + 1]));
    next.pack();
    return next;
  }

  get wantsCompaction(): boolean {
    return this.dead > 10_000 && this.dead * 4 > this.count;
  }

  /** The first index in packed[from, to) whose entry has at least `len` tokens (the slice is ordered by length). */
  private firstWithLength(from: number, to: number, len: number): number {
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.lens[this.packed[mid]!]! < len) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private list(h: number): WordList {
    const w = this.words.get(h);
    const from = w === -1 ? 0 : this.offsets[w]!;
    const to = w === -1 ? 0 : this.offsets[w + 1]!;
    const extra = this.extra.get(h);
    return { from, to, extra, n: to - from + (extra?.n ?? 0) };
  }

  /** The best `limit` entries for the query (token hashes), best first; equal scores go to the newer entry. */
  search(query: Int32Array, options: SearchOptions = {}): IndexHit[] {
    const limit = options.limit ?? 5;
    const minScore = options.minScore ?? 50;
    const guaranteed = Math.max(minScore, options.guaranteedScore ?? 75);
    const budget = options.budget ?? 60_000;
    this.stats = { lists: 0, read: 0, touched: 0, candidates: 0, scored: 0 };

    let n = 0;
    let tags = 0;
    for (const h of query) {
      const k = kindOfHash(h);
      if (k !== TokenKind.Punct) n++;
      if (k === TokenKind.Tag) tags++;
    }
    const words = informative(query);
    if (n === 0 || this.size === 0) return [];
    // Shared words bound the shared tokens up to the query's repeated words and its tags.
    const slack = n - words.length;

    const lists = words.map((h) => this.list(h)).sort((a, b) => a.n - b.n);
    const prefixFor = (score: number) => {
      const k = n - maxEditsFor(n, score) - slack;
      return k <= 0 ? lists.length : Math.min(lists.length, lists.length - k + 1);
    };
    const sure = prefixFor(guaranteed);
    const wished = prefixFor(minScore);
    // The guaranteed prefix reads the lengths its score allows; further lists the wider window of the show threshold.
    const sureWindow = lengthWindow(n, guaranteed);
    const wideWindow = lengthWindow(n, minScore);

    if (this.touchedCounts.length < this.count) this.touchedCounts = new Uint8Array(this.ids.length);
    const counts = this.touchedCounts;
    let touched = this.touchedScratch;
    let nTouched = 0;
    let read = 0;
    let readLists = 0;
    for (const list of lists) {
      if (readLists >= sure && (readLists >= wished || read + list.n > budget)) break;
      if (read + list.n > HARD_CAP) break;
      const [minLen, maxLen] = readLists < sure ? sureWindow : wideWindow;
      readLists++;
      // The packed part is ordered by length: only the window's slice is read.
      const from = this.firstWithLength(list.from, list.to, minLen);
      const to = this.firstWithLength(from, list.to, maxLen + 1);
      const extra = list.extra;
      read += to - from + (extra?.n ?? 0);
      if (touched.length < nTouched + to - from + (extra?.n ?? 0)) {
        const bigger = new Int32Array(Math.max(touched.length * 2, nTouched + to - from + (extra?.n ?? 0)));
        bigger.set(touched.subarray(0, nTouched));
        touched = this.touchedScratch = bigger;
      }
      const packed = this.packed;
      for (let k = from; k < to; k++) {
        const pos = packed[k]!;
        const c = counts[pos]!;
        if (c === 0) touched[nTouched++] = pos;
        if (c < 255) counts[pos] = c + 1;
      }
      if (extra) {
        for (let k = 0; k < extra.n; k++) {
          const pos = extra.a[k]!;
          const len = this.lens[pos]!;
          if (len < minLen || len > maxLen) continue;
          const c = counts[pos]!;
          if (c === 0) touched[nTouched++] = pos;
          if (c < 255) counts[pos] = c + 1;
        }
      }
    }
    // A first bound from the counts alone: a candidate shares at most the lists it is in and those unread.
    const unread = lists.length - readLists;
    const candidates: number[] = [];
    for (let t = 0; t < nTouched; t++) {
      const pos = touched[t]!;
      const c = counts[pos]!;
      counts[pos] = 0;
      if (!this.alive[pos]) continue;
      const m = this.lens[pos]!;
      const bound = Math.round((100 * Math.min(c + unread + slack, n, m)) / Math.max(n, m));
      // Every candidate that may reach the guaranteed score; below it, one sharing two of the words read.
      if (bound >= guaranteed || (c >= 2 && bound >= minScore)) candidates.push(pos);
    }
    Object.assign(this.stats, { lists: lists.length, read, touched: nTouched, candidates: candidates.length });
    return this.rank(query, n, candidates, { limit, minScore, tags });
  }

  /** A tighter bound from the words each candidate shares; then exact scores while a bound can beat the matches in hand. */
  private rank(query: Int32Array, n: number, candidates: number[], q: { limit: number; minScore: number; tags: number }): IndexHit[] {
    const table = new QueryWords(query);
    const tags = q.tags;
    // Candidates by bound, highest first (a bucket per score).
    const buckets: number[][] = Array.from({ length: 101 }, () => []);
    for (const pos of candidates) {
      const m = this.lens[pos]!;
      const shared = table.shared(this.pool, this.starts[pos]!, this.starts[pos + 1]!);
      // Shared words and numbers counted exactly; the query's tags may all match.
      const bound = Math.round((100 * Math.min(shared + tags, n, m)) / Math.max(n, m));
      if (bound >= q.minScore) buckets[bound]!.push(pos);
    }
    const pattern = new BitPattern(query);
    const hits: IndexHit[] = [];
    let floor = q.minScore;
    for (let bound = 100; bound >= q.minScore; bound--) {
      if (hits.length >= q.limit && bound < floor) break;
      for (const pos of buckets[bound]!) {
        this.stats.scored++;
        const from = this.starts[pos]!;
        const to = this.starts[pos + 1]!;
        const m = this.lens[pos]!;
        const longer = Math.max(n, m);
        const limit = maxEditsFor(longer, floor);
        const d = pattern.distance(this.pool, from, to, m, limit);
        if (d > limit) continue;
        const s = scoreFrom(query, this.pool.subarray(from, to), longer, d, floor);
        if (s < 0) continue;
        hits.push({ id: this.ids[pos]!, score: s });
        if (hits.length > q.limit) {
          hits.sort((a, b) => b.score - a.score || b.id - a.id);
          hits.length = q.limit;
        }
        if (hits.length === q.limit) floor = Math.max(floor, hits.reduce((min, h) => Math.min(min, h.score), 100));
      }
    }
    return hits.sort((a, b) => b.score - a.score || b.id - a.id);
  }
}

/** The token counts a candidate may have and still reach `minScore` against a query of `n`. */
function lengthWindow(n: number, minScore: number): [number, number] {
  const edits = (m: number) => maxEditsFor(Math.max(n, m), minScore);
  let min = n;
  while (min > 0 && n - (min - 1) <= edits(min - 1)) min--;
  let max = n;
  while (max < 65535 && max + 1 - n <= edits(max + 1)) max++;
  return [min, max];
}

/** The distinct words and numbers of a token-hash sequence (what the lists hold). */
function informative(hashes: Int32Array): number[] {
  const out = new Set<number>();
  for (const h of hashes) {
    const k = kindOfHash(h);
    if (k === TokenKind.Word || k === TokenKind.Number) out.add(h);
  }
  return [...out];
}

/** The query's words with how often each occurs, in a small open-addressing table, to count what a candidate shares. */
class QueryWords {
  private readonly keys: Int32Array;
  private readonly used: Uint8Array;
  private readonly times: Uint8Array;
  private readonly stamp: Int32Array;
  private readonly taken: Uint8Array;
  private readonly mask: number;
  private round = 0;

  constructor(query: Int32Array) {
    let size = 16;
    while (size < query.length * 4) size *= 2;
    this.mask = size - 1;
    this.keys = new Int32Array(size);
    this.used = new Uint8Array(size);
    this.times = new Uint8Array(size);
    this.stamp = new Int32Array(size);
    this.taken = new Uint8Array(size);
    for (const w of query) {
      const k = kindOfHash(w);
      if (k !== TokenKind.Word && k !== TokenKind.Number) continue;
      let i = (Math.imul(w, 0x9e3779b1) >>> 0) & this.mask;
      while (this.used[i] && this.keys[i] !== w) i = (i + 1) & this.mask;
      this.keys[i] = w;
      this.used[i] = 1;
      if (this.times[i]! < 255) this.times[i]!++;
    }
  }

  /** Words and numbers the query and pool[from, to) have in common, counted as multisets. */
  shared(pool: Int32Array, from: number, to: number): number {
    const round = ++this.round;
    let shared = 0;
    for (let p = from; p < to; p++) {
      const h = pool[p]!;
      let i = (Math.imul(h, 0x9e3779b1) >>> 0) & this.mask;
      while (this.used[i]) {
        if (this.keys[i] === h) {
          if (this.stamp[i] !== round) {
            this.stamp[i] = round;
            this.taken[i] = 0;
          }
          if (this.taken[i]! < this.times[i]!) {
            this.taken[i]!++;
            shared++;
          }
          break;
        }
        i = (i + 1) & this.mask;
      }
    }
    return shared;
  }
}
