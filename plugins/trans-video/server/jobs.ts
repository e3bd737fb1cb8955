import { createReadStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql, type Selectable } from 'kysely';
import { z } from 'zod';
import { ApiError, attachmentDisposition as attachment, engineLanguageSchema, Codes, fileReply, inScratch, iso, mediaJobKit, uploadedMedia, type ServerPluginContext, type SpeechSegment, type TaskHandle, optionalUploadedFilesSchema } from '@linguaport/sdk/server';
import { burnSubtitles, extractAudio, MediaError } from '@linguaport/media';
import { idSchema } from '@linguaport/sdk/shared';
import { burnSchema, cueEditSchema, cueRowSchema, JOB_CHANGED, JOB_STATES, jobRowSchema, settingsSchema, SUBTITLE_FORMATS, TRACKS, uploadSchema, type CueRow, type JobRow, type JobState, type Track } from '../shared/schemas.js';
import { splitSpeech } from './chunks.js';
import { cuesOf, subtitleFile, transcript } from './cues.js';
import { badRequest, messages } from './messages.js';
import type { AreaSettings } from './settings.js';
import type { Db, TransVideoDatabase } from './tables.js';

/**
 * /transVideo: audio and video translation. An upload becomes a job run as a kernel task: ffmpeg takes
 * out 16 kHz mono sound, a speech node recognises it (`ctx.engines.speech`, the node's voice activity
 * detection splitting it into utterances), the lines are translated through `translateSegments` (so
 * memories and terms apply) and kept as timed cues; subtitles (SRT, VTT: source, target, bilingual) and
 * the transcript are written from the cues on request, so a corrected line is in every later download.
 * Burning subtitles into the video is a second task, asked at upload or later. A job belongs to its
 * owner; anyone else is told it does not exist (404).
 */

export const USE = { permission: 'transVideo:use' } as const;
const MANAGE = { permission: 'transVideo:manage' } as const;
const UPLOAD_CEILING_BYTES = 4 * 1024 * 1024 * 1024;
/** ffprobe's container names of the accepted formats (wav, mp3, m4a, ogg, flac, mp4, mkv, webm, mov). */
const ACCEPTED_CONTAINERS = new Set(['wav', 'mp3', 'mov', 'mp4', 'm4a', 'matroska', 'webm', 'ogg', 'flac']);

type Job = Selectable<TransVideoDatabase['tv_jobs']>;


/** The browser's type for the stored upload, by what ffprobe found. */
function mimeOf(format: string, hasVideo: boolean): string {
  const names = format.split(',');
  if (names.includes('webm') || names.includes('matroska')) return hasVideo ? 'video/webm' : 'audio/webm';
  if (names.includes('mp4') || names.includes('mov')) return hasVideo ? 'video/mp4' : 'audio/mp4';
  if (names.includes('mp3')) return 'audio/mpeg';
  if (names.includes('ogg')) return 'audio/ogg';
  if (names.includes('flac')) return 'audio/flac';
  return 'audio/wav';
}

/** A job's chosen memories and term bases; none chosen leaves the pipeline to the owner's defaults. */
function resourcesOf(j: Job): { memories?: number[]; termBases?: number[] } {
  const ids = (v: unknown) => (Array.isArray(v) && v.length ? v.map(Number) : undefined);
  return { memories: ids(j.memories), termBases: ids(j.term_bases) };
}

const sameBase = (a: string, b: string) => a.split('-')[0]!.toLowerCase() === b.split('-')[0]!.toLowerCase();

