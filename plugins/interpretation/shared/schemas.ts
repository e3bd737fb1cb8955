import { z } from 'zod';

export const KEYS = {
  /** Open the live socket (captions). */
  use: 'interpretation:use',
  /** The own sessions: list, detail, export, delete. */
  log: 'interpretation:log',
  /** Everyone's sessions (read and export). */
  logAll: 'interpretation:logAll',
  /** Save the own configuration. */
  configure: 'interpretation:configure',
} as const;

const languageCode = z.string().trim().min(2, 'validation.required').max(16).regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/);

/** Caption style: how the captions page draws (stored per user with the rest). */
export const captionStyleSchema = z
  .object({
    fontSize: z.number().int().min(16).max(120),
    /** `one`: the translation only (the transcript while speaking); `two`: transcript above translation. */
    languages: z.enum(['one', 'two']),
    theme: z.enum(['dark', 'light']),
  })
  .strict();

/** `GET /interpretation/engines`: the pair (and domain) whose engines to list. */
export const engineQuerySchema = z.object({ source: languageCode, target: languageCode, domain: z.string().trim().max(64).default('') });

/** One user's interpretation settings, as the server checks them and the form explains them. */
export const configSchema = z
  .object({
    source: languageCode,
    target: languageCode,
    domain: z.string().trim().max(64).default(''),
    /** The speech node that hears the speaker (`ctx.engines.speech.nodes`); null: the platform picks. */
    speechNodeId: z.number().int().positive().max(2_147_483_647).nullable().default(null),
    /** The translation engine (`ctx.engines.choices`); null: the platform picks (by domain). */
    engineId: z.number().int().positive().max(2_147_483_647).nullable().default(null),
    memories: z.array(z.number().int().positive()).max(20).default([]),
    termBases: z.array(z.number().int().positive()).max(20).default([]),
    /** Label utterances with enrolled voiceprints (when the voiceprint area is on and the department has speakers). */
    speakerLabels: z.boolean().default(true),
    caption: captionStyleSchema,
  })
  .strict();

export type InterpretationConfig = z.infer<typeof configSchema>;

export const DEFAULT_CONFIG: InterpretationConfig = {
  source: 'en',
  target: 'es',
  domain: '',
  speechNodeId: null,
  engineId: null,
  memories: [],
  termBases: [],
  speakerLabels: true,
  caption: { fontSize: 40, languages: 'two', theme: 'dark' },
};

/** What the socket sends (JSON text frames). */
export type LiveMessage =
  | { type: 'ready'; sessionId: number; source: string; target: string; sampleRate: number; speakers: boolean }
  | { type: 'speech'; utterance: number }
  | { type: 'partial'; utterance: number; text: string }
  | { type: 'final'; utterance: number; start: number; end: number; text: string; translation: string; speaker: string | null; latencyMs: number }
  | { type: 'error'; message: string; fatal: boolean }
  /** Something the speaker should know that does not stop the session (a configured engine has gone: the platform's choice serves instead). */
  | { type: 'notice'; message: string }
  | { type: 'ended'; sessionId: number };

/** A speech node or translation engine the configuration may name (`GET /interpretation/engines`). */
const engineOptionSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  /** Up now (a chosen engine that fails makes the platform's choice serve instead). */
  ready: z.boolean(),
});
export type EngineOption = z.infer<typeof engineOptionSchema>;

export const enginesAnswerSchema = z.object({ speech: z.array(engineOptionSchema), translation: z.array(engineOptionSchema) });
export type EnginesAnswer = z.infer<typeof enginesAnswerSchema>;

/** The client's text frames; its binary frames are 16 kHz mono 16-bit little-endian PCM. */
export const clientMessageSchema = z.discriminatedUnion('type', [z.object({ type: z.literal('stop') })]);

export const SAMPLE_RATE = 16_000;
export const LIVE_PATH = '/interpretation/live';
export const EXPORT_FORMATS = ['txt', 'srt', 'docx'] as const;
export const EXPORT_TRACKS = ['source', 'target', 'bilingual'] as const;

export interface SessionView {
  id: number;
  ownerId: number;
  ownerName: string | null;
  source: string;
  target: string;
  startedAt: string | null;
  endedAt: string | null;
  status: 'live' | 'ended';
  utterances: number;
  speakers: string[];
  /** The first words heard (list rows). */
  preview: string;
}

export interface UtteranceView {
  index: number;
  start: number;
  end: number;
  text: string;
  translation: string;
  speaker: string | null;
  at: string | null;
}
