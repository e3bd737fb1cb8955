import type { Kysely } from 'kysely';
import { MemoryIndex, type IndexHit } from './match/memory-index.js';
import { fingerprint } from './match/text.js';
import type { TmDatabase } from './tables.js';

/**
 * The fuzzy tier's indexes: one `MemoryIndex` (match/memory-index.ts: token hashes in typed arrays,
 * every match of 75 or more found by prefix filtering) per memory and pair of languages (each the base
 * its variants share, `languageBase`: en-GB and en-US entries are in one index), built on the
 * memory's first fuzzy lookup by streaming its entries from the database in pages, and dropped when the
 * memory's entries change, to be built again on the next lookup.
 */

const PAGE = 20_000;

export class FuzzyIndex {
  private readonly indexes = new Map<string, Promise<MemoryIndex>>();

  constructor(private readonly db: Kysely<TmDatabase>) {}

  private key(libraryId: number, sourceLang: string, targetLang: string) {
    return `${libraryId}|${sourceLang}|${targetLang}`;
  }

  /** The memory's entries changed: its indexes go, to be built again when next asked. */
  invalidate(libraryId: number): void {
    for (const k of [...this.indexes.keys()]) if (k.startsWith(`${libraryId}|`)) this.indexes.delete(k);
  }

  private async build(libraryId: number, sourceLang: string, targetLang: string): Promise<MemoryIndex> {
    const index = new MemoryIndex();
    let after = 0;
    for (;;) {
      const rows = await this.db
        .selectFrom('tm_entries')
        .select(['id', 'source'])
        .where('library_id', '=', libraryId)
        .where('source_base', '=', sourceLang)
        .where('target_base', '=', targetLang)
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute();
      for (const r of rows) index.add(r.id, fingerprint(r.source));
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1]!.id;
    }
    index.pack();
    return index;
  }

  private index(libraryId: number, sourceLang: string, targetLang: string): Promise<MemoryIndex> {
    const k = this.key(libraryId, sourceLang, targetLang);
    let p = this.indexes.get(k);
    if (!p) {
      p = this.build(libraryId, sourceLang, targetLang);
      this.indexes.set(k, p);
      p.catch(() => this.indexes.delete(k));
    }
    return p;
  }

  /** The best `limit` entries of the memory for `text` scoring at least `minScore`, best first; the languages are bases (`languageBase`). */
  async search(libraryId: number, sourceLang: string, targetLang: string, text: string, limit: number, minScore: number): Promise<IndexHit[]> {
    const index = await this.index(libraryId, sourceLang, targetLang);
    return index.search(fingerprint(text), { limit, minScore });
  }
}
