import { z } from 'zod';
import { sql, type Kysely } from 'kysely';
import { ApiError, Codes, type Caller, type MemoryServiceMatch, type PipelineSegment, type ServerPluginContext } from '@linguaport/sdk/server';
import { idNumberSchema, languageBase, languageTagSchema, VARIANT_PREFERENCE, variantMatch, worseMatch, type VariantMatch } from '@linguaport/sdk/shared';
import type { FuzzyIndex } from './fuzzy-index.js';
import type { Libraries } from './libraries.js';
import { highlights } from './match/concordance.js';
import { scoreText, type DiffOp } from './match/score.js';
import { exactKey, normalise } from './match/text.js';
import type { TmSettingsStore } from './settings.js';
import { contextOf, notesOf, type EntryMeta } from './metadata.js';
import type { TmDatabase } from './tables.js';

/** Candidate ids read from the database in one query: well under PostgreSQL's 65,535 parameters. */
const ID_CHUNK = 5000;

/**
 * Looking things up in memories: exact and fuzzy matches of a segment, a concordance search, and
 * the pipeline hook that fills a segment's translation from an exact match before the engine sees it
 * (every translation of the platform: text, the public API, documents). Failed and disabled entries
 * are never offered.
 *
 * Languages are BCP 47 tags. An entry answers a request in its language (`languageBase`): the exact
 * variant first, then the language's generic tag (either side without a region: `en` for `en-GB`, any
 * English for `en`), then another variant (`en-US` for `en-GB`), whose score loses the area's
 * `variantPenalty` points. Each match says its entry's tags and how they answered.
 */

/** What an entry carries besides its texts, as a match or a concordance line answers it (the `tm.memories` contract's fields). */
export type EntryFacts = Pick<MemoryServiceMatch, 'createdBy' | 'createdAt' | 'updatedAt' | 'reviewState' | 'notes' | 'context' | 'attrs'>;

const FACT_COLUMNS = ['creator_id', 'created_at', 'updated_at', 'status', 'meta'] as const;

function factsOf(r: { creator_id: number; created_at: Date; updated_at: Date; status: string; meta: unknown }): EntryFacts {
  const iso = (d: Date | string) => new Date(d).toISOString();
  return {
    createdBy: r.creator_id,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    // Failed entries are never offered.
    reviewState: r.status === 'checked' ? 'checked' : 'unchecked',
    notes: notesOf(r.meta),
    context: contextOf(r.meta),
    attrs: { ...((r.meta as EntryMeta | null)?.attrs ?? {}) },
  };
}

export interface MemoryMatch extends EntryFacts {
  entryId: number;
  libraryId: number;
  score: number;
  source: string;
  target: string;
  diff: DiffOp[];
  /** The entry's own tags (`en-US`), and how they answer the ones asked. */
  sourceLang: string;
  targetLang: string;
  variant: VariantMatch;
  /** Points the score lost for another variant of the language (0 for the exact variant or the generic tag). */
  penalty: number;
}

export interface ExactMatch extends EntryFacts {
  entryId: number;
  libraryId: number;
  source: string;
  target: string;
  /** 100, less the penalty for another variant. */
  score: number;
  sourceLang: string;
  targetLang: string;
  variant: VariantMatch;
  penalty: number;
}

/** How an entry's tags answer the ones asked (the worse of its two sides), or null for other languages. */
function variantOf(sourceLang: string, targetLang: string, row: { source_lang: string; target_lang: string }): VariantMatch | null {
  const s = variantMatch(sourceLang, row.source_lang);
  const t = variantMatch(targetLang, row.target_lang);
  return s && t ? worseMatch(s, t) : null;
}

/** Matches shown from this score up unless the area's settings say otherwise (`showThreshold`). */
export const SHOW_THRESHOLD = 50;

export class MemoryLookup {
  constructor(
    private readonly db: Kysely<TmDatabase>,
    private readonly index: FuzzyIndex,
    /** Points off a match from another variant of the language (the area's `variantPenalty`). */
    private readonly variantPenalty: () => Promise<number> = async () => 2,
  ) {}

  private live(libraryIds: number[], sourceLang: string, targetLang: string) {
    return this.db
      .selectFrom('tm_entries')
      .where('library_id', 'in', libraryIds)
      .where('source_base', '=', languageBase(sourceLang))
      .where('target_base', '=', languageBase(targetLang))
      .where('status', '!=', 'failed')
      .where('enabled', '=', true);
  }

