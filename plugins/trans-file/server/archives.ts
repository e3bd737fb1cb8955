import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { sql, type Selectable } from 'kysely';
import { z } from 'zod';
import { ApiError, Codes, deletedSchema, idList, like, pageOf, pageQuery, pageSchema, type Caller, type LocalizedText, type ServerPluginContext, optionalUploadedFilesSchema } from '@linguaport/sdk/server';
import { idSchema } from '@linguaport/sdk/shared';
import { FILE_CHANGED, fileRowSchema, translateOptionsSchema, type FileChanged } from '../shared/schemas.js';
import { badRequest, messages } from './messages.js';
import type { Quotas } from './quota.js';
import { attachment } from './routes.js';
import type { FileService } from './service.js';
import type { AreaSettings } from './settings.js';
import { presentFile, type File } from './store.js';
import type { Db, JobsTable } from './tables.js';
import { readZip, safeEntryName, writeZip, ZipError, type ZipEntry } from '@linguaport/sdk/interchange';

/**
 * /transFileDog: a whole folder or zip archive translated in one go. Each file of a format the
 * platform reads becomes a document of the job (same queue, priority and checks as one upload);
 * the others (images, unknown types, empty or oversized files) are kept aside with the reason. When
 * every document is finished the translated archive is packed: the same paths, each translated
 * file in place of its original, everything else copied unchanged, so one download gives the
 * whole folder back in the other language. /fileViewDog lists a job's files and what was left out.
 */

const USE = { permission: 'transFileDog:use' } as const;
type Job = Selectable<JobsTable>;

/** At most this many entries in one archive or folder. */
export const MAX_ENTRIES = 1000;
/**
 * What an archive may unpack to in all (its documents are held in memory while it is checked and packed):
 * refused on the zip's declared sizes before anything is inflated, and a header that lies is stopped at its claim.
 */
export const ARCHIVE_MAX_UNPACKED_BYTES = 512 * 1024 * 1024;
const FINISHED = new Set(['completed', 'failed', 'terminated', 'parseFailed', 'unknown', 'uploadInterrupted']);
const text = (zh: string, en: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en });

/** An archive translation (the list's row; what upload answers). */
const jobSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  sourceLang: z.string(),
  targetLang: z.string(),
  status: z.enum(['translating', 'packing', 'completed', 'failed']),
  skipped: z.array(z.object({ name: z.string(), reason: z.enum(['empty', 'tooLarge', 'notSupported', 'malformed']) })).describe('Entries left out of the translation, copied unchanged'),
  files: z.number().int().describe('Documents translated'),
  completed: z.number().int(),
  failed: z.number().int(),
  percent: z.number().int().min(0).max(100),
  resultSize: z.number().int().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});

function presentJob(j: Job, counts: { total: number; completed: number; failed: number; segments: number; done: number }) {
  return {
    id: j.id,
    name: j.name,
    size: Number(j.size),
    sourceLang: j.source_lang,
    targetLang: j.target_lang,
    status: j.status,
    skipped: typeof j.skipped === 'string' ? JSON.parse(j.skipped) : j.skipped,
    files: counts.total,
    completed: counts.completed,
    failed: counts.failed,
    percent: j.status === 'completed' ? 100 : counts.segments ? Math.floor((counts.done / counts.segments) * 100) : 0,
    resultSize: j.result_size === null ? null : Number(j.result_size),
    createdAt: new Date(j.created_at as unknown as string).toISOString(),
    finishedAt: j.finished_at ? new Date(j.finished_at as unknown as string).toISOString() : null,
  };
}