export async function jobRoutes(ctx: ServerPluginContext<TransVideoDatabase>, db: Db, settings: AreaSettings): Promise<void> {
  const cueCount = async (jobId: number) => Number((await db.selectFrom('tv_cues').select((eb) => eb.fn.countAll<string>().as('n')).where('job_id', '=', jobId).executeTakeFirst())?.n ?? 0);

  async function present(j: Job): Promise<JobRow> {
    const { memories = [], termBases = [] } = resourcesOf(j);
    return {
      id: j.id,
      ownerId: j.owner_id,
      name: j.name,
      size: Number(j.size),
      format: j.format,
      duration: j.duration,
      hasVideo: j.has_video,
      sourceLanguage: j.source_language,
      targetLanguage: j.target_language,
      memories,
      termBases,
      status: j.status,
      stage: j.stage,
      progress: j.progress,
      error: j.error,
      cueCount: await cueCount(j.id),
      burnTrack: j.burn_track,
      burnStatus: j.burn_status,
      burnProgress: j.burn_progress,
      burnError: j.burn_error,
      burnStale: j.burn_stale,
      createdAt: iso(j.created_at)!,
      finishedAt: iso(j.finished_at),
    };
  }

  // The shared shape of a media-job area (ownership, state moves, upload checks, list, delete, settings): the SDK's kit.
  const kit = mediaJobKit<Job, JobRow>(ctx, db, { table: 'tv_jobs', event: JOB_CHANGED, present, messages });
  const { publish, move, own } = kit;

  async function readCues(jobId: number): Promise<CueRow[]> {
    const rows = await db.selectFrom('tv_cues').selectAll().where('job_id', '=', jobId).orderBy('idx').execute();
    return rows.map((r) => ({ index: r.idx, start: r.start_seconds, end: r.end_seconds, source: r.source, target: r.target, edited: r.edited }));
  }

  const burnTask: TaskHandle<{ jobId: number }, { size: number } | { skipped: true }> = await ctx.tasks.define({
    name: 'burn-subtitles',
    input: z.object({ jobId: z.number().int().positive() }),
    async run({ input, signal, progress }) {
      const job = await db.selectFrom('tv_jobs').selectAll().where('id', '=', input.jobId).executeTakeFirst();
      if (!job || (job.burn_status !== 'queued' && job.burn_status !== 'running') || !job.burn_track) return { skipped: true };
      await move(job.id, ['queued', 'running'], { burn_status: 'running', burn_progress: 0, burn_error: null, burn_stale: false }, 'burn_status');
      const { report, settled } = kit.reporter(job.id, progress, 'burn_progress', 'burn_status');
      try {
        const cues = await readCues(job.id);
        const key = `jobs/${job.id}/burned.mp4`;
        const stored = await inScratch(async (dir) => {
          const srt = join(dir, 'subtitles.srt');
          await writeFile(srt, subtitleFile(cues, job.burn_track!, 'srt'));
          const out = join(dir, 'burned.mp4');
          await burnSubtitles(ctx.storage.path(job.source_key), srt, out, { signal, onProgress: (f) => report(f) });
          return ctx.storage.put(key, createReadStream(out));
        });
        await settled();
        const done = await move(job.id, ['running'], { burn_status: 'completed', burn_progress: 1, burn_key: key }, 'burn_status');
        if (!done) await ctx.storage.remove(key).catch(() => undefined);
        return { size: stored.size };
      } catch (err) {
        await settled();
        if (signal.aborted) throw err;
        const why = err instanceof MediaError ? err.detail || err.message : (err as Error).message;
        await move(job.id, ['running'], { burn_status: 'failed', burn_error: why.split('\n')[0]!.slice(0, 500) }, 'burn_status');
        throw err;
      }
    },
  });

  async function startBurn(j: Job, track: Track): Promise<Job> {
    const queued = await db.updateTable('tv_jobs').set({ burn_track: track, burn_status: 'queued', burn_progress: 0, burn_error: null }).where('id', '=', j.id).returningAll().executeTakeFirstOrThrow();
    const info = await burnTask.start({ jobId: j.id }, { ownerId: j.owner_id, title: `${j.name} (subtitles)`, priority: 4 });
    const row = await db.updateTable('tv_jobs').set({ burn_task_id: info.id }).where('id', '=', queued.id).returningAll().executeTakeFirstOrThrow();
    await publish(row);
    return row;
  }

  const translateTask: TaskHandle<{ jobId: number }, { cues: number } | { skipped: true }> = await ctx.tasks.define({
    name: 'translate-media',
    input: z.object({ jobId: z.number().int().positive() }),
    async run({ input, signal, progress, ownerId, checkpoint, resumeFrom }) {
      const job = await db.selectFrom('tv_jobs').selectAll().where('id', '=', input.jobId).executeTakeFirst();
      // Deleted or cancelled meanwhile. A job found running is one whose server died: it starts over.
      if (!job || (job.status !== 'queued' && job.status !== 'running')) return { skipped: true };
      await move(job.id, ['queued', 'running'], { status: 'running', stage: 'extract', progress: 0, error: null });
      const { report, settled } = kit.reporter(job.id, progress);
      try {
        // 1. Sound (0-10%), 2. speech (10-70%), 3. translation (70-100%).
        const wav = await inScratch(async (dir) => {
          const out = join(dir, 'speech.wav');
          await extractAudio(ctx.storage.path(job.source_key), out, { signal, onProgress: (f) => report(f * 0.1) });
          return new Uint8Array(await readFile(out));
        });
        report(0.1, { stage: 'recognise' });
        // Piece by piece, with a checkpoint after each: a restarted run skips the pieces already heard.
        const chunks = splitSpeech(wav);
        const saved = resumeFrom as { jobId?: number; chunks?: number; done?: number; segments?: SpeechSegment[] } | null;
        const resume = saved?.jobId === job.id && saved.chunks === chunks.length && Array.isArray(saved.segments) ? saved : null;
        const heard: SpeechSegment[] = resume ? [...resume.segments!] : [];
        for (let i = resume?.done ?? 0; i < chunks.length; i++) {
          const chunk = chunks[i]!;
          const got = await ctx.engines.speech.transcribe({ audio: chunk.wav, language: job.source_language, userId: ownerId ?? job.owner_id, signal });
          for (const s of got.segments) heard.push({ ...s, start: s.start + chunk.offset, end: s.end + chunk.offset, words: s.words?.map((w) => ({ ...w, start: w.start + chunk.offset, end: w.end + chunk.offset })) });
          const fraction = 0.1 + (0.6 * (i + 1)) / chunks.length;
          await checkpoint({ jobId: job.id, chunks: chunks.length, done: i + 1, segments: heard }, { done: Math.round(fraction * 1000), total: 1000 });
          report(fraction);
        }
        const lines = cuesOf(heard);
        report(0.7, { stage: 'translate' });
        let targets = new Map<string, string>();
        if (lines.length) {
          const result = await ctx.engines.translateSegments({
            segments: lines.map((l, i) => ({ id: String(i), source: l.text })),
            source: job.source_language,
            target: job.target_language,
            format: 'text',
            callerId: job.owner_id,
            channel: 'document',
            resources: resourcesOf(job),
            signal,
          });
          targets = new Map(result.segments.map((s) => [s.id, s.target]));
        }
        signal.throwIfAborted();
        // The cues of a run that started over replace the earlier run's.
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('tv_cues').where('job_id', '=', job.id).execute();
          if (lines.length)
            await trx
              .insertInto('tv_cues')
              .values(lines.map((l, i) => ({ job_id: job.id, idx: i + 1, start_seconds: l.start, end_seconds: l.end, source: l.text, target: targets.get(String(i)) ?? l.text })))
              .execute();
        });
        await settled();
        const done = await move(job.id, ['running'], { status: 'completed', stage: 'done', progress: 1, finished_at: sql`now()` });
        if (done?.has_video && done.burn_track && done.burn_status === 'none') await startBurn(done, done.burn_track);
        return { cues: lines.length };
      } catch (err) {
        await settled();
        if (signal.aborted) throw err;
        const why = err instanceof ApiError ? err.message : err instanceof MediaError ? err.detail || err.message : (err as Error).message;
        await move(job.id, ['running'], { status: 'failed', error: why.split('\n')[0]!.slice(0, 500), finished_at: sql`now()` });
        throw err;
      }
    },
  });

  /** The job's row brought in line with its tasks where they can part (a cancel through /tasks, a restart). */
  async function reconcile(j: Job): Promise<Job> {
    const row = await kit.reconcile(j, translateTask);
    return kit.reconcile(row, burnTask, { idColumn: 'burn_task_id', statusColumn: 'burn_status', errorColumn: 'burn_error', finished: false });
  }

  const startJob = (j: Job) => kit.start(j, translateTask);

  /** Languages whose speech is recognised, each with the languages it is translated into. */
  async function languages(): Promise<{ code: string; targets: string[] }[]> {
    const [spoken, translated] = await Promise.all([ctx.engines.speech.languages(), ctx.engines.languages()]);
    return spoken.map((code) => ({ code, targets: [...new Set(translated.filter((l) => sameBase(l.code, code)).flatMap((l) => l.targets))].sort() }));
  }

  ctx.route({
    method: 'GET',
    url: '/transVideo/setup',
    access: USE,
    summary: 'Speech languages with their translation targets, subtitle tracks and formats, and the limits',
    response: {
      data: z.object({ languages: z.array(engineLanguageSchema), tracks: z.array(z.enum(TRACKS)), formats: z.array(z.enum(SUBTITLE_FORMATS)), states: z.array(z.enum(JOB_STATES)), limits: settingsSchema }),
    },
    handler: async () => ({ languages: await languages(), tracks: TRACKS, formats: SUBTITLE_FORMATS, states: JOB_STATES, limits: await settings.get() }),
  });

  ctx.route({
    method: 'POST',
    url: '/transVideo/upload',
    access: USE,
    summary: 'Upload one audio or video file to recognise its speech and translate it into subtitles',
    upload: { maxBytes: UPLOAD_CEILING_BYTES },
    schema: { body: uploadSchema.extend({ file: optionalUploadedFilesSchema, files: optionalUploadedFilesSchema }) },
    response: { data: jobRowSchema },
    async handler({ body, caller }) {
      const limits = await settings.get();
      const files = uploadedMedia(body);
      if (files.length === 0) throw badRequest(messages.noFile);
      if (files.length > 1) throw badRequest(messages.oneFile);
      const file = files[0]!;
      if (sameBase(body.sourceLanguage, body.targetLanguage)) throw badRequest(messages.sameLanguage);
      const offered = (await languages()).find((l) => sameBase(l.code, body.sourceLanguage));
      if (!offered) throw badRequest(messages.noSpeechEngine(body.sourceLanguage));
      if (!offered.targets.some((t) => t === body.targetLanguage)) throw badRequest(messages.noTranslation(body.sourceLanguage, body.targetLanguage));
      // Empty, too large, not media, or a playlist or list of other files (which ffmpeg would follow).
      const { info, refused } = await kit.probe(file, limits.maxFileMb);
      if (!info) throw badRequest(refused);
      if (!info.format.split(',').some((f) => ACCEPTED_CONTAINERS.has(f))) throw badRequest(messages.notMedia(file.name));
      if (!info.hasAudio) throw badRequest(messages.noAudio(file.name));
      if (info.duration > limits.maxDurationSeconds) throw badRequest(messages.tooLong(file.name, limits.maxDurationSeconds));
      if (body.burn && !info.hasVideo) throw badRequest(messages.burnNeedsVideo);
      // Memories and term bases the caller may not use are refused before anything is stored.
      await ctx.pipeline.checkResources(caller!.userId, { memories: body.memories, termBases: body.termBases });
      const row = await db
        .insertInto('tv_jobs')
        .values({
          owner_id: caller!.userId,
          name: file.name,
          size: file.size,
          format: info.format,
          duration: info.duration,
          has_video: info.hasVideo,
          source_language: offered.code,
          target_language: body.targetLanguage,
          status: 'queued',
          stage: 'extract',
          source_key: '',
          task_id: null,
          error: null,
          burn_track: body.burn ?? null,
          burn_status: 'none',
          burn_task_id: null,
          burn_key: null,
          burn_error: null,
          memories: JSON.stringify(body.memories),
          term_bases: JSON.stringify(body.termBases),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return present(await startJob(await kit.storeSource(row, file)));
    },
  });

  kit.routes({
    base: '/transVideo',
    access: USE,
    rowSchema: jobRowSchema,
    current: reconcile,
    list: { summary: 'List own jobs, newest first: search by file name, filter by status', states: JOB_STATES },
    cancel: {
      summary: 'Cancel a queued or running job (or its burning)',
      task: translateTask,
      // Burning running after the translation: the cancel is the burning's.
      async before(caller, j) {
        if (j.burn_status !== 'queued' && j.burn_status !== 'running') return undefined;
        if (j.burn_task_id) await burnTask.cancel(j.burn_task_id);
        return (await move(j.id, ['queued', 'running'], { burn_status: 'cancelled' }, 'burn_status')) ?? (await own(caller, j.id));
      },
    },
    retry: { summary: 'Run a failed or cancelled job again', reset: { stage: 'extract' }, start: startJob },
    remove: {
      summary: 'Delete own jobs with their files and lines (running work is cancelled first)',
      async cancelTasks(j) {
        if (j.task_id && (j.status === 'queued' || j.status === 'running')) await translateTask.cancel(j.task_id);
        if (j.burn_task_id && (j.burn_status === 'queued' || j.burn_status === 'running')) await burnTask.cancel(j.burn_task_id);
      },
    },
    settings: { manage: MANAGE, schema: settingsSchema, get: () => settings.get(), set: (v) => settings.set(v), summaries: ['The limits of audio/video translation', 'Change the limits: megabytes and seconds per file'] },
  });

  ctx.route({
    method: 'GET',
    url: '/transVideo/get/:id',
    access: USE,
    summary: 'One own job with its subtitle lines',
    schema: { params: z.object({ id: idSchema }) },
    response: { data: z.object({ job: jobRowSchema, cues: z.array(cueRowSchema) }), errors: [404] },
    async handler({ params, caller }) {
      const j = await reconcile(await own(caller!, params.id));
      return { job: await present(j), cues: await readCues(j.id) };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/transVideo/media/:id',
    access: USE,
    log: false,
    summary: 'The uploaded audio or video, to play in the preview',
    // The preview's player reads it itself, with byte ranges as it plays and seeks.
    sessionCookie: true,
    schema: { params: z.object({ id: idSchema }) },
    response: { envelope: false, contentType: 'application/octet-stream', errors: [404, 2067] },
    async handler(request) {
      const j = await own(request.caller!, request.params.id);
      if (!j.source_key || !(await ctx.storage.exists(j.source_key))) throw new ApiError(Codes.FILE_NOT_FOUND, messages.resultGone);
      // Byte ranges: the preview's player asks for what it plays and seeks to, not the whole file first.
      return fileReply(request, ctx.storage.path(j.source_key), { contentType: mimeOf(j.format, j.has_video) });
    },
  });

  ctx.route({
    method: 'GET',
    url: '/transVideo/subtitles/:id',
    access: USE,
    log: false,
    summary: 'Subtitles of a finished job: SRT or VTT, the source, target or both lines',
    schema: { params: z.object({ id: idSchema }), query: z.object({ format: z.enum(SUBTITLE_FORMATS).default('srt'), track: z.enum(TRACKS).default('target') }) },
    response: { envelope: false, contentType: 'text/plain', errors: [404, 409] },
    async handler({ params, query, caller }) {
      const j = await own(caller!, params.id);
      if (j.status !== 'completed') throw new ApiError(Codes.CONFLICT, messages.notDone);
      const body = subtitleFile(await readCues(j.id), query.track, query.format);
      const lang = query.track === 'source' ? j.source_language : query.track === 'target' ? j.target_language : `${j.source_language}-${j.target_language}`;
      const name = `${j.name.replace(/\.[^.]+$/, '') || 'media'}.${lang}.${query.format}`;
      return { raw: true, contentType: query.format === 'vtt' ? 'text/vtt; charset=utf-8' : 'application/x-subrip; charset=utf-8', body, headers: { 'content-disposition': attachment(name) } };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/transVideo/transcript/:id',
    access: USE,
    log: false,
    summary: 'The transcript of a finished job: each line with its time, the recognised text and its translation',
    schema: { params: z.object({ id: idSchema }) },
    response: { envelope: false, contentType: 'text/plain', errors: [404, 409] },
    async handler({ params, caller }) {
      const j = await own(caller!, params.id);
      if (j.status !== 'completed') throw new ApiError(Codes.CONFLICT, messages.notDone);
      const body = transcript(await readCues(j.id), { source: j.source_language, target: j.target_language });
      return { raw: true, contentType: 'text/plain; charset=utf-8', body, headers: { 'content-disposition': attachment(`${j.name.replace(/\.[^.]+$/, '') || 'media'}.transcript.txt`) } };
    },
  });

  ctx.route({
    method: 'PUT',
    url: '/transVideo/cue/:id/:index',
    access: USE,
    summary: 'Correct a line: new recognised text is translated again; a new translation is kept as written',
    schema: { params: z.object({ id: idSchema, index: z.coerce.number().int().min(1) }), body: cueEditSchema },
    response: { data: cueRowSchema, errors: [404, 409] },
    async handler({ params, body, caller }) {
      const j = await own(caller!, params.id);
      if (j.status !== 'completed') throw new ApiError(Codes.CONFLICT, messages.notDone);
      const cue = await db.selectFrom('tv_cues').selectAll().where('job_id', '=', j.id).where('idx', '=', params.index).executeTakeFirst();
      if (!cue) throw new ApiError(Codes.NOT_FOUND, messages.cueNotFound(params.index));
      let source = cue.source;
      let target = body.target !== undefined ? body.target.trim() : cue.target;
      if (body.source !== undefined) {
        source = body.source.trim().replace(/\s+/g, ' ');
        if (!source) throw badRequest(messages.emptySource);
        if (body.target === undefined) {
          const result = await ctx.engines.translateSegments({ segments: [{ id: 'cue', source }], source: j.source_language, target: j.target_language, format: 'text', callerId: caller!.userId, channel: 'document', resources: resourcesOf(j) });
          target = result.segments[0]?.target ?? source;
        }
      }
      await db.updateTable('tv_cues').set({ source, target, edited: true }).where('job_id', '=', j.id).where('idx', '=', params.index).execute();
      // A burned video no longer shows every line as it now reads.
      if (j.burn_status === 'completed' || j.burn_status === 'running') await move(j.id, null, { burn_stale: true });
      else await publish(j);
      return { index: cue.idx, start: cue.start_seconds, end: cue.end_seconds, source, target, edited: true } satisfies CueRow;
    },
  });

  ctx.route({
    method: 'POST',
    url: '/transVideo/burn/:id',
    access: USE,
    summary: 'Burn subtitles (source, target or bilingual) into the video of a finished job',
    schema: { params: z.object({ id: idSchema }), body: burnSchema },
    response: { data: jobRowSchema, errors: [404, 409] },
    async handler({ params, body, caller }) {
      const j = await own(caller!, params.id);
      if (!j.has_video) throw badRequest(messages.burnNeedsVideo);
      if (j.status !== 'completed') throw new ApiError(Codes.CONFLICT, messages.notDone);
      if (j.burn_status === 'queued' || j.burn_status === 'running') throw new ApiError(Codes.CONFLICT, messages.burning);
      return present(await startBurn(j, body.track));
    },
  });

  ctx.route({
    method: 'GET',
    url: '/transVideo/burned/:id',
    access: USE,
    log: false,
    summary: 'Download the video with burned-in subtitles',
    schema: { params: z.object({ id: idSchema }) },
    response: { envelope: false, contentType: 'video/mp4', errors: [404, 409, 2067] },
    async handler(request) {
      const j = await own(request.caller!, request.params.id);
      if (j.burn_status !== 'completed' || !j.burn_key) throw new ApiError(Codes.CONFLICT, messages.notBurned);
      if (!(await ctx.storage.exists(j.burn_key))) throw new ApiError(Codes.FILE_NOT_FOUND, messages.resultGone);
      const name = `${j.name.replace(/\.[^.]+$/, '') || 'media'}.${j.burn_track === 'source' ? j.source_language : j.burn_track === 'bilingual' ? `${j.source_language}-${j.target_language}` : j.target_language}.mp4`;
      return fileReply(request, ctx.storage.path(j.burn_key), { contentType: 'video/mp4', headers: { 'content-disposition': attachment(name) } });
    },
  });

}
