import { rename, rm, stat } from 'node:fs/promises';
import { sql, type Selectable } from 'kysely';
import { z } from 'zod';
import { ApiError, attachmentDisposition, Codes, fileReply, iso, mediaJobKit, uploadedMedia, type LocalizedText, type ServerPluginContext, type TaskHandle, optionalUploadedFilesSchema } from '@linguaport/sdk/server';
import { convertMedia, cutMedia, MEDIA_TARGETS, MediaError, mediaTargetOf, type MediaInfo, type MediaTarget } from '@linguaport/media';
import { idSchema } from '@linguaport/sdk/shared';
import { AUDIO_TARGETS, JOB_CHANGED, JOB_STATES, jobRequestSchema, jobRowSchema, OPERATIONS, settingsSchema, TARGET_IDS, TARGETS, type JobRequest, type JobRow, type JobState } from '../shared/schemas.js';
import { badRequest, messages } from './messages.js';
import type { AreaSettings } from './settings.js';
import type { Db, VideoDatabase } from './tables.js';

/**
 * /video: audio and video conversion. Each uploaded file becomes a job (convert to another container,
 * extract the sound, or cut between two times) run as a task of the kernel's task service: queued,
 * running with ffmpeg's progress, then completed, failed or cancelled. A job belongs to its owner;
 * anyone else is told it does not exist (404).
 */

export const USE = { permission: 'video:use' } as const;
const MANAGE = { permission: 'video:manage' } as const;
/** The most one upload call may carry; each file's own limit is a setting the handler checks. */
const UPLOAD_CEILING_BYTES = 8 * 1024 * 1024 * 1024;

type Job = Selectable<VideoDatabase['video_jobs']>;


export function present(j: Job): JobRow {
  return {
    id: j.id,
    ownerId: j.owner_id,
    name: j.name,
    size: Number(j.size),
    format: j.format,
    duration: j.duration,
    hasVideo: j.has_video,
    hasAudio: j.has_audio,
    operation: j.operation,
    to: j.target as MediaTarget,
    startSeconds: j.start_seconds,
    endSeconds: j.end_seconds,
    status: j.status,
    progress: j.progress,
    taskId: j.task_id,
    resultName: j.result_name,
    resultSize: j.result_size === null ? null : Number(j.result_size),
    error: j.error,
    createdAt: iso(j.created_at)!,
    startedAt: iso(j.started_at),
    finishedAt: iso(j.finished_at),
  };
}

const seconds = (n: number) => String(Math.round(n * 1000) / 1000);

/** The result's file name: `talk.mp3`, `talk_1.5-4s.wav` for a cut. */
export function resultName(name: string, job: { operation: string; target: string; start_seconds: number | null; end_seconds: number | null }): string {
  const base = name.replace(/\.[^.]+$/, '') || 'media';
  const range = job.operation === 'cut' ? `_${seconds(job.start_seconds ?? 0)}-${seconds(job.end_seconds ?? 0)}s` : '';
  return `${base}${range}.${job.target}`;
}

/** The container a job writes: the one asked for, or for a cut without one the upload's own. */
function targetOf(request: JobRequest, name: string, info: MediaInfo): MediaTarget {
  if (request.to) return request.to;
  if (request.operation === 'extractAudio') return 'mp3';
  const own = mediaTargetOf(name);
  if (own && (MEDIA_TARGETS[own].video || !info.hasVideo)) return own;
  return info.hasVideo ? 'mp4' : 'wav';
}

/** The request's own rules (between fields), before any file is looked at. */
function checkRequest(request: JobRequest): void {
  if (request.operation === 'convert' && !request.to) throw badRequest(messages.targetNeeded);
  if (request.operation === 'extractAudio' && request.to && !AUDIO_TARGETS.includes(request.to as (typeof AUDIO_TARGETS)[number])) throw badRequest(messages.audioTargetNeeded);
  if (request.operation === 'cut') {
    if (request.startSeconds === undefined || request.endSeconds === undefined) throw badRequest(messages.cutRangeNeeded);
    if (request.endSeconds <= request.startSeconds) throw badRequest(messages.cutBackwards);
  }
}