  /**
   * The best exact match of each text (same normalised source): the exact variant, then the generic tag,
   * then another variant (scored 100 less the penalty); within each, checked entries first, then the newest.
   */
  async exact(libraryIds: number[], sourceLang: string, targetLang: string, texts: string[]): Promise<Map<string, ExactMatch>> {
    const out = new Map<string, ExactMatch>();
    if (!libraryIds.length || !texts.length) return out;
    const hashes = [...new Set(texts.map(exactKey))];
    const rows = await this.live(libraryIds, sourceLang, targetLang)
      .select(['id', 'library_id', 'source', 'target', 'source_hash', 'source_lang', 'target_lang', ...FACT_COLUMNS])
      .where('source_hash', 'in', hashes)
      .orderBy(sql`case when status = 'checked' then 0 else 1 end`)
      .orderBy('id', 'desc')
      .execute();
    const penalty = await this.variantPenalty();
    const byHash = new Map<string, { row: (typeof rows)[number]; variant: VariantMatch }>();
    for (const r of rows) {
      const variant = variantOf(sourceLang, targetLang, r);
      if (!variant) continue;
      const held = byHash.get(r.source_hash);
      if (!held || VARIANT_PREFERENCE[variant] < VARIANT_PREFERENCE[held.variant]) byHash.set(r.source_hash, { row: r, variant });
    }
    for (const text of texts) {
      const found = byHash.get(exactKey(text));
      if (!found) continue;
      const { row: r, variant } = found;
      const off = variant === 'variant' ? penalty : 0;
      // The hash is of the normalised text: confirm it, so a collision never passes as a match.
      if (normalise(r.source) === normalise(text)) out.set(text, { entryId: r.id, libraryId: r.library_id, source: r.source, target: r.target, score: 100 - off, sourceLang: r.source_lang, targetLang: r.target_lang, variant, penalty: off, ...factsOf(r) });
    }
    return out;
  }

  /** The top `limit` matches of `text` scoring at least `minScore` (after the variant penalty), best first. */
  async fuzzy(libraryIds: number[], sourceLang: string, targetLang: string, text: string, limit = 5, minScore = SHOW_THRESHOLD): Promise<MemoryMatch[]> {
    return (await this.fuzzyMany(libraryIds, sourceLang, targetLang, [text], limit, minScore))[0]!;
  }

  /**
   * `fuzzy` for many texts at once: the index is searched for each text (in memory), then the
   * candidates of all of them are read from the database together, in chunks of `ID_CHUNK`, not per text.
   */
  async fuzzyMany(libraryIds: number[], sourceLang: string, targetLang: string, texts: readonly string[], limit = 5, minScore = SHOW_THRESHOLD): Promise<MemoryMatch[][]> {
    const out = texts.map((): MemoryMatch[] => []);
    if (!libraryIds.length) return out;
    const bases = [languageBase(sourceLang), languageBase(targetLang)] as const;
    const wanted: number[][] = [];
    const all = new Set<number>();
    for (const text of texts) {
      if (!text.trim()) {
        wanted.push([]);
        continue;
      }
      // Disabled and failed entries, and every variant of the languages, are in the index too (it holds sources only): ask for more than shown.
      const hits = (await Promise.all(libraryIds.map((id) => this.index.search(id, bases[0], bases[1], text, limit * 4, minScore)))).flat();
      wanted.push(hits.map((h) => h.id));
      for (const h of hits) all.add(h.id);
    }
    if (!all.size) return out;
    const ids = [...all];
    const rows = new Map<number, Awaited<ReturnType<typeof this.candidates>>[number]>();
    for (let i = 0; i < ids.length; i += ID_CHUNK) for (const r of await this.candidates(libraryIds, sourceLang, targetLang, ids.slice(i, i + ID_CHUNK))) rows.set(r.id, r);
    const penalty = await this.variantPenalty();
    texts.forEach((text, i) => {
      const found: MemoryMatch[] = [];
      for (const id of wanted[i]!) {
        const r = rows.get(id);
        if (!r) continue;
        const variant = variantOf(sourceLang, targetLang, r);
        if (!variant) continue;
        const scored = scoreText(text, r.source);
        const off = variant === 'variant' ? Math.min(penalty, scored.score) : 0;
        found.push({ entryId: r.id, libraryId: r.library_id, source: r.source, target: r.target, ...scored, score: scored.score - off, sourceLang: r.source_lang, targetLang: r.target_lang, variant, penalty: off, ...factsOf(r) });
      }
      out[i] = found
        .filter((m) => m.score >= minScore)
        .sort((a, b) => b.score - a.score || VARIANT_PREFERENCE[a.variant] - VARIANT_PREFERENCE[b.variant] || b.entryId - a.entryId)
        .slice(0, limit);
    });
    return out;
  }

  private candidates(libraryIds: number[], sourceLang: string, targetLang: string, ids: number[]) {
    return this.live(libraryIds, sourceLang, targetLang).select(['id', 'library_id', 'source', 'target', 'source_lang', 'target_lang', ...FACT_COLUMNS]).where('id', 'in', ids).execute();
  }

