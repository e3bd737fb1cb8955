import { uploadedFilesSchema } from '../server/uploads.js';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { Kysely, Transaction } from 'kysely';
import { ApiError, Codes, type Caller, type ServerPluginContext, type TaskHandle, type TaskInfo, type TaskProgress } from '../server/index.js';
import { requestLocale } from '../server/helpers.js';
import { idSchema, ValidationKeys } from '../shared/checks.js';
import { task as taskMachine } from '../shared/states.js';
import { languageTag, platformLanguage } from '../shared/language-tags.js';
import { validationMessage } from '../shared/validation-messages.js';
import type { LibraryAccess } from './libraries.js';
import { commitInBatches, IMPORT_WRITE_BATCH, removeInBatches, yieldToEventLoop } from './import-writer.js';

/**
 * Imports into a library, the same for memories and term bases. Small files are read inside the call
 * and answered at once. Large TMX and TBX (over the TXT limit, up to 1 GB) go to file storage and a
 * task of the kernel's task service reads them: first the file is streamed through the area's reader
 * and every row checked (progress: bytes read of the total), the accepted rows spooled to disk; then
 * they land. Rows are written only after the reading, so a file refused part-way writes nothing. They
 * are committed in small batches with a turn of the event loop between them (`commitInBatches`): on the
 * embedded database a transaction holds the one connection, and one transaction of a whole import
 * stalled every other request. A failure or a cancel takes the import's rows out again (`discard`,
 * by its stamp), and a run after a killed server first discards what an earlier run wrote.
 */

export const IMPORT_TEXT_MAX_BYTES = 2 * 1024 * 1024;
export const IMPORT_STREAMED_MAX_BYTES = 1024 * 1024 * 1024;
export const IMPORT_MAX_FILES = 5;
export const IMPORT_BATCH = 1000;
export const IMPORT_MAX_REJECTIONS = 1000;

export type Say = (zh: string, en: string) => string;

export interface ImportRow {
  file: string;
  /** The row (or a TMX's unit, a TBX's concept) number in its file, from 1. */
  row: number;
  source: string;
  target: string;
  /** Said of the row in the import's report though it was imported (another variant of the language taken). */
  notice?: string;
}

export interface ImportRejection {
  file: string;
  row: number;
  reason: string;
}

/**
 * What an import does with a row whose source and target (normalised) a stored entry of the same language
 * pair already holds, or an earlier row of the same import: `skip` it (the default), `overwrite` the stored
 * entry's fields with the row's, or `keepBoth` (the row is added beside it).
 */
export const IMPORT_DUPLICATE_MODES = ['skip', 'overwrite', 'keepBoth'] as const;
export type ImportDuplicates = (typeof IMPORT_DUPLICATE_MODES)[number];

/** How the accepted rows landed: `added` new, and of the duplicates `skipped`, `overwritten` or `keptBoth`. */
export interface ImportDuplicateCounts {
  added: number;
  skipped: number;
  overwritten: number;
  keptBoth: number;
}

/** What an import reports: counts, and the first rejections with their file, row and reason. */
export interface ImportResult {
  /** Entries written: added, overwritten and kept beside a duplicate (skipped duplicates are not). */
  imported: number;
  rejected: number;
  rejections: ImportRejection[];
  /** Rows imported with something to say (another variant of the language taken), the first of them; absent when none. */
  notices?: ImportRejection[];
  /** How the rows landed, when some were duplicates (absent when every row was new). */
  duplicates?: ImportDuplicateCounts & { mode: ImportDuplicates };
}

/** A file to read: its name, extension, where it lies, and its bytes as a stream (counted for progress). */
export interface ImportSource {
  file: string;
  ext: string;
  path: string;
  stream(): AsyncIterable<Buffer>;
}

/** Where the rows go; `stamp` is the entries' creation time, the same on every run of one import. */
export interface ImportTarget {
  libraryId: number;
  sourceLang: string;
  targetLang: string;
  userId: number;
  stamp: Date;
}

