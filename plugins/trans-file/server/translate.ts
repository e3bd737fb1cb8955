import { sql } from 'kysely';
import { z } from 'zod';
import { ApiError, Codes, type SegmentOrigin, type ServerPluginContext, type TaskHandle } from '@linguaport/sdk/server';
import { pdfConversion, nextState, sentencePieces, type SentencePiece } from '@linguaport/sdk/shared';
import { convertWithOffice } from '@linguaport/sdk/server';
import { buildResult, keys, readUnits, removeStored, uniqueResultName, withTargets } from './result.js';
import type { Store, File } from './store.js';
import { hasWords, needsHtml } from './tags.js';
import type { UnitSentence } from '../shared/schemas.js';
import type { Db } from './tables.js';

/**
 * Translating one file: a task of the kernel's task service (durable, by priority, resumed after a
 * restart). The paragraphs not yet translated are sent in batches through `translateSegments` (the
 * pipeline: memories, terms, engine routing and fail-over, usage); each finished batch is written to
 * the file's units before its checkpoint, so a restart sends only what is still untranslated. Then
 * the result (and its PDF when asked) is written and the file is complete.
 */

export const BATCH_SEGMENTS = 25;
/** A batch is cut earlier when its text gets long (an engine request must stay reasonable). */
export const BATCH_CHARACTERS = 20_000;
/**
 * Batches of one file in flight at once. A batch is one engine request (the pipeline sends 25
 * segments a request), and 8 requests in flight is what keeps an Apertium node busiest on a small
 * machine (measured: FIELD-NOTES), so the engine never waits for a checkpoint.
 */
const PARALLEL_BATCHES = 8;
/** How often a file's progress is pushed to its owner's list while it translates. */
const PROGRESS_EVERY_MS = 300;

export const translateInput = z.object({ fileId: z.number().int().positive() });

const ids = (v: unknown): number[] => (typeof v === 'string' ? JSON.parse(v) : (v as number[])) ?? [];

interface Unit {
  idx: number;
  source: string;
}

interface UnitResult {
  idx: number;
  target: string;
  origin: string;
  sentences: UnitSentence[] | null;
}

/**
 * A paragraph's origin from its sentences' (the written file marks drafts by it, see result.ts): any
 * machine sentence makes it machine output; all from memories, the lowest score; nothing translated, unchanged.
 */
export function paragraphOrigin(sentences: readonly UnitSentence[]): string {
  const engine = sentences.find((s) => s.origin.startsWith('engine:'));
  if (engine) return engine.origin;
  const scores = sentences.filter((s) => s.origin.startsWith('tm:')).map((s) => Number(s.origin.slice(3)));
  if (scores.length === sentences.length && scores.length) return `tm:${Math.min(...scores)}`;
  return sentences.find((s) => s.origin !== 'unchanged')?.origin ?? 'unchanged';
}

/**
 * Units in engine batches: at most BATCH_SEGMENTS units and BATCH_CHARACTERS characters each. Units
 * with inline markup (which travel as html) are batched apart from plain ones, so a batch is one
 * engine request of one format: an html request costs the engine more than a text one (Apertium runs
 * it through its html deformatter), and a file whose every fifth paragraph has a bold word would
 * otherwise make an html request of a few units per batch.
 */
export function batchesOf(units: Unit[], maxSegments = BATCH_SEGMENTS, maxCharacters = BATCH_CHARACTERS): Unit[][] {
  const plain = units.filter((u) => !needsHtml(u.source));
  const marked = units.filter((u) => needsHtml(u.source));
  return [...batchesOfOne(plain, maxSegments, maxCharacters), ...batchesOfOne(marked, maxSegments, maxCharacters)];
}

function batchesOfOne(units: Unit[], maxSegments: number, maxCharacters: number): Unit[][] {
  const out: Unit[][] = [];
  let current: Unit[] = [];
  let chars = 0;
  for (const u of units) {
    if (current.length && (current.length >= maxSegments || chars + u.source.length > maxCharacters)) {
      out.push(current);
      current = [];
      chars = 0;
    }
    current.push(u);
    chars += u.source.length;
  }
  if (current.length) out.push(current);
  return out;
}

/** Errors no retry would cure: the request itself was refused (a memory not allowed, text the engine rejects). */
const permanent = (err: unknown) => err instanceof ApiError && (err.code === Codes.BAD_REQUEST || err.code === Codes.FORBIDDEN || err.code === Codes.NOT_FOUND);
/** The engines were interrupted: worth another try after a pause. */
const interrupted = (err: unknown) => err instanceof ApiError && err.code === Codes.SERVICE_INTERRUPTED;

