import { z } from 'zod';
import { sql, type Kysely } from 'kysely';
import { ApiError, Codes, morphologyService, type Caller, type PipelineContext, type PipelineSegment, type ServerPluginContext } from '@linguaport/sdk/server';
import { idSchema } from '@linguaport/sdk/shared';
import type { LibraryAccess } from '@linguaport/sdk/resources';
import { applyTerms } from './apply.js';
import { findAll, TermMatcher, type TermHit } from './matcher.js';
import type { TermDatabase } from './tables.js';

/**
 * Term recognition: the terms of chosen term bases found in a source text (`POST /term/recognise`),
 * and the pipeline hook that makes them required terms of every translation and checks the engine's
 * output for them. Failed and disabled terms are never recognised; checked ones win over unchecked
 * ones with the same source, then the newest.
 */

/** One matcher per term base and language pair, built on first use and dropped when the base's terms change. */
export class TermRecognition {
  private readonly cache = new Map<string, Promise<TermMatcher>>();

  constructor(private readonly db: Kysely<TermDatabase>) {}

  invalidate(libraryId: number): void {
    for (const key of this.cache.keys()) if (key.startsWith(`${libraryId}|`)) this.cache.delete(key);
  }

  matcher(libraryId: number, sourceLang: string, targetLang: string): Promise<TermMatcher> {
    const key = `${libraryId}|${sourceLang}|${targetLang}`;
    let m = this.cache.get(key);
    if (!m) {
      m = this.build(libraryId, sourceLang, targetLang);
      this.cache.set(key, m);
      // A failed build is not kept: the next call tries again.
      m.catch(() => this.cache.get(key) === m && this.cache.delete(key));
    }
    return m;
  }

  private async build(libraryId: number, sourceLang: string, targetLang: string): Promise<TermMatcher> {
    const rows = await this.db
      .selectFrom('term_entries')
      .select(['id', 'library_id', 'source', 'target', 'forbidden'])
      .where('library_id', '=', libraryId)
      .where('source_lang', '=', sourceLang)
      .where('target_lang', '=', targetLang)
      .where('status', '!=', 'failed')
      .where('enabled', '=', true)
      .orderBy(sql`case when status = 'checked' then 0 else 1 end`)
      .orderBy('id', 'desc')
      .execute();
    return new TermMatcher(rows.map((r) => ({ id: r.id, libraryId: r.library_id, source: r.source, target: r.target, forbidden: r.forbidden })));
  }

  /** The terms of these term bases (in order of preference) in `text`. */
  async recognise(libraryIds: number[], sourceLang: string, targetLang: string, text: string): Promise<TermHit[]> {
    if (!libraryIds.length || !text.trim()) return [];
    const matchers = await Promise.all(libraryIds.map((id) => this.matcher(id, sourceLang, targetLang)));
    return findAll(text, matchers);
  }

  /** `recognise` for many texts: the matchers are fetched once (built on first use), then each text is searched in memory. */
  async recogniseMany(libraryIds: number[], sourceLang: string, targetLang: string, texts: readonly string[]): Promise<TermHit[][]> {
    if (!libraryIds.length) return texts.map(() => []);
    const matchers = await Promise.all(libraryIds.map((id) => this.matcher(id, sourceLang, targetLang)));
    return texts.map((text) => (text.trim() ? findAll(text, matchers) : []));
  }
}

/** The term bases a request may read: those it names (each checked), else the caller's defaults. */
export async function termBasesFor(access: LibraryAccess, caller: Caller, named: readonly (number | string)[] | undefined, headers: Record<string, unknown>): Promise<number[]> {
  if (named && named.length) {
    const ids = [...new Set(named.map(Number))];
    for (const id of ids) await access.assert(caller, id, 'use', headers);
    return ids;
  }
  return access.defaultsFor(caller);
}