export interface ImportFormat {
  maxBytes: number;
  /** Read as a stream: a file over the TXT limit is imported by a task. */
  streamed?: boolean;
}

export interface ResourceImportOptions<R extends ImportRow> {
  ctx: ServerPluginContext;
  db: Kysely<any>;
  access: LibraryAccess;
  /** The import route, e.g. `/TM/import`; the task's state is at `<route>/:taskId`. */
  route: string;
  permission: string;
  summary: string;
  /** The task's name within the plugin, e.g. `import-memory`. */
  task: string;
  formats: Record<string, ImportFormat>;
  /**
   * `tags`: the languages asked are kept as full BCP 47 tags, case-normalised (`en-GB`; memories keep
   * variants); `platform` (the default): folded to the platform's codes (`en`).
   */
  languages?: 'tags' | 'platform';
  /** The 400 for a file of another format. */
  unsupported(file: string, t: Say): string;
  /** The file's rows, or rejections of rows that cannot be read; throws ApiError 400 for a file that is not of its format. */
  rows(source: ImportSource, langs: { sourceLang: string; targetLang: string }, t: Say): AsyncIterable<R | ImportRejection>;
  /** Why a row cannot be an entry (as the add form would say), or null. */
  reject(row: R, t: Say): string | null;
  insert(trx: Transaction<any>, rows: R[], target: ImportTarget): Promise<void>;
  /** Deletes at most `limit` of the rows this import wrote (stamped with `target.stamp`) and says how many. */
  discard(trx: Transaction<any>, target: ImportTarget, limit: number): Promise<number>;
  changed(libraryId: number): void;
  /** How to find a row's duplicates: with it the call takes a `duplicates` option (`ImportDuplicates`). */
  duplicates?: ImportDuplicateRules<R>;
}

export interface ImportDuplicateRules<R extends ImportRow> {
  /** Equal keys are the same entry: the normalised source and target with the language pair the row lands in. */
  key(row: R, target: ImportTarget): string;
  /** The library's stored entries that may share a key with `rows` (at least all that do), each with its id and key. */
  stored(trx: Transaction<any>, rows: R[], target: ImportTarget): Promise<Array<{ id: number; key: string }>>;
  /** Replaces the stored entry's fields (texts, metadata, notes) with the row's. */
  overwrite(trx: Transaction<any>, id: number, row: R, target: ImportTarget): Promise<void>;
}

/**
 * Writes one batch as `mode` says of duplicates, counting into `counts`. Earlier batches are committed, so
 * `stored` sees them: a row repeating one of the same import is a duplicate too, whichever batch holds it.
 */
async function writeBatch<R extends ImportRow>(o: ResourceImportOptions<R>, trx: Transaction<any>, rows: R[], target: ImportTarget, mode: ImportDuplicates, counts: ImportDuplicateCounts): Promise<void> {
  const d = o.duplicates;
  if (!d) {
    counts.added += rows.length;
    return o.insert(trx, rows, target);
  }
  const stored = new Map<string, number[]>();
  for (const s of await d.stored(trx, rows, target)) stored.set(s.key, [...(stored.get(s.key) ?? []), s.id]);
  const fresh: R[] = [];
  const freshAt = new Map<string, number>();
  for (const r of rows) {
    const key = d.key(r, target);
    const ids = stored.get(key);
    const at = freshAt.get(key);
    if (!ids && at === undefined) {
      freshAt.set(key, fresh.length);
      fresh.push(r);
      counts.added++;
    } else if (mode === 'skip') counts.skipped++;
    else if (mode === 'keepBoth') {
      fresh.push(r);
      counts.keptBoth++;
    } else {
      counts.overwritten++;
      // A row repeating one of this batch replaces it before it is written.
      if (at !== undefined) fresh[at] = r;
      else for (const id of ids!) await d.overwrite(trx, id, r, target);
    }
  }
  if (fresh.length) await o.insert(trx, fresh, target);
}

