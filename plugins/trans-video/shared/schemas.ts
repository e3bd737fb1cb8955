import { z } from 'zod';
import { resourceIdsSchema } from '@linguaport/sdk/shared';

/** What the audio/video translation area (`/transVideo`) shares between its server and its console. */

export const NS = 'transVideo';

/** Which subtitles: the recognised speech, its translation, or both (source line above target line). */
export const TRACKS = ['source', 'target', 'bilingual'] as const;
export type Track = (typeof TRACKS)[number];

/** Subtitle files: SubRip and WebVTT. */
export const SUBTITLE_FORMATS = ['srt', 'vtt'] as const;
export type SubtitleFormat = (typeof SUBTITLE_FORMATS)[number];

/** Containers an upload may be (checked by content with ffprobe; the name's extension is not trusted). */
export const MEDIA_EXTENSIONS = ['wav', 'mp3', 'm4a', 'ogg', 'flac', 'mp4', 'mkv', 'webm', 'mov'] as const;

/** A job's states: the kernel task's. */
export const JOB_STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** Where a running job is: sound taken out, speech recognised, lines translated, subtitles burned in. */
export const STAGES = ['extract', 'recognise', 'translate', 'burn', 'done'] as const;
export type Stage = (typeof STAGES)[number];

/** The burned-in video's own state (asked at upload or later; made stale by a corrected line). */
export const BURN_STATES = ['none', 'queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type BurnState = (typeof BURN_STATES)[number];

/** Pushed to the job's owner whenever a job moves, reports progress or a line changes. */
export const JOB_CHANGED = 'transVideo.jobChanged';

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const language = z.string().trim().min(2).max(20).regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/);

/** The fields of an upload besides its file. */
export const uploadSchema = z.object({
  sourceLanguage: language,
  targetLanguage: language,
  /** Burn these subtitles into the video once translated (videos only). */
  burn: z.preprocess(blankToUndefined, z.enum(TRACKS).optional()),
  /** Memories and term bases for the translation (none chosen: the owner's defaults). */
  memories: resourceIdsSchema,
  termBases: resourceIdsSchema,
});
export type UploadRequest = z.output<typeof uploadSchema>;

/** A corrected line: its recognised text (translated again) or its translation alone. */
export const cueEditSchema = z
  .object({
    source: z.string().max(2000).optional(),
    target: z.string().max(4000).optional(),
  })
  .refine((v) => v.source !== undefined || v.target !== undefined, { message: 'source or target is required' });

export const burnSchema = z.object({ track: z.enum(TRACKS).default('target') });

export const settingsSchema = z.object({
  /** Megabytes per file. */
  maxFileMb: z.coerce.number().int().min(1).max(4096),
  /** Seconds of playing time per file. */
  maxDurationSeconds: z.coerce.number().int().min(1).max(6 * 3600),
});
export type Settings = z.output<typeof settingsSchema>;
export const DEFAULT_SETTINGS: Settings = { maxFileMb: 500, maxDurationSeconds: 2 * 3600 };

/** One job as the list, the detail call and `transVideo.jobChanged` give it. */
export const jobRowSchema = z.object({
  id: z.number().int(),
  ownerId: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  format: z.string().describe('The container as ffprobe names it'),
  duration: z.number().describe('Seconds'),
  hasVideo: z.boolean(),
  sourceLanguage: z.string(),
  targetLanguage: z.string(),
  /** The memories and term bases chosen at upload (empty: the owner's defaults when translated). */
  memories: z.array(z.number().int()),
  termBases: z.array(z.number().int()),
  status: z.enum(JOB_STATES),
  stage: z.enum(STAGES),
  progress: z.number().min(0).max(1),
  error: z.string().nullable(),
  cueCount: z.number().int(),
  burnTrack: z.enum(TRACKS).nullable(),
  burnStatus: z.enum(BURN_STATES),
  burnProgress: z.number().min(0).max(1),
  burnError: z.string().nullable(),
  /** A line was corrected after the video was burned: burn again to include it. */
  burnStale: z.boolean().describe('A line was corrected after the video was burned'),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type JobRow = z.infer<typeof jobRowSchema>;

/** One subtitle line with its times, the recognised text and its translation. */
export const cueRowSchema = z.object({
  index: z.number().int().min(1),
  start: z.number().describe('Seconds'),
  end: z.number(),
  source: z.string(),
  target: z.string(),
  /** The user corrected it. */
  edited: z.boolean(),
});
export type CueRow = z.infer<typeof cueRowSchema>;

/** `1:02.5` for 62.5 seconds, `1:00:05` for an hour and five seconds: the SDK's media time. */
export { formatMediaTime as formatSeconds } from '@linguaport/sdk/shared';
