import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { sql } from 'kysely';
import { ApiError, Codes, like, limitConcurrency, type Caller, type LocalizedText, type ServerPluginContext, type TaskHandle } from '@linguaport/sdk/server';
import { APPROVED_STAGES, canTake, documentFile, USABLE_STAGES, type Actor, type FileFormat, type TranslationUnit } from '@linguaport/sdk/shared';
import type { ExistingTargets, FileListQuery, FileRow, TranslateOptions } from '../shared/schemas.js';
import { badRequest, messages, notFound, stateRefusal } from './messages.js';
import { keys, removeStored } from './result.js';
import type { AreaSettings } from './settings.js';
import { MANAGE, presentFile, type File, type Store } from './store.js';
import { visibleCharacters } from './tags.js';
import type { Db } from './tables.js';
import type { Quotas } from './quota.js';

/**
 * The document area's operations on files, whoever calls them (the console's routes, the
 * LibreTranslate-compatible API, archives): accept uploads (every check before anything is stored),
 * parse them into units, queue them by their owner's priority, terminate, retry, delete, list.
 */

/** A file of a multipart body as the kernel hands it over (the temporary file is removed after the call). */
export interface Upload {
  filename: string;
  size: number;
  path: string;
  data: Buffer;
}

/** What the caller may hand in instead of a temporary file (an archive's entry). */
export interface IncomingFile {
  name: string;
  size: number;
  bytes: () => Buffer;
  /** Reads the bytes off the main thread; `bytes()` then answers from them (an upload of megabytes read with readFileSync held every other request). */
  load?: () => Promise<Buffer>;
  /** Streams the bytes into storage without holding them twice. */
  path?: string;
}

export interface AcceptOptions {
  via?: 'console' | 'api' | 'archive';
  jobId?: number | null;
}

interface Refusal {
  name: string;
  reason: 'empty' | 'tooLarge' | 'notSupported' | 'malformed';
  message: LocalizedText;
}

const joined = (list: LocalizedText[]): LocalizedText => ({ 'zh-CN': list.map((m) => m['zh-CN']).join('；'), 'en-US': list.map((m) => m['en-US']).join('; ') });

export interface FileServiceDeps {
  ctx: ServerPluginContext;
  db: Db;
  store: Store;
  settings: AreaSettings;
  quotas: Quotas;
  task: () => TaskHandle<{ fileId: number }, unknown>;
}

/** Units stored a statement: one such insert is what another request may wait behind. */
const UNIT_BATCH = 500;