const emptyCounts = (): ImportDuplicateCounts => ({ added: 0, skipped: 0, overwritten: 0, keptBoth: 0 });

/** The report of an import whose accepted rows landed as `counts` say. */
function resultOf(read: { rejected: number; rejections: ImportRejection[]; notices: ImportRejection[] }, counts: ImportDuplicateCounts, mode: ImportDuplicates): ImportResult {
  const duplicated = counts.skipped + counts.overwritten + counts.keptBoth > 0;
  return {
    imported: counts.added + counts.overwritten + counts.keptBoth,
    rejected: read.rejected,
    rejections: read.rejections,
    ...(read.notices.length ? { notices: read.notices } : {}),
    ...(duplicated ? { duplicates: { mode, ...counts } } : {}),
  };
}


const taskInput = z.object({
  libraryId: z.number().int().positive(),
  sourceLang: z.string(),
  targetLang: z.string(),
  locale: z.enum(['zh-CN', 'en-US']),
  stamp: z.string(),
  duplicates: z.enum(IMPORT_DUPLICATE_MODES).default('skip'),
  caller: z.object({ userId: z.number().int(), departmentId: z.number().int().nullable(), isSuperAdmin: z.boolean() }),
  folder: z.string(),
  files: z.array(z.object({ name: z.string(), ext: z.string(), key: z.string(), size: z.number() })),
});
type TaskInput = z.infer<typeof taskInput>;

/** What `GET <route>/:taskId` answers. */
export interface ImportTaskView {
  id: string;
  title: string | null;
  state: TaskInfo['state'];
  progress: TaskInfo['progress'];
  result: ImportResult | null;
  error: string | null;
}

const importResultSchema = z.object({
  imported: z.number().int().min(0),
  rejected: z.number().int().min(0),
  rejections: z.array(z.object({ file: z.string(), row: z.number().int(), reason: z.string() })).describe('The first rejected rows'),
  notices: z.array(z.object({ file: z.string(), row: z.number().int(), reason: z.string() })).optional().describe('The first imported rows with something to say (another variant of the language taken)'),
  duplicates: z
    .object({ mode: z.enum(IMPORT_DUPLICATE_MODES), added: z.number().int().min(0), skipped: z.number().int().min(0), overwritten: z.number().int().min(0), keptBoth: z.number().int().min(0) })
    .optional()
    .describe('How the rows landed when some were already in the library: added, skipped as duplicates, overwritten, kept both'),
});
/** An import run as a task (`ImportTaskView`). */
const importTaskSchema = z.object({
  id: z.string(),
  title: z.string().nullable(),
  state: z.enum(taskMachine.states),
  progress: z.object({ done: z.number(), total: z.number(), message: z.string().optional() }),
  result: importResultSchema.nullable(),
  error: z.string().nullable(),
});

const extOf = (name: string) => name.toLowerCase().split('.').pop() ?? '';
const sayIn = (locale: 'zh-CN' | 'en-US'): Say => (zh, en) => (locale === 'en-US' ? en : zh);

