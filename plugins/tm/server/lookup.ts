import { z } from 'zod';
import { sql, type Kysely } from 'kysely';
import { ApiError, Codes, type Caller, type PipelineSegment, type ServerPluginContext } from '@linguaport/sdk/server';
import { idNumberSchema } from '@linguaport/sdk/shared';
import type { FuzzyIndex } from './fuzzy-index.js';
import type { Libraries } from './libraries.js';
import { highlights } from './match/concordance.js';
import { scoreText, type DiffOp } from './match/score.js';
import { exactKey, normalise } from './match/text.js';
import type { TmSettingsStore } from './settings.js';
import type { TmDatabase } from './tables.js';

/**
 * Looking things up in memories: exact and fuzzy matches of a segment, a concordance search, and
 * the pipeline hook that fills a segment's translation from an exact match before the engine sees it
 * (every translation of the platform: text, the public API, documents). Failed and disabled entries
 * are never offered.
 */

export interface MemoryMatch {
  entryId: number;
  libraryId: number;
  score: number;
  source: string;
  target: string;
  diff: DiffOp[];
}

/** Matches shown from this score up unless the area's settings say otherwise (`showThreshold`). */
export const SHOW_THRESHOLD = 50;

export class MemoryLookup {
  constructor(
    private readonly db: Kysely<TmDatabase>,
    private readonly index: FuzzyIndex,
  ) {}

  private live(libraryIds: number[], sourceLang: string, targetLang: string) {
    return this.db
      .selectFrom('tm_entries')
      .where('library_id', 'in', libraryIds)
      .where('source_lang', '=', sourceLang)
      .where('target_lang', '=', targetLang)
      .where('status', '!=', 'failed')
      .where('enabled', '=', true);
  }

  /** The best exact match of each text (same normalised source), checked entries first, then the newest. */
  async exact(libraryIds: number[], sourceLang: string, targetLang: string, texts: string[]): Promise<Map<string, { entryId: number; libraryId: number; target: string }>> {
    const out = new Map<string, { entryId: number; libraryId: number; target: string }>();
    if (!libraryIds.length || !texts.length) return out;
    const hashes = [...new Set(texts.map(exactKey))];
    const rows = await this.live(libraryIds, sourceLang, targetLang)
      .select(['id', 'library_id', 'source', 'target', 'source_hash', 'status'])
      .where('source_hash', 'in', hashes)
      .orderBy(sql`case when status = 'checked' then 0 else 1 end`)
      .orderBy('id', 'desc')
      .execute();
    const byHash = new Map<string, (typeof rows)[number]>();
    for (const r of rows) if (!byHash.has(r.source_hash)) byHash.set(r.source_hash, r);
    for (const text of texts) {
      const r = byHash.get(exactKey(text));
      // The hash is of the normalised text: confirm it, so a collision never passes as a match.
      if (r && normalise(r.source) === normalise(text)) out.set(text, { entryId: r.id, libraryId: r.library_id, target: r.target });
    }
    return out;
  }

  /** The top `limit` matches of `text` scoring at least `minScore`, best first. */
  async fuzzy(libraryIds: number[], sourceLang: string, targetLang: string, text: string, limit = 5, minScore = SHOW_THRESHOLD): Promise<MemoryMatch[]> {
    if (!libraryIds.length || !text.trim()) return [];
    // Disabled and failed entries are in the index too (it holds sources only): ask for more than shown.
    const hits = (await Promise.all(libraryIds.map((id) => this.index.search(id, sourceLang, targetLang, text, limit * 4, minScore)))).flat();
    const ids = hits.map((h) => h.id);
    if (!ids.length) return [];
    const rows = await this.live(libraryIds, sourceLang, targetLang).select(['id', 'library_id', 'source', 'target']).where('id', 'in', ids).execute();
    return rows
      .map((r) => ({ entryId: r.id, libraryId: r.library_id, source: r.source, target: r.target, ...scoreText(text, r.source) }))
      .filter((m) => m.score >= minScore)
      .sort((a, b) => b.score - a.score || b.entryId - a.entryId)
      .slice(0, limit);
  }

