import { z } from 'zod';
import type { Kysely } from 'kysely';
import { ApiError, Codes, iso, say, timestampSchema, type ServerPluginContext, type TaskHandle } from '@linguaport/sdk/server';
import { idSchema, platformLanguage } from '@linguaport/sdk/shared';
import { CLEANING_RULES, type CleaningRule } from '../shared/schemas.js';
import { KEYS, type CorpusAccess } from './corpora.js';
import type { CorpusDatabase } from './tables.js';

/**
 * Cleaning: a task reads the corpus, flags pairs by rule and stores a report (counts and examples per
 * rule). Nothing is deleted until the user applies the report; applying deletes the flagged pairs.
 */

/** Below this many pairs the log-ratio's spread means little: a fixed bound around the median is used. */
export const SMALL_CORPUS = 30;
/** The fixed bound for small corpora: a pair's length ratio more than 3 times off the median's. */
export const FIXED_LOG_BOUND = Math.log(3);
/** Language detection is asked only about texts this long, and believed only this sure. */
export const DETECT_MIN_CHARS = 20;
export const DETECT_MIN_CONFIDENCE = 0.8;
const EXAMPLES = 5;

export interface PairIn {
  id: number;
  source: string;
  target: string;
}
export interface RatioBounds {
  method: 'stats' | 'fixed';
  /** Bounds of ln((target chars + 1) / (source chars + 1)). */
  low: number;
  high: number;
  mean: number;
  sd: number;
}
export interface CleaningSummary {
  total: number;
  flagged: number;
  rules: Record<CleaningRule, { count: number; examples: Array<{ id: number; source: string; target: string }> }>;
  ratio: RatioBounds | null;
}

type Detect = (text: string) => Promise<{ language: string; confidence: number }>;

const chars = (s: string) => [...s].length;
const logRatio = (p: PairIn) => Math.log((chars(p.target.trim()) + 1) / (chars(p.source.trim()) + 1));
const primary = (code: string) => platformLanguage(code).split('-')[0]!;

/** The length-ratio bounds: mean ± 3 standard deviations of the log-ratio, or the fixed bound for small corpora. */
export function ratioBounds(ratios: number[]): RatioBounds | null {
  if (!ratios.length) return null;
  const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length;
  const sd = Math.sqrt(ratios.reduce((a, b) => a + (b - mean) ** 2, 0) / ratios.length);
  if (ratios.length < SMALL_CORPUS) {
    const sorted = [...ratios].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
    return { method: 'fixed', low: median - FIXED_LOG_BOUND, high: median + FIXED_LOG_BOUND, mean, sd };
  }
  // A corpus of near-identical ratios would otherwise flag every small wobble.
  const spread = Math.max(sd, 0.05);
  return { method: 'stats', low: mean - 3 * spread, high: mean + 3 * spread, mean, sd };
}

/**
 * Which rules each pair breaks. `detect` is the platform's language detector; `progress` is told how
 * many pairs have been looked at.
 */
export async function findProblems(
  pairs: PairIn[],
  langs: { source: string; target: string },
  detect: Detect,
  progress: (done: number) => Promise<void> = async () => {},
  signal?: AbortSignal,
): Promise<{ flags: Map<number, CleaningRule[]>; summary: CleaningSummary }> {
  const flags = new Map<number, CleaningRule[]>();
  const flag = (id: number, rule: CleaningRule) => {
    const list = flags.get(id) ?? [];
    if (!list.includes(rule)) list.push(rule);
    flags.set(id, list);
  };
  const seen = new Set<string>();
  const full: PairIn[] = [];
  for (const p of pairs) {
    const s = p.source.trim();
    const t = p.target.trim();
    const key = `${s}\u0000${t}`;
    // The first of a group of duplicates stays; the others are flagged.
    if (seen.has(key)) flag(p.id, 'duplicate');
    else seen.add(key);
    if (!s || !t) flag(p.id, 'empty');
    else {
      full.push(p);
      if (s === t) flag(p.id, 'sameText');
    }
  }
  const ratio = ratioBounds(full.map(logRatio));
  if (ratio) {
    for (const p of full) {
      const r = logRatio(p);
      if (r < ratio.low || r > ratio.high) flag(p.id, 'lengthRatio');
    }
  }
  const want = { source: primary(langs.source), target: primary(langs.target) };
  let done = 0;
  for (const p of pairs) {
    signal?.throwIfAborted();
    for (const side of ['source', 'target'] as const) {
      const text = p[side].trim();
      if (chars(text) < DETECT_MIN_CHARS) continue;
      const found = await detect(text);
      if (found.language !== 'unknown' && found.confidence >= DETECT_MIN_CONFIDENCE && primary(found.language) !== want[side]) {
        flag(p.id, 'wrongLanguage');
        break;
      }
    }
    if (++done % 200 === 0) await progress(done);
  }
  await progress(pairs.length);
  const rules = Object.fromEntries(CLEANING_RULES.map((r) => [r, { count: 0, examples: [] as CleaningSummary['rules'][CleaningRule]['examples'] }])) as CleaningSummary['rules'];
  for (const p of pairs) {
    for (const rule of flags.get(p.id) ?? []) {
      rules[rule].count++;
      if (rules[rule].examples.length < EXAMPLES) rules[rule].examples.push({ id: p.id, source: p.source, target: p.target });
    }
  }
  return { flags, summary: { total: pairs.length, flagged: flags.size, rules, ratio } };
}