/** Reads the files, checks each row, and hands the accepted ones to `accept`; returns the rejections. */
async function readAll<R extends ImportRow>(
  o: ResourceImportOptions<R>,
  sources: ImportSource[],
  langs: { sourceLang: string; targetLang: string },
  t: Say,
  accept: (row: R) => Promise<void> | void,
  seen?: (units: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<{ accepted: number; rejected: number; rejections: ImportRejection[]; notices: ImportRejection[] }> {
  let accepted = 0;
  let rejected = 0;
  let units = 0;
  const rejections: ImportRejection[] = [];
  const notices: ImportRejection[] = [];
  const refuse = (r: ImportRejection) => {
    rejected++;
    if (rejections.length < IMPORT_MAX_REJECTIONS) rejections.push({ file: r.file, row: r.row, reason: r.reason });
  };
  for (const source of sources) {
    for await (const r of o.rows(source, langs, t)) {
      if (signal?.aborted) throw signal.reason;
      units++;
      if ('reason' in r) refuse(r);
      else {
        const reason = o.reject(r, t);
        if (reason) refuse({ file: r.file, row: r.row, reason });
        else {
          accepted++;
          if (r.notice && notices.length < IMPORT_MAX_REJECTIONS) notices.push({ file: r.file, row: r.row, reason: r.notice });
          await accept(r);
        }
      }
      if (units % IMPORT_BATCH === 0) {
        if (seen) await seen(units);
        // A reader that yields many rows from memory (a spreadsheet, a TXT) would otherwise hold the event loop.
        await yieldToEventLoop();
      }
    }
  }
  if (seen) await seen(units);
  return { accepted, rejected, rejections, notices };
}

/**
 * Registers `POST <route>` (files in, rows checked, entries in one transaction) and `GET <route>/:taskId`
 * (a background import's state, progress and result; its owner alone, others get 404), and defines the
 * import task. Returns the task handle once defined.
 */
export function defineResourceImport<R extends ImportRow>(o: ResourceImportOptions<R>): Promise<TaskHandle<TaskInput, ImportResult>> {
  const { ctx, db, access } = o;

  const handle = ctx.tasks.define<TaskInput, ImportResult>({
    name: o.task,
    input: taskInput,
    // A damaged file fails the same way twice; a killed server's task is run again by the service itself.
    retryLimit: 0,
    async run({ input, signal, progress, checkpoint, taskId, resumeFrom }) {
      // Killed after the commit and its checkpoint: the import is in, only its end was not recorded.
      const done = (resumeFrom as { result?: ImportResult } | null)?.result;
      if (done) return done;
      try {
        return await importInTask(input, signal, progress, checkpoint, taskId);
      } catch (err) {
        // A cancelled or failed import is over: its files go. One stopped with the server is run again.
        const reason = signal.aborted ? String((signal.reason as Error | undefined)?.message ?? '') : 'failed';
        if (!signal.aborted || reason.includes('cancel')) await rm(ctx.storage.path(input.folder), { recursive: true, force: true }).catch(() => undefined);
        throw err;
      }
    },
  });
  handle.catch((err: Error) => ctx.logger.error(`the ${o.task} task could not be defined: ${err.message}`));

  async function importInTask(input: TaskInput, signal: AbortSignal, progress: (p: TaskProgress) => Promise<void>, checkpoint: (state: unknown) => Promise<void>, taskId: string): Promise<ImportResult> {
    const t = sayIn(input.locale);
    const headers = { cookie: `locale=${input.locale}` };
    // The rights may have changed while the task waited.
    const caller: Caller = { ...input.caller, username: '', permissions: new Set(), via: 'session' };
    await access.assert(caller, input.libraryId, 'edit', headers);
    const langs = { sourceLang: input.sourceLang, targetLang: input.targetLang };
    const target: ImportTarget = { libraryId: input.libraryId, ...langs, userId: input.caller.userId, stamp: new Date(input.stamp) };
    const total = input.files.reduce((n, f) => n + f.size, 0);
    let read = 0;
    const sources: ImportSource[] = input.files.map((f) => ({
      file: f.name,
      ext: f.ext,
      path: ctx.storage.path(f.key),
      async *stream() {
        for await (const chunk of createReadStream(ctx.storage.path(f.key), { highWaterMark: 1024 * 1024 })) {
          read += (chunk as Buffer).length;
          yield chunk as Buffer;
        }
      },
    }));
    // Every run starts over from the stored files: the spool of an earlier run is replaced.
    const spool = ctx.storage.path(`${input.folder}/accepted-${taskId}.ndjson`);
    await mkdir(dirname(spool), { recursive: true });
    const out = createWriteStream(spool);
    const units = (n: number) => t(`已读取 ${n} 个单元`, `${n} units read`);
    let counts;
    try {
      counts = await readAll(
        o,
        sources,
        langs,
        t,
        async (row) => {
          if (!out.write(`${JSON.stringify(row)}\n`)) await once(out, 'drain');
        },
        (n) => progress({ done: Math.min(read, total), total, message: units(n) }),
        signal,
      );
    } finally {
      out.end();
      await once(out, 'close');
    }
    if (signal.aborted) throw signal.reason;
    await progress({ done: total, total, message: t(`正在写入 ${counts.accepted} 个条目`, `writing ${counts.accepted} entries`) });

    const writing = (n: number) => t(`已写入 ${n} / ${counts.accepted} 个条目`, `${n} of ${counts.accepted} entries written`);
    const landed = emptyCounts();
    // A run after a killed server starts over: what an earlier run committed goes first.
    await removeInBatches(db, (trx, limit) => o.discard(trx, target, limit));
    try {
      await commitInBatches(
        db,
        (async function* () {
          for await (const line of createInterface({ input: createReadStream(spool), crlfDelay: Infinity })) if (line) yield JSON.parse(line) as R;
        })(),
        (trx, batch) => writeBatch(o, trx, batch, target, input.duplicates, landed),
        { signal, after: (n) => (n % (IMPORT_WRITE_BATCH * 10) === 0 ? progress({ done: total, total, message: writing(n) }) : undefined) },
      );
    } catch (err) {
      // A failed or cancelled import leaves nothing; one stopped with the server discards at its next run.
      if (!signal.aborted || String((signal.reason as Error | undefined)?.message ?? '').includes('cancel')) await removeInBatches(db, (trx, limit) => o.discard(trx, target, limit)).catch(() => undefined);
      throw err;
    }
    const result = resultOf(counts, landed, input.duplicates);
    // Killed between the last commit and this checkpoint, a run reads the file again, discards and writes again.
    await checkpoint({ result });
    await rm(ctx.storage.path(input.folder), { recursive: true, force: true });
    if (result.imported) o.changed(input.libraryId);
    return result;
  }

  ctx.route({
    method: 'POST',
    url: o.route,
    access: { permission: o.permission },
    summary: o.summary,
    upload: { maxBytes: IMPORT_STREAMED_MAX_BYTES },
    schema: {
      body: z.object({
        libraryId: idSchema,
        sourceLang: z.string().trim().min(2, 'validation.required').max(20),
        targetLang: z.string().trim().min(2, 'validation.required').max(20),
        /** `true`: import through a task whatever the size. */
        background: z.enum(['true', 'false']).optional(),
        /** What to do with a row the library already holds (same normalised source and target): `skip` (the default), `overwrite`, `keepBoth`. */
        duplicates: z.enum(IMPORT_DUPLICATE_MODES).optional(),
        files: uploadedFilesSchema,
      }),
    },
    response: {
      data: z.union([importResultSchema, z.object({ taskId: z.string(), task: importTaskSchema })]).describe('The counts when imported at once; the task when imported in the background'),
      errors: [404, 413],
    },
    async handler({ body, caller, headers }) {
      const locale = requestLocale(headers);
      const t = sayIn(locale);
      await access.assert(caller!, body.libraryId, 'edit', headers);
      let sourceLang = platformLanguage(body.sourceLang);
      let targetLang = platformLanguage(body.targetLang);
      if (o.languages === 'tags') {
        const s = languageTag(body.sourceLang);
        const g = languageTag(body.targetLang);
        if (!s || !g) throw new ApiError(Codes.BAD_REQUEST, `${!s ? 'sourceLang' : 'targetLang'}: ${validationMessage(ValidationKeys.languageTag, locale)}`);
        sourceLang = s;
        targetLang = g;
      }
      if (sourceLang === targetLang) throw new ApiError(Codes.BAD_REQUEST, t('源语言和目标语言不能相同', 'The source and target languages must differ'));
      if (body.files.length > IMPORT_MAX_FILES) throw new ApiError(Codes.BAD_REQUEST, t(`一次最多导入 ${IMPORT_MAX_FILES} 个文件`, `At most ${IMPORT_MAX_FILES} files at a time`));
      let large = false;
      for (const f of body.files) {
        const format = o.formats[extOf(f.filename)];
        if (!format) throw new ApiError(Codes.BAD_REQUEST, o.unsupported(f.filename, t));
        if (f.size === 0) throw new ApiError(Codes.BAD_REQUEST, t(`${f.filename}：不能上传空文件`, `${f.filename}: cannot upload an empty file`));
        const mb = Math.round(format.maxBytes / 1024 / 1024);
        if (f.size > format.maxBytes) throw new ApiError(Codes.BAD_REQUEST, t(`${f.filename}：文件超过 ${mb} MB`, `${f.filename}: the file is over ${mb} MB`));
        if (format.streamed && f.size > IMPORT_TEXT_MAX_BYTES) large = true;
      }

      if (large || body.background === 'true') {
        const tasks = await handle;
        const folder = `imports/${randomUUID()}`;
        const files: TaskInput['files'] = [];
        for (const [i, f] of body.files.entries()) {
          const ext = extOf(f.filename);
          const key = `${folder}/${i}.${ext}`;
          // Streamed from the call's temporary file: a large file is never held in memory.
          await ctx.storage.put(key, createReadStream(f.path));
          files.push({ name: f.filename, ext, key, size: f.size });
        }
        const c = caller!;
        const task = await tasks.start(
          { libraryId: body.libraryId, sourceLang, targetLang, locale, stamp: new Date().toISOString(), duplicates: body.duplicates ?? 'skip', caller: { userId: c.userId, departmentId: c.departmentId, isSuperAdmin: c.isSuperAdmin }, folder, files },
          { ownerId: c.userId, title: body.files.map((f) => f.filename).join(', ') },
        );
        return { taskId: task.id, task: view(task) };
      }

      const sources: ImportSource[] = body.files.map((f) => ({ file: f.filename, ext: extOf(f.filename), path: f.path, stream: () => createReadStream(f.path) as AsyncIterable<Buffer> }));
      const accepted: R[] = [];
      const counts = await readAll(o, sources, { sourceLang, targetLang }, t, (r) => void accepted.push(r));
      const target: ImportTarget = { libraryId: body.libraryId, sourceLang, targetLang, userId: caller!.userId, stamp: new Date() };
      const mode = body.duplicates ?? 'skip';
      const landed = emptyCounts();
      try {
        await commitInBatches(db, accepted, (trx, batch) => writeBatch(o, trx, batch, target, mode, landed));
      } catch (err) {
        await removeInBatches(db, (trx, limit) => o.discard(trx, target, limit)).catch(() => undefined);
        throw err;
      }
      const result = resultOf(counts, landed, mode);
      if (result.imported) o.changed(body.libraryId);
      return result;
    },
  });

  ctx.route({
    method: 'GET',
    url: `${o.route}/:taskId`,
    access: { permission: o.permission },
    summary: 'State, progress and result of an import',
    schema: { params: z.object({ taskId: z.string().uuid() }) },
    response: { data: importTaskSchema, errors: [404] },
    async handler({ params, caller, headers }) {
      const task = await (await handle).get(params.taskId);
      if (!task || task.ownerId !== caller!.userId) throw new ApiError(Codes.NOT_FOUND, sayIn(requestLocale(headers))('导入任务不存在', 'The import does not exist'));
      return view(task);
    },
  });

  return handle;
}

function view(task: TaskInfo<ImportResult>): ImportTaskView {
  return { id: task.id, title: task.title, state: task.state, progress: task.progress, result: task.output, error: task.error };
}