  async concordance(libraryIds: number[], phrase: string, limit = 50) {
    if (!libraryIds.length) return [];
    const pattern = `%${phrase.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await this.db
      .selectFrom('tm_entries')
      .select(['id', 'library_id', 'source', 'target', 'source_lang', 'target_lang', 'status'])
      .where('library_id', 'in', libraryIds)
      .where('enabled', '=', true)
      .where('status', '!=', 'failed')
      .where((eb) => eb.or([eb('source', 'ilike', pattern), eb('target', 'ilike', pattern)]))
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      entryId: r.id,
      libraryId: r.library_id,
      source: r.source,
      target: r.target,
      sourceLang: r.source_lang,
      targetLang: r.target_lang,
      status: r.status,
      sourceHighlights: highlights(r.source, phrase),
      targetHighlights: highlights(r.target, phrase),
    }));
  }
}

/** The memories a request may read: those it names (each checked), else the caller's defaults. */
export async function memoriesFor(libraries: Libraries, caller: Caller, named: readonly (number | string)[] | undefined, headers: Record<string, unknown>): Promise<number[]> {
  if (named && named.length) {
    const ids = named.map(Number);
    for (const id of ids) await libraries.assert(caller, id, 'use', headers);
    return ids;
  }
  return libraries.defaultsFor(caller);
}

export function lookupRoutes(ctx: ServerPluginContext, libraries: Libraries, lookup: MemoryLookup, keys: { view: string }, settings: TmSettingsStore) {
  const ids = z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v.join(',') : v).split(',').filter(Boolean).map(Number))
    .pipe(z.array(idNumberSchema).max(20))
    .optional();

  ctx.route({
    method: 'GET',
    url: '/TM/match',
    access: { permission: keys.view },
    summary: 'Exact and fuzzy matches of a text in memories (the caller\'s defaults unless named)',
    schema: { query: z.object({ libraryIds: ids, sourceLang: z.string().min(2).max(20), targetLang: z.string().min(2).max(20), text: z.string().trim().min(1, 'validation.required').max(2000), limit: z.coerce.number().int().min(1).max(20).default(5) }) },
    response: {
      data: z.object({
        memories: z.array(z.number().int()).describe('The memories read'),
        matches: z.array(
          z.object({
            entryId: z.number().int(),
            libraryId: z.number().int(),
            score: z.number().min(0).max(100),
            source: z.string(),
            target: z.string(),
            diff: z.array(z.object({ op: z.enum(['equal', 'insert', 'delete']), text: z.string() })).describe("What turns the memory's source into the text"),
          }),
        ),
      }),
      errors: [404],
    },
    async handler({ query, caller, headers }) {
      const memories = await memoriesFor(libraries, caller!, query.libraryIds, headers);
      const { showThreshold } = await settings.get();
      return { memories, matches: await lookup.fuzzy(memories, query.sourceLang, query.targetLang, query.text, query.limit, showThreshold) };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/TM/concordance',
    access: { permission: keys.view },
    summary: 'Entries holding a word or phrase, with where it occurs',
    schema: { query: z.object({ libraryIds: ids, q: z.string().trim().min(1, 'validation.required').max(200) }) },
    response: {
      data: z.object({
        memories: z.array(z.number().int()),
        entries: z.array(
          z.object({
            entryId: z.number().int(),
            libraryId: z.number().int(),
            source: z.string(),
            target: z.string(),
            sourceLang: z.string(),
            targetLang: z.string(),
            status: z.enum(['unchecked', 'checked']),
            sourceHighlights: z.array(z.tuple([z.number().int(), z.number().int()])).describe('Where the phrase occurs: [start, end) offsets'),
            targetHighlights: z.array(z.tuple([z.number().int(), z.number().int()])),
          }),
        ),
      }),
      errors: [404],
    },
    async handler({ query, caller, headers }) {
      const memories = await memoriesFor(libraries, caller!, query.libraryIds, headers);
      return { memories, entries: await lookup.concordance(memories, query.q) };
    },
  });

  // Exact matches fill segments before the engine: the engine never sees them, and the result says where
  // they came from. With an auto-use threshold below 100, near matches from that score up do too, each
  // marked with its score and a note to review it.
  ctx.pipeline.register({
    name: 'tm',
    order: 10,
    // A document upload or a saved configuration naming memories is refused at once when one is not the caller's to use.
    async checkResources(resources, callerId) {
      if (!resources.memories?.length) return;
      const caller: Caller = { userId: callerId, username: '', departmentId: null, isSuperAdmin: false, permissions: new Set(), via: 'session' };
      await libraries.assertUsable(await callerWithDepartment(ctx, caller), resources.memories);
    },
    async beforeEngine(segments: PipelineSegment[], pctx) {
      if (!pctx.callerId) return;
      const caller: Caller = { userId: pctx.callerId, username: '', departmentId: null, isSuperAdmin: false, permissions: new Set(), via: 'session' };
      let memories: number[];
      try {
        // Named memories, or the caller's defaults when the request names none; an empty list chosen on purpose (a picker left empty) is no memory.
        const named = pctx.resources.memories;
        memories = named && named.length === 0 ? [] : await memoriesFor(libraries, await callerWithDepartment(ctx, caller), named, {});
      } catch (err) {
        if (err instanceof ApiError && err.code === Codes.FORBIDDEN) throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': '权限不足：您不能使用所选的记忆库', 'en-US': 'Insufficient permission: you may not use a chosen memory' });
        throw err;
      }
      if (!memories.length) return;
      const open = segments.filter((s) => s.target === undefined && s.source.trim());
      const found = await lookup.exact(memories, pctx.source, pctx.target, open.map((s) => s.source));
      for (const s of open) {
        const m = found.get(s.source);
        if (!m) continue;
        // The source's own outer white space stays; the memory holds the trimmed sentence.
        const lead = /^\s*/.exec(s.source)![0];
        const tail = /\s*$/.exec(s.source)![0];
        s.target = `${lead}${m.target}${tail}`;
        s.origin = { kind: 'hook', hook: 'tm', score: 100, ref: `tm:${m.libraryId}:${m.entryId}` };
      }
      const { autoUseThreshold } = await settings.get();
      if (autoUseThreshold >= 100) return;
      for (const s of open) {
        if (s.target !== undefined) continue;
        const [best] = await lookup.fuzzy(memories, pctx.source, pctx.target, s.source.trim(), 1, autoUseThreshold);
        if (!best) continue;
        const lead = /^\s*/.exec(s.source)![0];
        const tail = /\s*$/.exec(s.source)![0];
        s.target = `${lead}${best.target}${tail}`;
        s.origin = { kind: 'hook', hook: 'tm', score: best.score, ref: `tm:${best.libraryId}:${best.entryId}` };
        s.issues.push({
          hook: 'tm',
          severity: 'info',
          code: 'tm-fuzzy-used',
          params: { score: String(best.score), source: best.source },
          message: `使用了 ${best.score}% 的记忆匹配，请核对 / A ${best.score}% memory match was used: review it`,
        });
      }
    },
  });
}

/**
 * The hook knows the caller's id only: its department (for department-shared memories) and whether it
 * is a super administrator come from the kernel's user directory (ctx.users).
 */
async function callerWithDepartment(ctx: ServerPluginContext, caller: Caller): Promise<Caller> {
  const member = await ctx.users.membership(caller.userId);
  return { ...caller, departmentId: member?.departmentIds[0] ?? null, isSuperAdmin: !!member?.isSuperAdmin };
}