const joined = (list: LocalizedText[]): LocalizedText => ({ 'zh-CN': list.map((r) => r['zh-CN']).join('；'), 'en-US': list.map((r) => r['en-US']).join('; ') });

export async function jobRoutes(ctx: ServerPluginContext<VideoDatabase>, db: Db, settings: AreaSettings): Promise<void> {
  // The shared shape of a media-job area (ownership, state moves, upload checks, list, delete, settings): the SDK's kit.
  const kit = mediaJobKit<Job, JobRow>(ctx, db, { table: 'video_jobs', event: JOB_CHANGED, present, messages });
  const { move, own } = kit;

  const task: TaskHandle<{ jobId: number }, { size: number } | { skipped: true }> = await ctx.tasks.define({
    name: 'process-media',
    input: z.object({ jobId: z.number().int().positive() }),
    async run({ input, signal, progress }) {
      const job = await db.selectFrom('video_jobs').selectAll().where('id', '=', input.jobId).executeTakeFirst();
      // Deleted or cancelled meanwhile. A job found running is one whose server died: it starts over.
      if (!job || (job.status !== 'queued' && job.status !== 'running')) return { skipped: true };
      await move(job.id, ['queued', 'running'], { status: 'running', progress: 0, error: null, started_at: sql`now()` });
      const { report: onProgress, settled } = kit.reporter(job.id, progress);
      const target = job.target as MediaTarget;
      const key = `jobs/${job.id}/result.${target}`;
      // Written beside the source, not in a scratch folder: a run killed with its server leaves nothing
      // behind elsewhere, and the next run overwrites it.
      const partial = ctx.storage.path(`jobs/${job.id}/partial.${target}`);
      try {
        const source = ctx.storage.path(job.source_key);
        if (job.operation === 'cut') await cutMedia(source, partial, { startSeconds: job.start_seconds ?? 0, endSeconds: job.end_seconds ?? 0, to: target, signal, onProgress });
        else await convertMedia(source, partial, { to: target, signal, onProgress });
        await rename(partial, ctx.storage.path(key));
        const size = (await stat(ctx.storage.path(key))).size;
        await settled();
        const done = await move(job.id, ['running'], { status: 'completed', progress: 1, result_key: key, result_name: resultName(job.name, job), result_size: size, finished_at: sql`now()` });
        // Cancelled or deleted while the result was being stored: it is not kept.
        if (!done) await ctx.storage.remove(key).catch(() => undefined);
        return { size };
      } catch (err) {
        await settled();
        await rm(partial, { force: true });
        // A cancel (the cancel call marks the job) or a server stop (the task runs again after the restart).
        if (signal.aborted) throw err;
        const why = err instanceof MediaError ? err.detail || err.message : (err as Error).message;
        await move(job.id, ['running'], { status: 'failed', error: why.split('\n')[0]!.slice(0, 500), finished_at: sql`now()` });
        throw err;
      }
    },
  });

  // A task cancelled through `/tasks`, or queued again after its server died while the row says running.
  const reconcile = (j: Job) => kit.reconcile(j, task, { requeued: { progress: 0 } });
  const startJob = (j: Job) => kit.start(j, task);

  ctx.route({
    method: 'GET',
    url: '/video/setup',
    access: USE,
    summary: 'Operations, target formats and limits of audio/video conversion',
    response: {
      data: z.object({
        operations: z.array(z.enum(OPERATIONS)),
        targets: z.array(z.object({ id: z.enum(TARGET_IDS), video: z.boolean().describe('Holds pictures (else sound only)') })),
        states: z.array(z.enum(JOB_STATES)),
        limits: settingsSchema,
      }),
    },
    handler: async () => ({ operations: OPERATIONS, targets: TARGETS, states: JOB_STATES, limits: await settings.get() }),
  });

  ctx.route({
    method: 'POST',
    url: '/video/upload',
    access: USE,
    summary: 'Upload audio or video files and start a job for each: convert, extract audio or cut',
    upload: { maxBytes: UPLOAD_CEILING_BYTES },
    schema: { body: jobRequestSchema.extend({ files: optionalUploadedFilesSchema, file: optionalUploadedFilesSchema }) },
    response: { data: z.array(jobRowSchema) },
    async handler({ body, caller }) {
      const limits = await settings.get();
      const files = uploadedMedia(body);
      if (files.length === 0) throw badRequest(messages.noFiles);
      if (files.length > limits.maxFiles) throw badRequest(messages.tooMany(limits.maxFiles));
      checkRequest(body);
      // Every file is looked at (by content) before anything is stored: one refused file refuses the upload.
      const refused: LocalizedText[] = [];
      const accepted: Array<{ file: (typeof files)[number]; info: MediaInfo; target: MediaTarget }> = [];
      for (const f of files) {
        // Empty, too large, not media, or a playlist or list of other files (which ffmpeg would follow).
        const { info, refused: why } = await kit.probe(f, limits.maxFileMb);
        if (!info) {
          refused.push(why);
          continue;
        }
        const target = targetOf(body, f.name, info);
        if (info.duration > limits.maxDurationSeconds) refused.push(messages.tooLong(f.name, limits.maxDurationSeconds));
        else if (!info.hasAudio && (body.operation === 'extractAudio' || !MEDIA_TARGETS[target].video)) refused.push(messages.noAudio(f.name));
        else if (body.operation === 'cut' && info.duration > 0 && body.startSeconds! >= info.duration) refused.push(messages.cutOutside(f.name, info.duration));
        else accepted.push({ file: f, info, target });
      }
      if (refused.length) throw badRequest(joined(refused));
      const rows: JobRow[] = [];
      for (const { file, info, target } of accepted) {
        const row = await db
          .insertInto('video_jobs')
          .values({
            owner_id: caller!.userId,
            name: file.name,
            size: file.size,
            format: info.format,
            duration: info.duration,
            has_video: info.hasVideo,
            has_audio: info.hasAudio,
            operation: body.operation,
            target,
            start_seconds: body.operation === 'cut' ? body.startSeconds! : null,
            end_seconds: body.operation === 'cut' ? Math.min(body.endSeconds!, info.duration || body.endSeconds!) : null,
            status: 'queued',
            source_key: '',
            task_id: null,
            result_key: null,
            result_name: null,
            error: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        rows.push(present(await startJob(await kit.storeSource(row, file))));
      }
      return rows;
    },
  });

  kit.routes({
    base: '/video',
    access: USE,
    rowSchema: jobRowSchema,
    current: reconcile,
    list: { summary: 'List own jobs, newest first: search by file name, filter by status and operation', states: JOB_STATES, filters: { operation: OPERATIONS } },
    get: { summary: 'One own job' },
    cancel: { summary: 'Cancel a queued or running job', task },
    retry: { summary: 'Run a failed or cancelled job again', reset: { started_at: null }, start: startJob },
    remove: {
      summary: 'Delete own jobs with their files (a running one is cancelled first)',
      cancelTasks: async (j) => {
        if (j.task_id && (j.status === 'queued' || j.status === 'running')) await task.cancel(j.task_id);
      },
    },
    settings: { manage: MANAGE, schema: settingsSchema, get: () => settings.get(), set: (v) => settings.set(v), summaries: ['The limits of audio/video conversion', 'Change the limits: files per upload, megabytes and seconds per file'] },
  });

  ctx.route({
    method: 'GET',
    url: '/video/download/:id',
    access: USE,
    log: false,
    summary: "Download a completed job's result",
    schema: { params: z.object({ id: idSchema }) },
    response: { envelope: false, contentType: 'application/octet-stream', errors: [404, 409, 2067] },
    async handler(request) {
      const j = await own(request.caller!, request.params.id);
      if (j.status !== 'completed') throw new ApiError(Codes.CONFLICT, messages.notDone);
      if (!j.result_key || !j.result_name || !(await ctx.storage.exists(j.result_key))) throw new ApiError(Codes.FILE_NOT_FOUND, messages.resultGone);
      // Byte ranges: a player plays and seeks the result as it downloads; a broken download resumes.
      return fileReply(request, ctx.storage.path(j.result_key), {
        contentType: MEDIA_TARGETS[j.target as MediaTarget]?.mime ?? 'application/octet-stream',
        headers: { 'content-disposition': attachmentDisposition(j.result_name) },
      });
    },
  });
}