/** How long a file waits for an engine of its pair (a server starting, a node restarting) before it fails. */
export const ENGINE_WAIT_MS = 90_000;

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

export interface TranslateDeps {
  ctx: ServerPluginContext;
  db: Db;
  store: Store;
  languageName(code: string): string;
  /**
   * What memories are looked up by and engines sent: `sentence` (the default) or `paragraph`, the
   * earlier way, kept for the plugin configuration's `memoryGranularity` and the doc-reuse benchmark.
   */
  granularity?: 'sentence' | 'paragraph';
}

export async function defineTranslateTask(deps: TranslateDeps): Promise<TaskHandle<z.infer<typeof translateInput>, unknown>> {
  const { ctx, db, store } = deps;
  const retryLimit = 2;

  /**
   * Waits until an engine serves the pair: after a restart the queue starts before the engine nodes
   * are up, and a file must not fail for that. Resolves false when none came within ENGINE_WAIT_MS.
   */
  async function engineReady(source: string, target: string, signal: AbortSignal): Promise<boolean> {
    const until = Date.now() + ENGINE_WAIT_MS;
    for (let wait = 250; ; wait = Math.min(wait * 2, 5_000)) {
      const languages = await ctx.engines.languages().catch(() => []);
      if (languages.some((l) => l.code === source && l.targets.includes(target))) return true;
      if (Date.now() + wait > until) return false;
      await pause(wait, signal);
    }
  }

  /** Engine names by id for a file's pair, looked up once per file and run (an engine renamed later keeps its old name in the file). */
  const namesByFile = new Map<number, Promise<Map<number, string>>>();
  function engineNames(file: File): Promise<Map<number, string>> {
    let names = namesByFile.get(file.id);
    if (!names) {
      names = ctx.engines
        .choices({ source: file.source_lang, target: file.target_lang, ...(file.domain ? { domain: file.domain } : {}) })
        .then((list) => new Map(list.map((c) => [c.id, c.name])))
        .catch(() => new Map<number, string>());
      namesByFile.set(file.id, names);
      // Forgotten soon: the map only spares a lookup per batch.
      setTimeout(() => namesByFile.delete(file.id), 60_000).unref();
    }
    return names;
  }

  /** A batch, tried again after a pause when the engines were interrupted (a node restarting). */
  async function translateWithRetries(file: File, batch: Unit[], signal: AbortSignal) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await translateBatch(file, batch, signal);
      } catch (err) {
        if (!interrupted(err) || attempt >= 4 || signal.aborted) throw err;
        await pause(1_000 * 2 ** attempt, signal);
      }
    }
  }

  /**
   * One batch through the pipeline. Each paragraph is cut into its sentences (the SDK's
   * `sentencePieces`: the rules text translation uses, inline tags kept whole inside their sentence),
   * so a memory's sentence is found inside a longer paragraph; each sentence is looked up, translated
   * if no match, and the paragraph is put back together. Sentences with inline tags go as one request
   * (format `placeholders`: memories see the tags, the engine html), the others as another (text).
   */
  async function translateBatch(file: File, batch: Unit[], signal: AbortSignal): Promise<UnitResult[]> {
    const out: UnitResult[] = [];
    const plain: Array<{ id: string; source: string }> = [];
    const marked: Array<{ id: string; source: string }> = [];
    const plans: Array<{ idx: number; pieces: SentencePiece[] }> = [];
    for (const u of batch) {
      if (!hasWords(u.source)) {
        out.push({ idx: u.idx, target: u.source, origin: 'unchanged', sentences: null });
        continue;
      }
      const pieces: SentencePiece[] = deps.granularity === 'paragraph' ? [{ sentence: u.source }] : sentencePieces(u.source, file.source_lang);
      plans.push({ idx: u.idx, pieces });
      pieces.forEach((p, k) => {
        if ('sentence' in p && hasWords(p.sentence)) (needsHtml(p.sentence) ? marked : plain).push({ id: `${u.idx}.${k}`, source: p.sentence });
      });
    }
    const request = {
      source: file.source_lang,
      target: file.target_lang,
      domain: file.domain ?? undefined,
      callerId: file.owner_id,
      channel: 'document' as const,
      // A file stored with no memories or term bases uses the owner's defaults (the pipeline reads an empty list as none).
      resources: { memories: ids(file.memories).length ? ids(file.memories) : undefined, termBases: ids(file.term_bases).length ? ids(file.term_bases) : undefined },
      signal,
    };
    const names = await engineNames(file);
    // Stored as `engine:<name>` and `tm:<score>`, so the written file can say which engine or how good a match (see result.ts).
    const originOf = (o: SegmentOrigin) =>
      o.kind === 'engine' ? `engine:${names.get(o.engineId) ?? o.engineId}` : o.kind === 'hook' ? (o.hook === 'tm' && o.score !== undefined ? `tm:${o.score}` : (o.hook ?? 'hook')) : o.kind;
    const done = new Map<string, { target: string; origin: string; issues?: UnitSentence['issues'] }>();
    await Promise.all(
      ([['text', plain], ['placeholders', marked]] as const).map(([format, segments]) =>
        segments.length
          ? ctx.engines.translateSegments({ ...request, format, segments }).then((r) => {
              for (const s of r.segments) {
                // The hooks' findings (term warnings) stay with the sentence, to be shown where it is shown.
                const issues = s.issues.filter((i) => i.severity !== 'info').map(({ code, severity, message, params }) => ({ code, severity, message, ...(params ? { params: { ...params } } : {}) }));
                done.set(s.id, { target: s.target, origin: originOf(s.origin), ...(issues.length ? { issues } : {}) });
              }
            })
          : null,
      ),
    );
    for (const { idx, pieces } of plans) {
      let target = '';
      const sentences: UnitSentence[] = [];
      pieces.forEach((p, k) => {
        if ('raw' in p) return void (target += p.raw);
        const got = done.get(`${idx}.${k}`) ?? { target: p.sentence, origin: 'unchanged' };
        target += got.target;
        sentences.push({ source: p.sentence, ...got });
      });
      // Kept for a paragraph of several sentences, or one whose sentence has a finding to show.
      out.push({ idx, target, origin: paragraphOrigin(sentences), sentences: sentences.length > 1 || sentences.some((x) => x.issues) ? sentences : null });
    }
    return out;
  }

  /**
   * Writes a batch's translations and counts them in the file's progress, in one statement: the units
   * are durable (a restart sends only those still without a target) and the count can never drift
   * from them. Returns the file row, or undefined once the file left `translating` (terminated).
   */
  async function saveBatch(fileId: number, results: UnitResult[]): Promise<File | undefined> {
    if (!results.length) return undefined;
    // Three arrays, not a VALUES list: the units are found through the key (file, idx = any(...)), so a
    // batch costs the same in a file of 600 paragraphs as in one of 60,000 (joined with VALUES, the
    // planner, without statistics on a new file's units, walked every unit of the file per batch).
    const idx = results.map((r) => r.idx);
    const { rows } = await sql<File>`with saved as (
        update trans_file_units u set target = v.target, origin = v.origin, sentences = v.sentences::jsonb
        from unnest(${idx}::integer[], ${results.map((r) => r.target)}::text[], ${results.map((r) => r.origin)}::text[], ${results.map((r) => (r.sentences ? JSON.stringify(r.sentences) : null))}::text[]) as v(idx, target, origin, sentences)
        where u.file_id = ${fileId} and u.idx = any(${idx}::integer[]) and u.idx = v.idx and u.target is null
        returning 1)
      update trans_file_files set segments_done = segments_done + (select count(*) from saved), updated_at = now()
      where id = ${fileId} and status = 'translating'
      returning *`.execute(db);
    return rows[0];
  }

  /** Writes the result as the file's one writer (a deletion waits for it) and only then marks the file completed. */
  async function finish(file: File, signal: AbortSignal): Promise<void> {
    if (await store.exclusive(file.id, () => writeResult(file, signal))) await ctx.engines.recordUsage(file.owner_id, 'document', 0, 1);
  }

  async function writeResult(file: File, signal: AbortSignal): Promise<boolean> {
    const format = ctx.formats.byId(file.format);
    if (!format) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `${file.format} 格式已不可用`, 'en-US': `the ${file.format} format is no longer available` });
    const bytes = await ctx.storage.get(file.source_key);
    const parsed = await format.parse(bytes, { fileName: file.name, sourceLanguage: file.source_lang });
    const units = withTargets(parsed, await readUnits(db, file.id));
    const built = await buildResult({ file, format, parsed, units }, deps.languageName);
    built.name = await uniqueResultName(db, file.owner_id, file.id, built.name);
    signal.throwIfAborted();
    const resultKey = keys.result(file.id, built.name);
    const stored = await ctx.storage.put(resultKey, Buffer.from(built.bytes));
    let pdf: { key: string; size: number } | null = null;
    let pdfStatus = file.with_pdf ? nextState(pdfConversion, 'notConverted', 'convert') : null;
    if (file.with_pdf) {
      try {
        const out = await convertWithOffice(built.bytes, built.name, 'pdf', { signal });
        const saved = await ctx.storage.put(keys.pdf(file.id), out);
        pdf = { key: keys.pdf(file.id), size: saved.size };
        pdfStatus = nextState(pdfConversion, pdfStatus!, 'complete');
      } catch (err) {
        if (signal.aborted) throw err;
        ctx.logger.warn(`file ${file.id}: the PDF of its result could not be made: ${(err as Error).message}`);
        pdfStatus = nextState(pdfConversion, pdfStatus!, 'fail');
      }
    }
    const done = await store.systemMove(file.id, 'complete', {
      result_key: resultKey,
      result_name: built.name,
      result_size: stored.size,
      pdf_key: pdf?.key ?? null,
      pdf_size: pdf?.size ?? null,
      pdf_status: pdfStatus,
      segments_done: file.segments,
      finished_at: sql`now()`,
      error: null,
      // A new translation makes an earlier rendered preview stale.
      preview_status: 'notPreviewed',
    });
    if (!done) {
      // Terminated or deleted while the result was written: it is nobody's now.
      await removeStored(ctx.storage, [resultKey, pdf?.key]);
      return false;
    }
    return true;
  }

  return ctx.tasks.define({
    name: 'translate-file',
    input: translateInput,
    retryLimit,
    async run({ input, signal, checkpoint, progress, attempt }) {
      let file = await store.byId(input.fileId);
      if (!file || (file.status !== 'queued' && file.status !== 'translating')) return { skipped: file?.status ?? 'deleted' };
      if (file.status === 'queued') {
        file = await store.systemMove(file.id, 'start', { started_at: sql`coalesce(started_at, now())`, error: null });
        if (!file) return { skipped: 'moved' };
      }
      try {
        // Read a page at a time: one query for every unit of a large file held the embedded database
        // (and the main thread it runs on) for a second or more.
        const pending: Array<{ idx: number; source: string }> = [];
        for (let after = -1; ; ) {
          const page = await db.selectFrom('trans_file_units').select(['idx', 'source']).where('file_id', '=', file.id).where('target', 'is', null).where('idx', '>', after).orderBy('idx').limit(2000).execute();
          pending.push(...page);
          if (page.length < 2000) break;
          after = page[page.length - 1]!.idx;
          await new Promise((resolve) => setImmediate(resolve));
        }
        let done = file.segments - pending.length;
        const total = file.segments;
        await checkpoint({ done }, { done, total });
        const batches = batchesOf(pending);
        if (batches.length && !(await engineReady(file.source_lang, file.target_lang, signal))) {
          throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `没有引擎能将 ${file.source_lang} 翻译为 ${file.target_lang}`, 'en-US': `No engine translates ${file.source_lang} to ${file.target_lang}` });
        }
        let next = 0;
        let shown = Date.now();
        const lane = async () => {
          while (next < batches.length) {
            signal.throwIfAborted();
            const batch = batches[next++]!;
            const results = await translateWithRetries(file!, batch, signal);
            signal.throwIfAborted();
            const row = await saveBatch(file!.id, results);
            done += batch.length;
            // The units themselves are the checkpoint (a resumed run reads those still untranslated), so
            // a batch costs one write; progress reaches the task list and the file list a few times a second.
            await progress({ done, total });
            if (row && Date.now() - shown >= PROGRESS_EVERY_MS) {
              shown = Date.now();
              await store.publish(row);
            }
          }
        };
        await Promise.all(Array.from({ length: Math.min(PARALLEL_BATCHES, batches.length) }, lane));
        signal.throwIfAborted();
        await finish(file, signal);
        return { translated: total };
      } catch (err) {
        if (signal.aborted) throw err;
        const why = (err as Error).message.split('\n')[0]!.slice(0, 500);
        if (permanent(err) || attempt > retryLimit) {
          await store.systemMove(file.id, 'fail', { error: why, finished_at: sql`now()` });
          if (permanent(err)) return { failed: why };
        }
        throw err;
      }
    },
  });
}
