import type { Kysely } from 'kysely';
import {
  ApiError,
  Codes,
  memoryConcordanceInputSchema,
  memoryLookupInputSchema,
  memoryWriteInputSchema,
  serviceCallerOf,
  serviceInput,
  type MemoryService,
  type MemoryServiceMatch,
  type ServerPluginContext,
} from '@linguaport/sdk/server';
import { baseEntryView, historyWriter, type EntryRow, type LibraryUsageCheck } from '@linguaport/sdk/resources';
import { blocking, checkTags, languageBase, qaRefusal } from '@linguaport/sdk/shared';
import { memoryEntries } from './entries.js';
import type { Libraries } from './libraries.js';
import type { ExactMatch, MemoryLookup, MemoryMatch } from './lookup.js';
import { exactKey, normalise } from './match/text.js';
import { writtenMeta } from './metadata.js';
import type { TmSettingsStore } from './settings.js';
import type { TmDatabase } from './tables.js';

/**
 * `tm.memories` (the SDK's `memoryService`): the memory area's lookups, concordance and write for other
 * areas (CAT), over the same matcher as the routes and the pipeline hook. Each call makes its caller
 * whole from the kernel's user directory and checks the memories' rights (use; edit for a write).
 */
export function createMemoryService(o: { ctx: ServerPluginContext; db: Kysely<TmDatabase>; libraries: Libraries; lookup: MemoryLookup; settings: TmSettingsStore; usage: LibraryUsageCheck[]; changed: (libraryId: number) => void }): MemoryService {
  const { ctx, db, libraries, lookup, settings } = o;
  const record = historyWriter('tm_history');
  const view = (r: EntryRow) => ({ ...baseEntryView(r), ...memoryEntries.view(r) });

  const toMatch = (m: ExactMatch | MemoryMatch, kind: 'exact' | 'fuzzy'): MemoryServiceMatch => {
    const { libraryId, ...rest } = m;
    return { ...rest, memoryId: libraryId, kind };
  };

  return {
    async lookup(raw) {
      const i = serviceInput(memoryLookupInputSchema, raw);
      const caller = await serviceCallerOf(ctx.users, i.caller);
      const memories = await libraries.forService(caller, i.memories, 'use');
      if (!memories.length || !i.segments.length) return { memories, segments: i.segments.map(() => []) };
      const minScore = i.minScore ?? (await settings.get()).showThreshold;
      // Two reads for the whole batch: the exact tier by the segments' keys, then the fuzzy candidates by id.
      const exact = await lookup.exact(memories, i.sourceLang, i.targetLang, i.segments);
      const fuzzy = await lookup.fuzzyMany(memories, i.sourceLang, i.targetLang, i.segments, i.maxMatches, minScore);
      const segments = i.segments.map((text, n) => {
        const e = exact.get(text);
        const out: MemoryServiceMatch[] = e && e.score >= minScore ? [toMatch(e, 'exact')] : [];
        for (const f of fuzzy[n]!) if (f.entryId !== e?.entryId) out.push(toMatch(f, 'fuzzy'));
        return out.sort((a, b) => b.score - a.score || (a.kind === 'exact' ? -1 : 0) - (b.kind === 'exact' ? -1 : 0)).slice(0, i.maxMatches);
      });
      return { memories, segments };
    },

    async concordance(raw) {
      const i = serviceInput(memoryConcordanceInputSchema, raw);
      const caller = await serviceCallerOf(ctx.users, i.caller);
      const memories = await libraries.forService(caller, i.memories, 'use');
      const { total, entries } = await lookup.concordance(memories, i.query, { side: i.side, sourceLang: i.sourceLang, targetLang: i.targetLang, limit: i.pageSize, offset: (i.pageNum - 1) * i.pageSize });
      return {
        memories,
        records: entries.map(({ libraryId, status, ...e }) => ({ ...e, memoryId: libraryId, reviewState: status })),
        total,
        pageNum: i.pageNum,
        pageSize: i.pageSize,
      };
    },

    async write(raw) {
      const i = serviceInput(memoryWriteInputSchema, raw);
      if (i.sourceLang === i.targetLang) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': '源语言和目标语言不能相同', 'en-US': 'The source and target languages must differ' });
      const caller = await serviceCallerOf(ctx.users, i.caller);
      await libraries.forService(caller, [i.memoryId], 'edit');
      // The same tag check as an entry added by hand: a broken pair would spread to every match.
      const problems = blocking(checkTags(i.source, i.target));
      if (problems.length) throw new ApiError(Codes.BAD_REQUEST, qaRefusal(problems));
      const author = caller.userId;
      const key = exactKey(i.source);
      const written = await db.transaction().execute(async (trx) => {
        // One writer of a memory at a time: two confirmations of one source never make two entries.
        await trx.selectFrom('tm_libraries').select('id').where('id', '=', i.memoryId).forUpdate().execute();
        const candidates = await trx
          .selectFrom('tm_entries')
          .selectAll()
          .where('library_id', '=', i.memoryId)
          .where('source_hash', '=', key)
          .where('source_lang', '=', i.sourceLang)
          .where('target_lang', '=', i.targetLang)
          .orderBy('id', 'desc')
          .execute();
        const same = candidates.find((r) => normalise(r.source) === normalise(i.source));
        if (same) {
          const row = await trx
            .updateTable('tm_entries')
            .set({ source: i.source, target: i.target, source_hash: key, status: i.state, enabled: true, meta: JSON.stringify(writtenMeta(same.meta, author, i.context)), updated_at: new Date() })
            .where('id', '=', same.id)
            .returningAll()
            .executeTakeFirstOrThrow();
          await record(trx, [{ library_id: i.memoryId, entry_id: row.id, action: 'edit', before: view(same as EntryRow), after: view(row as EntryRow) }], author);
          return { entryId: row.id, created: false };
        }
        const row = await trx
          .insertInto('tm_entries')
          .values({
            library_id: i.memoryId,
            source: i.source,
            target: i.target,
            source_lang: i.sourceLang,
            target_lang: i.targetLang,
            source_base: languageBase(i.sourceLang),
            target_base: languageBase(i.targetLang),
            source_hash: key,
            tags: '{}',
            status: i.state,
            meta: JSON.stringify(writtenMeta(null, author, i.context)),
            creator_id: author,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await record(trx, [{ library_id: i.memoryId, entry_id: row.id, action: 'add', before: null, after: view(row as EntryRow) }], author);
        return { entryId: row.id, created: true };
      });
      o.changed(i.memoryId);
      return { ...written, memoryId: i.memoryId };
    },

    registerUsage(check) {
      o.usage.push(check);
      return () => void o.usage.splice(o.usage.indexOf(check), 1);
    },
  };
}
