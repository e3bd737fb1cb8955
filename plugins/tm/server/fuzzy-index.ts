import type { Kysely } from 'kysely';
import type { TmDatabase } from './tables.js';
import { tokens } from './match.js';

/**
 * Candidates for the fuzzy tier: an in-memory inverted index per memory and language pair, from each
 * entry's distinct tokens to the entries holding them. A query looks up only its rarest tokens (a
 * match scoring 75 or more shares most of the query's tokens, so it holds some of the rare ones too),
 * counts how many each entry shares within a length window, and hands the best few dozen to the exact
 * scoring. Trigram similarity over a large memory cannot do this: common trigrams (`the`) make almost
 * every row a candidate.
 *
 * An index is built on the first fuzzy lookup of its memory (streamed from the database in pages) and
 * dropped when the memory's entries change, to be built again on the next lookup.
 */

const PAGE = 20_000;
/** Query tokens looked up, rarest first. */
const RARE_TOKENS = 8;
/** Entries handed to the exact scoring. */
const CANDIDATES = 60;
/** A token held by more than this share of the memory is common. */
const COMMON_SHARE = 0.02;

interface Index {
  /** Entry id at each position. */
  ids: number[];
  /** Token count of each entry (for the length window). */
  sizes: number[];
  postings: Map<string, number[]>;
  /** Scratch counts of one lookup (lookups run one at a time: JavaScript is single-threaded between awaits). */
  counts: Uint8Array;
}

const isTag = (t: string) => /^<\/?\d+\/?>$/.test(t);

export class FuzzyIndex {
  private readonly indexes = new Map<string, Promise<Index>>();

  constructor(private readonly db: Kysely<TmDatabase>) {}

  private key(libraryId: number, sourceLang: string, targetLang: string) {
    return `${libraryId}|${sourceLang}|${targetLang}`;
  }

  /** The memory's entries changed: its indexes go, to be built again when next asked. */
  invalidate(libraryId: number): void {
    for (const k of [...this.indexes.keys()]) if (k.startsWith(`${libraryId}|`)) this.indexes.delete(k);
  }

  private async build(libraryId: number, sourceLang: string, targetLang: string): Promise<Index> {
    const index: Index = { ids: [], sizes: [], postings: new Map(), counts: new Uint8Array(0) };
    let after = 0;
    for (;;) {
      const rows = await this.db
        .selectFrom('tm_entries')
        .select(['id', 'source'])
        .where('library_id', '=', libraryId)
        .where('source_lang', '=', sourceLang)
        .where('target_lang', '=', targetLang)
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute();
      for (const r of rows) {
        const pos = index.ids.length;
        const toks = tokens(r.source).filter((t) => !isTag(t));
        index.ids.push(r.id);
        index.sizes.push(toks.length);
        for (const t of new Set(toks)) {
          const list = index.postings.get(t);
          if (list) list.push(pos);
          else index.postings.set(t, [pos]);
        }
      }
      if (rows.length < PAGE) return index;
      after = rows[rows.length - 1]!.id;
    }
  }

  private index(libraryId: number, sourceLang: string, targetLang: string): Promise<Index> {
    const k = this.key(libraryId, sourceLang, targetLang);
    let p = this.indexes.get(k);
    if (!p) {
      p = this.build(libraryId, sourceLang, targetLang);
      this.indexes.set(k, p);
      p.catch(() => this.indexes.delete(k));
    }
    return p;
  }

  /** Entry ids likely to match `text`, best first. */
  async candidates(libraryId: number, sourceLang: string, targetLang: string, text: string): Promise<number[]> {
    const index = await this.index(libraryId, sourceLang, targetLang);
    const query = [...new Set(tokens(text).filter((t) => !isTag(t)))];
    if (!query.length || !index.ids.length) return [];
    const sorted = query.map((t) => index.postings.get(t) ?? []).filter((l) => l.length > 0).sort((a, b) => a.length - b.length);
    // Tokens in a large share of the memory (function words) say little and cost most: left out while
    // at least two rarer ones remain.
    const common = Math.max(1000, index.ids.length * COMMON_SHARE);
    const rare = sorted.filter((l) => l.length <= common);
    const lists = (rare.length >= 2 ? rare : sorted).slice(0, RARE_TOKENS);
    const size = tokens(text).length;
    const min = Math.floor(size * 0.5);
    const max = Math.ceil(size * 2) + 2;
    // Counting in a typed array the size of the memory, reset through the list of positions touched.
    if (index.counts.length < index.ids.length) index.counts = new Uint8Array(index.ids.length);
    const counts = index.counts;
    const touched: number[] = [];
    for (const list of lists) {
      for (const pos of list) {
        const n = index.sizes[pos]!;
        if (n < min || n > max) continue;
        if (counts[pos] === 0) touched.push(pos);
        counts[pos]!++;
      }
    }
    // Most shared rare tokens first; among equals, the closest length.
    const best = touched
      .map((pos) => [pos, counts[pos]!] as const)
      .sort((a, b) => b[1] - a[1] || Math.abs(index.sizes[a[0]]! - size) - Math.abs(index.sizes[b[0]]! - size))
      .slice(0, CANDIDATES)
      .map(([pos]) => index.ids[pos]!);
    for (const pos of touched) counts[pos] = 0;
    return best;
  }
}