  /**
   * Entries holding `phrase` (case ignored) in their source, target or either, newest first: a page of
   * them and how many there are; optionally only entries of these languages (any variant of each).
   */
  async concordance(libraryIds: number[], phrase: string, o: { side?: 'source' | 'target' | 'both'; sourceLang?: string; targetLang?: string; limit?: number; offset?: number } = {}) {
    if (!libraryIds.length) return { total: 0, entries: [] };
    const pattern = `%${phrase.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const side = o.side ?? 'both';
    let q = this.db
      .selectFrom('tm_entries')
      .where('library_id', 'in', libraryIds)
      .where('enabled', '=', true)
      .where('status', '!=', 'failed')
      .where((eb) => eb.or([...(side !== 'target' ? [eb('source', 'ilike', pattern)] : []), ...(side !== 'source' ? [eb('target', 'ilike', pattern)] : [])]));
    if (o.sourceLang) q = q.where('source_base', '=', languageBase(o.sourceLang));
    if (o.targetLang) q = q.where('target_base', '=', languageBase(o.targetLang));
    // The route's top 50 needs no count: only a paged caller (the service) asks for one.
    const total = o.offset === undefined ? null : Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await q
      .select(['id', 'library_id', 'source', 'target', 'source_lang', 'target_lang', 'status'])
      .orderBy('id', 'desc')
      .limit(o.limit ?? 50)
      .offset(o.offset ?? 0)
      .execute();
    const entries = rows.map((r) => ({
      entryId: r.id,
      libraryId: r.library_id,
      source: r.source,
      target: r.target,
      sourceLang: r.source_lang,
      targetLang: r.target_lang,
      status: r.status as 'unchecked' | 'checked',
      sourceHighlights: highlights(r.source, phrase),
      targetHighlights: highlights(r.target, phrase),
    }));
    return { total: total ?? entries.length, entries };
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
    schema: { query: z.object({ libraryIds: ids, sourceLang: languageTagSchema, targetLang: languageTagSchema, text: z.string().trim().min(1, 'validation.required').max(2000), limit: z.coerce.number().int().min(1).max(20).default(5) }) },
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
            sourceLang: z.string().describe("The entry's source language tag (en-US)"),
            targetLang: z.string().describe("The entry's target language tag: the variant the match came from"),
            variant: z.enum(['exact', 'generic', 'variant']).describe('The exact variant asked, the generic tag of its language, or another variant'),
            penalty: z.number().int().min(0).describe('Points the score lost for another variant (the variantPenalty setting)'),
            notes: z.array(z.string()).describe("The entry's notes (its TMX unit's, then its source's and target's), for a CAT editor to show"),
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
      return { memories, entries: (await lookup.concordance(memories, query.q)).entries };
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
      const { autoUseThreshold } = await settings.get();
      for (const s of open) {
        const m = found.get(s.source);
        // Another variant's exact match (en-US for en-GB) scores below 100: used only from the auto-use score.
        if (!m || m.score < autoUseThreshold) continue;
        // The source's own outer white space stays; the memory holds the trimmed sentence.
        const lead = /^\s*/.exec(s.source)![0];
        const tail = /\s*$/.exec(s.source)![0];
        s.target = `${lead}${m.target}${tail}`;
        s.origin = { kind: 'hook', hook: 'tm', score: m.score, ref: `tm:${m.libraryId}:${m.entryId}` };
        if (m.penalty) s.issues.push(variantUsed(m.score, s.source.trim(), m.targetLang));
      }
      if (autoUseThreshold >= 100) return;
      const left = open.filter((s) => s.target === undefined);
      // One read of the candidates for all the segments left, not one per segment.
      const near = await lookup.fuzzyMany(memories, pctx.source, pctx.target, left.map((s) => s.source.trim()), 1, autoUseThreshold);
      for (const [i, s] of left.entries()) {
        const [best] = near[i]!;
        if (!best) continue;
        const lead = /^\s*/.exec(s.source)![0];
        const tail = /\s*$/.exec(s.source)![0];
        s.target = `${lead}${best.target}${tail}`;
        s.origin = { kind: 'hook', hook: 'tm', score: best.score, ref: `tm:${best.libraryId}:${best.entryId}` };
        s.issues.push({
          hook: 'tm',
          severity: 'info',
          code: 'tm-fuzzy-used',
          params: { score: String(best.score), source: best.source, ...(best.penalty ? { variant: best.targetLang } : {}) },
          message: `使用了 ${best.score}% 的记忆匹配${best.penalty ? `（${best.targetLang}）` : ''}，请核对 / A ${best.score}% memory match${best.penalty ? ` (${best.targetLang})` : ''} was used: review it`,
        });
      }
    },
  });
}

/** The note on a segment filled from another variant's exact match (its score less the penalty). */
function variantUsed(score: number, source: string, variant: string) {
  return {
    hook: 'tm',
    severity: 'info' as const,
    code: 'tm-fuzzy-used',
    params: { score: String(score), source, variant },
    message: `使用了 ${score}% 的记忆匹配（${variant}），请核对 / A ${score}% memory match (${variant}) was used: review it`,
  };
}

/**
 * The hook knows the caller's id only: its department (for department-shared memories) and whether it
 * is a super administrator come from the kernel's user directory (ctx.users).
 */
async function callerWithDepartment(ctx: ServerPluginContext, caller: Caller): Promise<Caller> {
  const member = await ctx.users.membership(caller.userId);
  return { ...caller, departmentId: member?.departmentIds[0] ?? null, isSuperAdmin: !!member?.isSuperAdmin };
}