export function archivePart(ctx: ServerPluginContext, db: Db, deps: { files: FileService; settings: AreaSettings; quotas: Quotas }): { repack(): Promise<void> } {
  const { files } = deps;

  async function counts(jobIds: number[]) {
    if (!jobIds.length) return new Map<number, { total: number; completed: number; failed: number; segments: number; done: number }>();
    const rows = await sql<{ job_id: number; total: string; completed: string; failed: string; segments: string; done: string }>`
      select job_id, count(*) as total,
        count(*) filter (where status = 'completed') as completed,
        count(*) filter (where status in ('failed', 'terminated', 'parseFailed', 'unknown', 'uploadInterrupted')) as failed,
        coalesce(sum(segments), 0) as segments, coalesce(sum(case when status = 'completed' then segments else segments_done end), 0) as done
      from trans_file_files where job_id in (${sql.join(jobIds)}) group by job_id`.execute(db);
    const out = new Map(jobIds.map((id) => [id, { total: 0, completed: 0, failed: 0, segments: 0, done: 0 }]));
    for (const r of rows.rows) out.set(r.job_id, { total: Number(r.total), completed: Number(r.completed), failed: Number(r.failed), segments: Number(r.segments), done: Number(r.done) });
    return out;
  }

  const publish = async (job: Job | undefined) => {
    if (!job) return;
    const c = (await counts([job.id])).get(job.id)!;
    await ctx.bus.publish({ type: 'transFile.jobChanged', payload: presentJob(job, c), audience: { userIds: [job.owner_id] } }).catch(() => undefined);
  };

  /** Packs the translated archive once every document of the job is finished (once: a guarded move to `packing`). */
  async function packIfDone(jobId: number): Promise<void> {
    const members = await db.selectFrom('trans_file_files').selectAll().where('job_id', '=', jobId).orderBy('id').execute();
    if (members.some((f) => !FINISHED.has(f.status))) {
      // A retried document reopens a finished job.
      const reopened = await db.updateTable('trans_file_jobs').set({ status: 'translating', finished_at: null }).where('id', '=', jobId).where('status', 'in', ['completed', 'failed']).returningAll().executeTakeFirst();
      await publish(reopened);
      return;
    }
    const job = await db.updateTable('trans_file_jobs').set({ status: 'packing' }).where('id', '=', jobId).where('status', '=', 'translating').returningAll().executeTakeFirst();
    if (!job) return;
    try {
      const original = readZip(await ctx.storage.get(job.source_key), { maxEntries: MAX_ENTRIES, maxBytes: ARCHIVE_MAX_UNPACKED_BYTES });
      const byPath = new Map(members.map((f) => [f.name, f]));
      const entries: ZipEntry[] = [];
      for (const e of original) {
        const f = byPath.get(e.name);
        // A translated document in place of its original; everything else as it came.
        entries.push({ name: e.name, data: f?.status === 'completed' && f.result_key && f.result_type === 'translated' ? await ctx.storage.get(f.result_key) : e.data });
        if (f?.status === 'completed' && f.result_key && f.result_type !== 'translated' && f.result_name) {
          // A bilingual result of another format sits beside the original.
          const dir = e.name.includes('/') ? e.name.slice(0, e.name.lastIndexOf('/') + 1) : '';
          entries.push({ name: `${dir}${f.result_name.split('/').pop()}`, data: await ctx.storage.get(f.result_key) });
        }
      }
      const zip = writeZip(entries);
      const key = `jobs/${job.id}/result.zip`;
      const stored = await ctx.storage.put(key, zip);
      const status = members.every((f) => f.status === 'completed') ? 'completed' : 'failed';
      await publish(await db.updateTable('trans_file_jobs').set({ status, result_key: key, result_size: stored.size, finished_at: sql`now()` }).where('id', '=', job.id).returningAll().executeTakeFirst());
    } catch (err) {
      ctx.logger.warn(`archive ${job.id} could not be packed: ${(err as Error).message}`);
      await publish(await db.updateTable('trans_file_jobs').set({ status: 'failed', finished_at: sql`now()` }).where('id', '=', job.id).returningAll().executeTakeFirst());
    }
  }

  // Each change of a job's document may finish the job.
  const sub = ctx.bus.events(FILE_CHANGED).subscribe((event) => {
    const p = event.payload as FileChanged;
    if (!FINISHED.has(p.status) && !p.deleted) return;
    void (async () => {
      const f = await db.selectFrom('trans_file_files').select('job_id').where('id', '=', p.id).executeTakeFirst();
      if (f?.job_id) await packIfDone(f.job_id);
    })().catch((err: Error) => ctx.logger.warn(`archive check failed: ${err.message}`));
  });
  ctx.onClose(() => sub.unsubscribe());

  /** Jobs whose last document finished while no server listened (a restart): packed now. */
  async function repack(): Promise<void> {
    const open = await db.selectFrom('trans_file_jobs').select('id').where('status', 'in', ['translating', 'packing']).execute();
    for (const j of open) {
      await db.updateTable('trans_file_jobs').set({ status: 'translating' }).where('id', '=', j.id).where('status', '=', 'packing').where(sql<boolean>`created_at < now() - interval '1 minute'`).execute();
      await packIfDone(j.id);
    }
  }

  /** The entries of an upload: the zip's files, or the folder's files with their relative paths. */
  function entriesOf(body: { archive: Array<{ filename: string; path: string; size: number }>; files: Array<{ filename: string; path: string; size: number }>; paths: string[] }, maxBytes: number): { name: string; entries: ZipEntry[] } {
    if (body.archive.length === 1 && body.files.length === 0) {
      const a = body.archive[0]!;
      try {
        return { name: a.filename.split(/[\\/]/).pop()!, entries: readZip(readFileSync(a.path), { maxEntries: MAX_ENTRIES, maxBytes: Math.min(maxBytes, ARCHIVE_MAX_UNPACKED_BYTES) }) };
      } catch (err) {
        if (err instanceof ZipError && err.localized) throw badRequest(text(`${a.filename}：${err.localized['zh-CN']}`, `${a.filename}: ${err.localized['en-US']}`));
        if (err instanceof ZipError) throw badRequest(text(`${a.filename}：不是可读取的 zip 压缩包（${err.message}）`, `${a.filename}: not a readable zip archive (${err.message})`));
        throw err;
      }
    }
    if (body.archive.length === 0 && body.files.length > 0) {
      if (body.files.length > MAX_ENTRIES) throw badRequest(messages.tooMany(MAX_ENTRIES));
      const entries = body.files.map((f, i) => {
        const name = safeEntryName(body.paths[i] ?? f.filename);
        if (!name) throw badRequest(text(`路径无效：${body.paths[i]}`, `Not a valid path: ${body.paths[i]}`));
        return { name, data: readFileSync(f.path) };
      });
      const root = entries[0]!.name.split('/')[0]!;
      return { name: `${entries.every((e) => e.name.startsWith(`${root}/`)) ? root : 'folder'}.zip`, entries };
    }
    throw badRequest(text('请上传一个 zip 压缩包或一个文件夹', 'Upload one zip archive or one folder'));
  }

  ctx.route({
    method: 'POST',
    url: '/transFileDog/upload',
    access: USE,
    summary: 'Translate a zip archive or a folder',
    upload: { maxBytes: 2 * 1024 * 1024 * 1024 },
    schema: {
      body: translateOptionsSchema.extend({
        archive: optionalUploadedFilesSchema,
        files: optionalUploadedFilesSchema,
        paths: z.union([z.string(), z.array(z.string())]).optional().transform((p) => (p === undefined ? [] : Array.isArray(p) ? p : p.trim().startsWith('[') ? (JSON.parse(p) as string[]) : [p])),
      }),
    },
    response: { data: jobSchema, errors: [3027] },
    async handler({ body, caller }) {
      if (body.sourceLang === body.targetLang) throw badRequest(messages.sameLanguages);
      const limits = await deps.settings.get();
      const usage = await deps.quotas.usage(caller!.userId);
      const room = Math.max(0, usage.quotaBytes - usage.usedBytes);
      const { name, entries } = entriesOf(body, room);
      const skipped: Array<{ name: string; reason: string }> = [];
      const accepted: ZipEntry[] = [];
      for (const e of entries) {
        if (e.data.length === 0) skipped.push({ name: e.name, reason: 'empty' });
        else if (e.data.length > limits.maxFileMb * 1024 * 1024) skipped.push({ name: e.name, reason: 'tooLarge' });
        else {
          const format = files.formatOf(e.name, e.data);
          if (!format) skipped.push({ name: e.name, reason: 'notSupported' });
          // A document that is not well-formed is listed as left out (copied unchanged) rather than refusing the archive.
          else if (await files.malformedReason(format, e.data)) skipped.push({ name: e.name, reason: 'malformed' });
          else accepted.push(e);
        }
      }
      if (accepted.length === 0) throw badRequest(text(`${name}：没有可以翻译的文件`, `${name}: no file in it can be translated`), { skipped });
      await files.assertResources(caller!, body);
      const zip = body.archive.length ? readFileSync(body.archive[0]!.path) : writeZip(entries);
      await deps.quotas.assertRoom(caller!.userId, zip.length + accepted.reduce((n, e) => n + e.data.length, 0));
      await files.assertQueueRoom(accepted.length);
      const options = { sourceLang: body.sourceLang, targetLang: body.targetLang, domain: body.domain, termBases: body.termBases, memories: body.memories, resultType: body.resultType, withPdf: false, existingTargets: body.existingTargets };
      const job = await db
        .insertInto('trans_file_jobs')
        .values({ owner_id: caller!.userId, name, size: zip.length, source_key: '', source_lang: body.sourceLang, target_lang: body.targetLang, options: JSON.stringify(options), skipped: JSON.stringify(skipped), result_key: null, result_size: null, status: 'translating', finished_at: null })
        .returningAll()
        .executeTakeFirstOrThrow();
      const key = `jobs/${job.id}/source.zip`;
      await ctx.storage.put(key, zip);
      await db.updateTable('trans_file_jobs').set({ source_key: key }).where('id', '=', job.id).execute();
      for (const e of accepted) await files.accept(caller!, [{ name: e.name, size: e.data.length, bytes: () => e.data }], options, { via: 'archive', jobId: job.id });
      await packIfDone(job.id);
      return getJob(caller!, job.id);
    },
  });

  async function ownJob(caller: Caller, id: number): Promise<Job> {
    const job = await db.selectFrom('trans_file_jobs').selectAll().where('id', '=', id).executeTakeFirst();
    if (!job || (job.owner_id !== caller.userId && !ctx.auth.can(caller, 'transFile:manage'))) throw new ApiError(Codes.NOT_FOUND, messages.notFound(id));
    return job;
  }
  async function getJob(caller: Caller, id: number) {
    const job = await ownJob(caller, id);
    return presentJob(job, (await counts([id])).get(id)!);
  }

  ctx.route({
    method: 'GET',
    url: '/transFileDog/list',
    access: USE,
    summary: 'List own archive translations',
    schema: { query: z.object({ ...pageQuery, name: z.string().trim().max(200).optional() }) },
    response: { data: pageSchema(jobSchema) },
    async handler({ query, caller }) {
      let q = db.selectFrom('trans_file_jobs').where('owner_id', '=', caller!.userId);
      if (query.name) q = q.where('name', 'ilike', like(query.name));
      const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const rows = await q.selectAll().orderBy('id', 'desc').limit(query.pageSize).offset((query.pageNum - 1) * query.pageSize).execute();
      const c = await counts(rows.map((r) => r.id));
      return pageOf(query, rows.map((r) => presentJob(r, c.get(r.id)!)), total.n);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/transFileDog/get/:id',
    access: USE,
    summary: 'One archive translation with its documents',
    schema: { params: z.object({ id: idSchema }) },
    response: { data: jobSchema.extend({ documents: z.array(fileRowSchema) }), errors: [404] },
    async handler({ params, caller }) {
      const job = await getJob(caller!, params.id);
      const members = (await db.selectFrom('trans_file_files').selectAll().where('job_id', '=', params.id).orderBy('name').execute()) as File[];
      return { ...job, documents: members.map((f) => presentFile(f)) };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/transFileDog/download/:id',
    access: USE,
    log: false,
    summary: 'Download the translated archive',
    schema: { params: z.object({ id: idSchema }) },
    response: { envelope: false, contentType: 'application/zip', errors: [404, 409, 2067] },
    async handler({ params, caller }) {
      const job = await ownJob(caller!, params.id);
      if (job.status !== 'completed' && job.status !== 'failed') throw new ApiError(Codes.CONFLICT, text('压缩包仍在翻译中', 'The archive is still being translated'));
      if (!job.result_key || !(await ctx.storage.exists(job.result_key))) throw new ApiError(Codes.FILE_NOT_FOUND, messages.notFound(job.name));
      const name = `${job.name.replace(/\.[^.]+$/, '')}_${job.target_lang}.zip`;
      return { raw: true, contentType: 'application/zip', body: ctx.storage.stream(job.result_key), headers: { 'content-disposition': attachment(name) } };
    },
  });

  ctx.route({
    method: 'DELETE',
    url: '/transFileDog/delete',
    access: USE,
    summary: 'Delete archive translations with their documents',
    schema: { query: z.object({ ids: idList }) },
    response: { data: deletedSchema, errors: [404] },
    async handler({ query, caller }) {
      const jobs = [];
      for (const id of query.ids) jobs.push(await ownJob(caller!, id));
      for (const job of jobs) {
        const members = await db.selectFrom('trans_file_files').select('id').where('job_id', '=', job.id).execute();
        if (members.length) await files.remove(caller!, members.map((m) => m.id));
        await db.deleteFrom('trans_file_jobs').where('id', '=', job.id).execute();
        await rm(ctx.storage.path(`jobs/${job.id}`), { recursive: true, force: true });
      }
      return { deleted: jobs.length };
    },
  });

  return { repack };
}