const example = z.object({ id: z.number().int(), source: z.string(), target: z.string() });
const cleaningSummarySchema = z.object({
  total: z.number().int(),
  flagged: z.number().int(),
  rules: z.object(Object.fromEntries(CLEANING_RULES.map((r) => [r, z.object({ count: z.number().int(), examples: z.array(example) })])) as Record<CleaningRule, z.ZodObject<{ count: z.ZodNumber; examples: z.ZodArray<typeof example> }>>),
  ratio: z.object({ method: z.enum(['stats', 'fixed']), low: z.number(), high: z.number(), mean: z.number(), sd: z.number() }).nullable().describe('Bounds of ln((target chars + 1) / (source chars + 1)); null for an empty corpus'),
});
/** A cleaning report as the routes answer it. */
const reportSchema = z.object({
  id: z.number().int(),
  corpusId: z.number().int(),
  taskId: z.string().nullable(),
  status: z.enum(['running', 'ready', 'applied', 'discarded', 'failed']),
  summary: z.union([cleaningSummarySchema, z.object({}).strict()]).nullable().describe('null while running, empty when the cleaning failed'),
  flagged: z.number().int().min(0).describe('Pairs flagged'),
  error: z.string().nullable(),
  createdAt: timestampSchema,
  finishedAt: timestampSchema.nullable(),
});

const reportView = (r: { id: number; corpus_id: number; task_id: string | null; status: string; summary: unknown; flagged: number[]; error: string | null; created_at: Date; finished_at: Date | null }) => ({
  id: r.id,
  corpusId: r.corpus_id,
  taskId: r.task_id,
  status: r.status,
  summary: r.status === 'running' ? null : r.summary,
  flagged: r.flagged?.length ?? 0,
  error: r.error,
  createdAt: iso(r.created_at),
  finishedAt: iso(r.finished_at),
});