export function recogniseRoutes(ctx: ServerPluginContext, access: LibraryAccess, recognition: TermRecognition, keys: { view: string }) {
  ctx.route({
    method: 'POST',
    url: '/term/recognise',
    access: { permission: keys.view },
    summary: "The terms of term bases (the caller's defaults unless named) found in a text",
    schema: {
      body: z.object({
        text: z.string().min(1, 'validation.required').max(100_000),
        sourceLang: z.string().trim().min(2, 'validation.required').max(20),
        targetLang: z.string().trim().min(2, 'validation.required').max(20),
        termBaseIds: z.array(idSchema).max(20).optional(),
      }),
    },
    response: {
      data: z.object({
        termBases: z.array(z.number().int()).describe('The term bases read'),
        hits: z.array(
          z.object({
            start: z.number().int().describe('UTF-16 offset of the hit in the text'),
            end: z.number().int().describe('End offset (exclusive)'),
            text: z.string().describe('The text as written at the hit'),
            termId: z.number().int(),
            termBaseId: z.number().int(),
            source: z.string(),
            target: z.string(),
            forbidden: z.boolean(),
          }),
        ),
      }),
      errors: [404],
    },
    async handler({ body, caller, headers }) {
      const termBases = await termBasesFor(access, caller!, body.termBaseIds, headers);
      return { termBases, hits: await recognition.recognise(termBases, body.sourceLang, body.targetLang, body.text) };
    },
  });

  // Term bases and hits found before the engine, per request, for the work after it.
  const found = new WeakMap<PipelineContext, { termBases: number[]; bySegment: Map<string, TermHit[]> }>();

  ctx.pipeline.register({
    name: 'term',
    order: 20,
    // A document upload or a saved configuration naming term bases is refused at once when one is not the caller's to use.
    async checkResources(resources, callerId) {
      if (!resources.termBases?.length) return;
      const caller: Caller = { userId: callerId, username: '', departmentId: null, isSuperAdmin: false, permissions: new Set(), via: 'session' };
      await access.assertUsable(await callerWithDepartment(ctx, caller), resources.termBases);
    },
    // Between the memory's matches and the engine: the segments still open get their terms as required terms.
    async terms(segments: PipelineSegment[], pctx) {
      if (!pctx.callerId) return;
      const caller: Caller = { userId: pctx.callerId, username: '', departmentId: null, isSuperAdmin: false, permissions: new Set(), via: 'session' };
      let termBases: number[];
      try {
        // Named term bases, or the caller's defaults when the request names none; an empty list chosen on purpose is no term base.
        const named = pctx.resources.termBases;
        termBases = named && named.length === 0 ? [] : await termBasesFor(access, await callerWithDepartment(ctx, caller), named, {});
      } catch (err) {
        if (err instanceof ApiError && err.code === Codes.FORBIDDEN) throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': '权限不足：您不能使用所选的术语库', 'en-US': 'Insufficient permission: you may not use a chosen term base' });
        throw err;
      }
      if (!termBases.length) return;
      const bySegment = new Map<string, TermHit[]>();
      const required = new Set(pctx.terms.map((t) => `${t.source}\u0000${t.target}`));
      for (const s of segments) {
        const hits = await recognition.recognise(termBases, pctx.source, pctx.target, s.source);
        if (!hits.length) continue;
        bySegment.set(s.id, hits);
        for (const h of hits) {
          // A forbidden term is never asked for: engines that take instructions are told to avoid it, and the output is checked after.
          const key = `${h.forbidden ? 'x' : ''}${h.source}\u0000${h.target}`;
          if (required.has(key)) continue;
          required.add(key);
          (h.forbidden ? pctx.avoidTerms : pctx.terms).push({ source: h.source, target: h.target });
        }
      }
      found.set(pctx, { termBases, bySegment });
    },
    // The engine translated freely: each required term is put in its place with agreement fixed (apply.ts),
    // and every segment, a memory's too, is checked; what could not be done comes back as the segment's issues.
    async afterEngine(segments, pctx) {
      const state = found.get(pctx);
      if (!state) return;
      found.delete(pctx);
      const work: Array<{ segment: (typeof segments)[number]; hits: TermHit[]; fromEngine: boolean }> = [];
      for (const s of segments) {
        const fromEngine = s.origin.kind === 'engine';
        const hits = state.bySegment.get(s.id) ?? (s.origin.kind === 'hook' && s.origin.hook !== 'term' ? await recognition.recognise(state.termBases, pctx.source, pctx.target, s.source) : []);
        if (hits.length) work.push({ segment: s, hits, fromEngine });
      }
      if (!work.length) return;
      const out = await applyTerms(
        work.map((w) => ({ source: w.segment.source, target: w.segment.target, hits: w.hits, fromEngine: w.fromEngine })),
        { sourceLang: pctx.source, targetLang: pctx.target, renderPhrases: pctx.renderPhrases, morphology: ctx.services.find(morphologyService) },
      );
      work.forEach((w, i) => {
        w.segment.target = out[i]!.target;
        w.segment.issues.push(...out[i]!.issues);
      });
    },
  });
}

/**
 * The hook knows the caller's id only: its department (for department-shared term bases) and whether
 * it is a super administrator come from the kernel's user directory (ctx.users), as for the memory area.
 */
async function callerWithDepartment(ctx: ServerPluginContext, caller: Caller): Promise<Caller> {
  const member = await ctx.users.membership(caller.userId);
  return { ...caller, departmentId: member?.departmentIds[0] ?? null, isSuperAdmin: !!member?.isSuperAdmin };
}
