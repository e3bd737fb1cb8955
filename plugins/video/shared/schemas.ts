import { z } from 'zod';

/** What the audio/video conversion area (`/video`) shares between its server and its console. */

export const NS = 'video';

/** What a job does to its file: another container, the sound alone, or a part between two times. */
export const OPERATIONS = ['convert', 'extractAudio', 'cut'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** The containers a job writes (the SDK's `convertMedia` targets), and whether each holds pictures. */
export const TARGETS = [
  { id: 'mp4', video: true },
  { id: 'mkv', video: true },
  { id: 'webm', video: true },
  { id: 'mov', video: true },
  { id: 'mp3', video: false },
  { id: 'wav', video: false },
  { id: 'm4a', video: false },
  { id: 'ogg', video: false },
  { id: 'flac', video: false },
] as const;
/** The same names as the SDK's `MediaTarget` (the console cannot import the server SDK). */
export type TargetId = (typeof TARGETS)[number]['id'];
export const TARGET_IDS = TARGETS.map((t) => t.id) as unknown as readonly [TargetId, ...TargetId[]];
export const AUDIO_TARGETS = TARGETS.filter((t) => !t.video).map((t) => t.id);

/** A job's states: the kernel task's (queued, running, completed, failed, cancelled). */
export const JOB_STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** Pushed to the job's owner whenever a job moves or reports progress. */
export const JOB_CHANGED = 'video.jobChanged';

// Multipart fields arrive as strings; an empty one means "not given".
const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const seconds = z.preprocess(blankToUndefined, z.coerce.number().finite().min(0).max(24 * 3600).optional());

/** The fields of an upload besides its files. Rules between fields are the server's (bilingual messages). */
export const jobRequestSchema = z.object({
  operation: z.enum(OPERATIONS),
  to: z.preprocess(blankToUndefined, z.enum(TARGET_IDS).optional()),
  startSeconds: seconds,
  endSeconds: seconds,
});
export type JobRequest = z.output<typeof jobRequestSchema>;

export const settingsSchema = z.object({
  /** Files in one upload. */
  maxFiles: z.coerce.number().int().min(1).max(50),
  /** Megabytes per file. */
  maxFileMb: z.coerce.number().int().min(1).max(4096),
  /** Seconds of playing time per file. */
  maxDurationSeconds: z.coerce.number().int().min(1).max(24 * 3600),
});
export type Settings = z.output<typeof settingsSchema>;
export const DEFAULT_SETTINGS: Settings = { maxFiles: 10, maxFileMb: 200, maxDurationSeconds: 3600 };

/** One job as the list, the detail call and `video.jobChanged` give it. */
export const jobRowSchema = z.object({
  id: z.number().int(),
  ownerId: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  /** ffprobe's container name of the upload, its length and what it holds. */
  format: z.string().describe("ffprobe's container name of the upload"),
  duration: z.number().describe('Seconds'),
  hasVideo: z.boolean(),
  hasAudio: z.boolean(),
  operation: z.enum(OPERATIONS),
  to: z.enum(TARGET_IDS),
  startSeconds: z.number().nullable(),
  endSeconds: z.number().nullable(),
  status: z.enum(JOB_STATES),
  progress: z.number().min(0).max(1),
  taskId: z.string().nullable(),
  resultName: z.string().nullable(),
  resultSize: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type JobRow = z.infer<typeof jobRowSchema>;

/** `1:02.5` for 62.5 seconds, `1:00:05` for an hour and five seconds: the SDK's media time. */
export { formatMediaTime as formatSeconds } from '@linguaport/sdk/shared';