export async function cleaningRoutes(ctx: ServerPluginContext, db: Kysely<CorpusDatabase>, access: CorpusAccess) {
  const task: TaskHandle<{ reportId: number }, { flagged: number }> = await ctx.tasks.define({
    name: 'clean',
    input: z.object({ reportId: z.number().int().positive() }),
    async run({ input, progress, signal }) {
      const report = await db.selectFrom('corpus_cleaning_reports').selectAll().where('id', '=', input.reportId).executeTakeFirst();
      if (!report || report.status !== 'running') return { flagged: 0 };
      const corpus = await db.selectFrom('corpus_corpora').selectAll().where('id', '=', report.corpus_id).executeTakeFirst();
      if (!corpus) return { flagged: 0 };
      try {
        // A run reads the whole corpus again: the report is written once, at the end, so a restart loses nothing.
        const pairs = await db.selectFrom('corpus_pairs').select(['id', 'source', 'target']).where('corpus_id', '=', corpus.id).orderBy('position').orderBy('id').execute();
        const total = pairs.length;
        await progress({ done: 0, total });
        const { flags, summary } = await findProblems(pairs, { source: corpus.source_lang, target: corpus.target_lang }, (text) => ctx.engines.detect(text), (done) => progress({ done, total }), signal);
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('corpus_pairs').set({ flags: '[]' }).where('corpus_id', '=', corpus.id).execute();
          const byFlags = new Map<string, number[]>();
          for (const [id, rules] of flags) byFlags.set(JSON.stringify(rules), [...(byFlags.get(JSON.stringify(rules)) ?? []), id]);
          for (const [json, ids] of byFlags) {
            for (let i = 0; i < ids.length; i += 1000) await trx.updateTable('corpus_pairs').set({ flags: json }).where('id', 'in', ids.slice(i, i + 1000)).execute();
          }
          await trx
            .updateTable('corpus_cleaning_reports')
            .set({ status: 'ready', summary: JSON.stringify(summary), flagged: JSON.stringify([...flags.keys()]), finished_at: new Date() })
            .where('id', '=', report.id)
            .execute();
        });
        return { flagged: flags.size };
      } catch (err) {
        if (!signal.aborted) await db.updateTable('corpus_cleaning_reports').set({ status: 'failed', error: (err as Error).message.slice(0, 500), finished_at: new Date() }).where('id', '=', report.id).execute();
        throw err;
      }
    },
  });

  ctx.route({
    method: 'POST',
    url: '/corpus/clean/start',
    access: { permission: KEYS.edit },
    summary: 'Start cleaning a corpus: a task that stores a report',
    schema: { body: z.object({ corpusId: idSchema }) },
    response: { data: reportSchema, errors: [404, 409] },
    async handler({ body, caller, headers }) {
      const corpus = await access.get(caller!, body.corpusId, headers);
      const running = await db.selectFrom('corpus_cleaning_reports').select('id').where('corpus_id', '=', corpus.id).where('status', '=', 'running').executeTakeFirst();
      if (running) throw new ApiError(Codes.CONFLICT, say(headers, '该语料正在清洗中', 'This corpus is being cleaned already'));
      const report = await db.insertInto('corpus_cleaning_reports').values({ corpus_id: corpus.id, status: 'running', created_by: caller!.userId }).returningAll().executeTakeFirstOrThrow();
      const info = await task.start({ reportId: report.id }, { ownerId: caller!.userId, title: corpus.name });
      const row = await db.updateTable('corpus_cleaning_reports').set({ task_id: info.id }).where('id', '=', report.id).returningAll().executeTakeFirstOrThrow();
      return reportView(row);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/corpus/clean/report',
    access: { permission: KEYS.view },
    summary: 'The latest cleaning report of a corpus (null when it was never cleaned)',
    schema: { query: z.object({ corpusId: idSchema }) },
    response: { data: reportSchema.nullable(), errors: [404] },
    async handler({ query, caller, headers }) {
      await access.get(caller!, query.corpusId, headers);
      const row = await db.selectFrom('corpus_cleaning_reports').selectAll().where('corpus_id', '=', query.corpusId).orderBy('id', 'desc').limit(1).executeTakeFirst();
      return row ? reportView(row) : null;
    },
  });

  const settle = (action: 'apply' | 'discard') =>
    ctx.route({
      method: 'POST',
      url: `/corpus/clean/${action}`,
      access: { permission: KEYS.edit },
      summary: action === 'apply' ? 'Apply a cleaning report: delete the pairs it flagged' : 'Discard a cleaning report: keep every pair',
      schema: { body: z.object({ reportId: idSchema }) },
      response: { data: z.object({ deleted: z.number().int().min(0) }), errors: [404, 409] },
      async handler({ body, caller, headers }) {
        const report = await db.selectFrom('corpus_cleaning_reports').selectAll().where('id', '=', body.reportId).executeTakeFirst();
        if (!report) throw new ApiError(Codes.NOT_FOUND, say(headers, `清洗报告 ${body.reportId} 不存在`, `Cleaning report ${body.reportId} not found`));
        await access.get(caller!, report.corpus_id, headers);
        if (report.status !== 'ready') throw new ApiError(Codes.CONFLICT, say(headers, '该报告已处理或尚未完成', 'This report is not ready, or was applied or discarded already'));
        let deleted = 0;
        await db.transaction().execute(async (trx) => {
          const ids = report.flagged ?? [];
          if (action === 'apply') {
            for (let i = 0; i < ids.length; i += 1000) {
              const r = await trx.deleteFrom('corpus_pairs').where('corpus_id', '=', report.corpus_id).where('id', 'in', ids.slice(i, i + 1000)).executeTakeFirst();
              deleted += Number(r.numDeletedRows);
            }
          } else {
            await trx.updateTable('corpus_pairs').set({ flags: '[]' }).where('corpus_id', '=', report.corpus_id).execute();
          }
          await trx.updateTable('corpus_cleaning_reports').set({ status: action === 'apply' ? 'applied' : 'discarded' }).where('id', '=', report.id).execute();
          await access.recount(report.corpus_id, trx);
        });
        return { deleted };
      },
    });
  settle('apply');
  settle('discard');
}