export function createFileService(deps: FileServiceDeps) {
  const { ctx, db, store, settings, quotas } = deps;

  const supported = () =>
    ctx.formats
      .list()
      .flatMap((f) => f.extensions)
      .sort()
      .join(', ');

  /** The format of a file by its name and, above all, its content; refused when neither fits. */
  function formatOf(name: string, bytes: Uint8Array): FileFormat | null {
    return ctx.formats.forFile(name, bytes);
  }

  /** Every check of an upload, before a byte is stored: count, languages, emptiness, size, content, quota, queue. */
  async function check(caller: Caller, files: IncomingFile[], options: TranslateOptions): Promise<FileFormat[]> {
    const limits = await settings.get();
    if (files.length === 0) throw badRequest(messages.noFiles);
    if (files.length > limits.maxFiles) throw badRequest(messages.tooMany(limits.maxFiles));
    if (options.sourceLang === options.targetLang) throw badRequest(messages.sameLanguages);
    const refused: Refusal[] = [];
    const formats: FileFormat[] = [];
    for (const f of files) {
      if (f.size === 0) refused.push({ name: f.name, reason: 'empty', message: messages.empty(f.name) });
      else if (f.size > limits.maxFileMb * 1024 * 1024) refused.push({ name: f.name, reason: 'tooLarge', message: messages.tooLarge(f.name, limits.maxFileMb) });
      else {
        await f.load?.();
        const format = formatOf(f.name, f.bytes());
        const malformed = format ? await malformedReason(format, f.bytes()) : null;
        if (!format) refused.push({ name: f.name, reason: 'notSupported', message: messages.notSupported(f.name, supported()) });
        else if (malformed) refused.push({ name: f.name, reason: 'malformed', message: messages.malformed(f.name, malformed) });
        else formats.push(format);
      }
    }
    if (refused.length) throw badRequest(joined(refused.map((r) => r.message)), { refused: refused.map((r) => ({ name: r.name, reason: r.reason })) });
    await assertResources(caller, options);
    await quotas.assertRoom(caller.userId, files.reduce((n, f) => n + f.size, 0));
    await assertQueueRoom(files.length);
    return formats;
  }

  /** Why a file is not well-formed for its format (the format's own reason and position), or null; formats without `validate` pass. */
  async function malformedReason(format: FileFormat, bytes: Uint8Array): Promise<string | null> {
    if (!format.validate) return null;
    try {
      await format.validate(bytes);
      return null;
    } catch (err) {
      return (err as Error).message.split('\n')[0]!.slice(0, 300);
    }
  }

  /** Memories and term bases the caller may not use are refused at upload (403/404), not when the translation runs. */
  async function assertResources(caller: Caller, options: Pick<TranslateOptions, 'memories' | 'termBases'>): Promise<void> {
    await ctx.pipeline.checkResources(caller.userId, { memories: options.memories, termBases: options.termBases });
  }

  async function assertQueueRoom(adding: number): Promise<void> {
    const { queueLength } = await settings.get();
    const row = await db.selectFrom('trans_file_files').select((eb) => eb.fn.countAll().as('n')).where('status', 'in', ['queued', 'translating']).executeTakeFirstOrThrow();
    if (Number(row.n) + adding > queueLength) throw new ApiError(Codes.QUEUE_FULL, messages.queueFull(queueLength));
  }

  /** The owner's file-translation priority level (set by the user administration): higher is served first. */
  async function priorityOf(userId: number): Promise<number> {
    return (await ctx.users.priority(userId)) ?? 0;
  }

  /** Reads the file into units: the file is then ready to translate (or marked as failed to parse). */
  function parse(file: File, format: FileFormat, bytes: Buffer, existing: ExistingTargets = 'keepUsable'): Promise<File | undefined> {
    return oneAtATime(() => parseNow(file, format, bytes, existing));
  }

  // Uploads are parsed and their units stored one at a time, a batch then a turn of the event loop:
  // twenty 5 MB texts at once queued their inserts ahead of every other query of the embedded database.
  const oneAtATime = limitConcurrency(1);

  async function parseNow(file: File, format: FileFormat, bytes: Buffer, existing: ExistingTargets): Promise<File | undefined> {
    let units;
    try {
      units = (await format.parse(bytes, { fileName: file.name, sourceLanguage: file.source_lang })).units;
    } catch (err) {
      const why = (err as Error).message.split('\n')[0]!.slice(0, 300);
      return store.systemMove(file.id, 'parseFail', { error: messages.splitFailed(file.name, why)['en-US'] });
    }
    let characters = 0;
    let kept = 0;
    for (let i = 0; i < units.length; i += UNIT_BATCH) {
      if (i) await new Promise((resolve) => setImmediate(resolve));
      const chunk = units.slice(i, i + UNIT_BATCH);
      await db
        .insertInto('trans_file_units')
        .values(
          chunk.map((u, k) => {
            // A target the file already holds and the upload keeps is done: stored with origin `file`, never sent to an engine.
            const keep = keeps(u, existing);
            if (keep) kept++;
            return { file_id: file.id, idx: i + k, unit_id: u.id, source: u.source, target: keep ? u.target! : null, origin: keep ? 'file' : null, part: u.context.part ?? u.context.style ?? null, style: u.context.style ?? null, meta: u.context.meta ? JSON.stringify(u.context.meta) : null };
          }),
        )
        .execute();
      for (const u of chunk) characters += visibleCharacters(u.source);
    }
    return store.systemMove(file.id, 'parsed', { segments: units.length, characters, segments_done: kept, ocr: units.some((u) => u.context.style === 'ocr') });
  }

  /** Queues the file's translation as a task at its owner's priority. */
  async function queue(file: File, actor: Actor): Promise<File> {
    const queued = await store.move(file, 'submit', actor, { error: null, finished_at: null, started_at: null });
    const info = await deps.task().start({ fileId: file.id }, { ownerId: file.owner_id, title: file.name, priority: await priorityOf(file.owner_id) });
    return (await store.update(file.id, ['queued', 'translating', 'completed', 'failed'], { task_id: info.id })) ?? queued;
  }

  async function accept(caller: Caller, files: IncomingFile[], options: TranslateOptions, opts: AcceptOptions = {}): Promise<FileRow[]> {
    const formats = await check(caller, files, options);
    const out: FileRow[] = [];
    for (const [i, f] of files.entries()) {
      const format = formats[i]!;
      let file = await db
        .insertInto('trans_file_files')
        .values({
          owner_id: caller.userId,
          job_id: opts.jobId ?? null,
          name: f.name,
          size: f.size,
          format: format.id,
          source_key: '',
          source_lang: options.sourceLang,
          target_lang: options.targetLang,
          domain: options.domain,
          term_bases: JSON.stringify(options.termBases),
          memories: JSON.stringify(options.memories),
          result_type: options.resultType,
          with_pdf: options.withPdf,
          status: documentFile.initial,
          preview_status: 'notPreviewed',
          pdf_status: options.withPdf ? 'notConverted' : null,
          via: opts.via ?? 'console',
          result_key: null,
          result_name: null,
          result_size: null,
          pdf_key: null,
          pdf_size: null,
          task_id: null,
          error: null,
          started_at: null,
          finished_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const key = keys.source(file.id, f.name);
      try {
        await ctx.storage.put(key, f.path ? createReadStream(f.path) : f.bytes());
      } catch (err) {
        await store.systemMove(file.id, 'interrupt', { error: (err as Error).message.slice(0, 300) });
        throw new ApiError(Codes.INTERNAL, messages.serviceException);
      }
      file = (await store.systemMove(file.id, 'uploaded', { source_key: key }))!;
      const parsed = await parse(file, format, f.bytes(), options.existingTargets);
      if (parsed && parsed.status === 'notTranslated') file = await queue(parsed, 'owner');
      else if (parsed) file = parsed;
      out.push(presentFile(file, caller.username));
    }
    return out;
  }

  async function terminate(caller: Caller, id: number): Promise<FileRow> {
    const { file, actor } = await store.forCaller(caller, id, ctx.auth);
    const moved = await store.move(file, 'terminate', actor);
    if (file.task_id) await deps.task().cancel(file.task_id);
    return presentFile((await store.byId(id)) ?? moved);
  }

  async function retry(caller: Caller, id: number): Promise<FileRow> {
    const { file, actor } = await store.forCaller(caller, id, ctx.auth);
    if (!canTake(documentFile, file.status, 'submit', actor)) throw stateRefusal('submit', file.status);
    await assertQueueRoom(1);
    if (file.status === 'completed') {
      // A completed file is translated again from the start (memories or engines may have changed),
      // as the file's one writer: an edit under way finishes first, one waiting finds the file queued.
      await store.exclusive(id, async () => {
        const now = await store.byId(id);
        if (now?.status !== 'completed') return;
        // Targets kept from the file stay kept; everything translated here is translated again.
        await db.updateTable('trans_file_units').set({ target: null, origin: null, edited: false, sentences: null }).where('file_id', '=', id).where((eb) => eb.or([eb('origin', 'is', null), eb('origin', '!=', 'file')])).execute();
        await removeStored(ctx.storage, [now.result_key, now.pdf_key]);
        await store.update(id, ['completed'], { segments_done: 0, result_key: null, result_name: null, result_size: null, pdf_key: null, pdf_size: null, pdf_status: now.with_pdf ? 'notConverted' : null, preview_status: 'notPreviewed' });
      });
    }
    const now = await store.byId(id);
    if (!now) throw notFound(id);
    return presentFile(await queue(now, actor));
  }

  async function remove(caller: Caller, ids: number[]): Promise<{ deleted: number }> {
    const found: File[] = [];
    for (const id of ids) found.push((await store.forCaller(caller, id, ctx.auth)).file);
    for (const file of found) {
      if (file.task_id && (file.status === 'queued' || file.status === 'translating')) await deps.task().cancel(file.task_id);
      // As the file's writer, so no edit under way writes its result back into the removed folder.
      const gone = await store.exclusive(file.id, async () => {
        const row = await db.deleteFrom('trans_file_files').where('id', '=', file.id).returningAll().executeTakeFirst();
        // Every part of the file lives under its own folder: uploads, results, PDFs, preview pages.
        if (row) await rm(ctx.storage.path(`files/${file.id}`), { recursive: true, force: true });
        return row;
      });
      if (gone) await store.publish(gone, { deleted: true });
    }
    return { deleted: found.length };
  }

  async function list(caller: Caller, query: FileListQuery): Promise<{ records: FileRow[]; total: number; pageNum: number; pageSize: number }> {
    const everyone = query.all || query.ownerId !== undefined;
    if (everyone && !ctx.auth.can(caller, MANAGE)) throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': '权限不足：查看所有用户的文件需要 transFile:manage', 'en-US': 'Insufficient permission: every user\'s files need transFile:manage' });
    let q = db.selectFrom('trans_file_files as f');
    if (!everyone) q = q.where('f.owner_id', '=', caller.userId);
    if (query.ownerId !== undefined) q = q.where('f.owner_id', '=', query.ownerId);
    if (query.name) q = q.where('f.name', 'ilike', like(query.name));
    if (query.status) q = q.where('f.status', '=', query.status);
    if (query.sourceLang) q = q.where('f.source_lang', '=', query.sourceLang);
    if (query.targetLang) q = q.where('f.target_lang', '=', query.targetLang);
    if (query.jobId !== undefined) q = q.where('f.job_id', '=', query.jobId);
    const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const rows = await q
      .selectAll('f')
      .orderBy('f.id', 'desc')
      .limit(query.pageSize)
      .offset((query.pageNum - 1) * query.pageSize)
      .execute();
    const owners = await ctx.users.names(rows.map((r) => r.owner_id));
    return { records: rows.map((r) => presentFile(r as File, owners.get(r.owner_id)?.username ?? null)), total: Number(total.n), pageNum: query.pageNum, pageSize: query.pageSize };
  }

  async function get(caller: Caller, id: number): Promise<FileRow> {
    const { file } = await store.forCaller(caller, id, ctx.auth);
    return presentFile(file);
  }

  /**
   * Files the platform lost track of: parsing when its server died, or queued or translating with
   * no task to run them (the task failed or was cancelled outside this area). Marked, never left spinning.
   */
  async function reconcile(): Promise<number> {
    let marked = 0;
    const stuck = await db
      .selectFrom('trans_file_files')
      .selectAll()
      .where((eb) => eb.or([eb('status', '=', 'parsing'), eb('status', '=', 'uploading'), eb('status', 'in', ['queued', 'translating'])]))
      .where(sql<boolean>`updated_at < now() - interval '2 minutes'`)
      .execute();
    for (const file of stuck) {
      if (file.status === 'uploading') {
        if (await store.systemMove(file.id, 'interrupt', { error: 'the server stopped during the upload' })) marked++;
        continue;
      }
      if (file.status === 'parsing') {
        if (await store.systemMove(file.id, 'lose', { error: 'the server stopped while parsing' })) marked++;
        continue;
      }
      const task = file.task_id ? await deps.task().get(file.task_id) : null;
      if (!task || task.state === 'failed' || task.state === 'cancelled' || (task.state === 'completed' && file.status !== 'completed')) {
        if (await store.systemMove(file.id, 'lose', { error: task?.error ?? 'the translation task is gone' })) marked++;
      }
    }
    return marked;
  }

  return { accept, terminate, retry, remove, list, get, reconcile, formatOf, malformedReason, assertQueueRoom, assertResources, priorityOf };
}

export type FileService = ReturnType<typeof createFileService>;

/** Whether a unit's target from the file is kept under the upload's choice (see EXISTING_TARGETS). */
export function keeps(unit: Pick<TranslationUnit, 'target' | 'state'>, existing: ExistingTargets): boolean {
  if (unit.target === undefined || !unit.state || existing === 'retranslate') return false;
  if (existing === 'keepAll') return unit.state.stage !== 'new';
  return (existing === 'keepApproved' ? APPROVED_STAGES : USABLE_STAGES).includes(unit.state.stage);
}

export { notFound };
