import { z } from 'zod';

/** A speaker's name as the server checks it and the enrol form explains it. */
export const speakerName = z.string().trim().min(1, 'validation.required').max(100);

export const KEYS = {
  /** See the department's speakers, identify and verify. */
  use: 'voiceprint:use',
  /** Enrol speakers and add recordings. */
  enrol: 'voiceprint:enrol',
  delete: 'voiceprint:delete',
  /** Reach every department's speakers (administrators). */
  manage: 'voiceprint:manage',
} as const;

/** The answers of the API, as the console reads them and the OpenAPI document states them. */
export const speakerViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  departmentId: z.number().int(),
  recordings: z.number().int(),
  speechSeconds: z.number(),
  /** Enrolled under the department's current model, whose method a node offers: identification and verification see it. */
  ready: z.boolean().describe("Enrolled under the department's current model, whose method a node offers: identification and verification see it"),
  state: z
    .enum(['ready', 'training', 'needsRecording'])
    .describe('ready; training (waits for the department\'s training); needsRecording (enrolled before recordings were kept as audio, and the department\'s method changed: add a recording)'),
  /** The speaker method of their stored representation (null: none yet). */
  method: z.string().nullable(),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type SpeakerView = z.infer<typeof speakerViewSchema>;

export const speakerDetailSchema = speakerViewSchema.extend({
  recordingList: z.array(z.object({ id: z.number().int(), filename: z.string(), speechSeconds: z.number(), audio: z.boolean().describe('Kept as audio (false: only the features of the first method were kept)'), createdAt: z.string().nullable() })),
});

export const modelStatusSchema = z.object({
  departmentId: z.number().int(),
  threshold: z.number().describe("The decision threshold of the department's method (the method offered now when it has none)"),
  status: z.enum(['idle', 'training', 'failed']),
  method: z.string().nullable().describe("The speaker method of the department's models (null before the first training)"),
  currentMethod: z.string().nullable().describe('The method a node offers now: the stored one while a node of it is up; null: no speaker node is up'),
  methodReady: z.boolean().describe("A node of the department's method is up (or the department has no models yet)"),
  modelVersion: z.number().int(),
  upToDate: z.boolean(),
  trainedAt: z.string().nullable(),
  error: z.string().nullable(),
  taskId: z.string().nullable(),
});

export const scoredCandidateSchema = z.object({ speakerId: z.number().int(), name: z.string(), score: z.number() });
export type ScoredCandidate = z.infer<typeof scoredCandidateSchema>;

export const identifyAnswerSchema = z.object({
  speaker: scoredCandidateSchema.nullable().describe('The best candidate when its score reaches the threshold; null: unknown speaker'),
  candidates: z.array(scoredCandidateSchema),
  threshold: z.number(),
  method: z.string().describe('The speaker method that scored: the scale of the scores and the threshold'),
  speechSeconds: z.number().describe('Seconds of speech after silence was dropped'),
});
export type IdentifyAnswer = z.infer<typeof identifyAnswerSchema>;

export const verifyAnswerSchema = z.object({
  speakerId: z.number().int(),
  name: z.string(),
  score: z.number(),
  threshold: z.number(),
  method: z.string(),
  accepted: z.boolean(),
  speechSeconds: z.number(),
});
export type VerifyAnswer = z.infer<typeof verifyAnswerSchema>;
