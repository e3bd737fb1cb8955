import { z } from 'zod';
import {
  EngineError,
  engineFetch,
  errorForStatus,
  parseJson,
  trimSlash,
  type EngineHealth,
  type EngineResponse,
  type SpeechAdapter,
  type SpeechAdapterDefinition,
  type SpeechSegment,
  speechCapability,
} from '@linguaport/sdk/server';

/**
 * A remote speech node speaking OpenAI's transcription API, as whisper.cpp's server
 * (`--inference-path /v1/audio/transcriptions`) and the faster-whisper servers do:
 * `POST {base}/audio/transcriptions`, multipart with `file`, `model`, `language` (ISO 639-1) and
 * `response_format=verbose_json`, answered with `{text, language, duration, segments: [{start, end,
 * text, ...}], words?}`. The segments are what the platform uses: their times become subtitle cues.
 */
export interface WhisperOptions {
  /** Base URL including the API version, e.g. `http://10.0.0.7:8080/v1`. */
  url: string;
  model: string;
  apiKey?: string;
  /** Languages this node is offered for, in platform codes (a server has no list to ask). */
  languages: string[];
  /** At least this long per request; longer audio gets three times its length plus 30 s. */
  timeoutMs?: number;
}

/** The ISO 639-1 code the API takes (`zh-CN` -> `zh`). */
export function apiLanguage(code: string): string {
  return code.split('-')[0]!.toLowerCase();
}

const segmentShape = z.object({
  start: z.number().finite().nonnegative(),
  end: z.number().finite().nonnegative(),
  text: z.string(),
  avg_logprob: z.number().optional(),
  no_speech_prob: z.number().optional(),
  words: z.array(z.object({ word: z.string(), start: z.number(), end: z.number(), probability: z.number().optional() })).optional(),
});
const verboseJson = z.object({ text: z.string().optional(), language: z.string().optional(), duration: z.number().optional(), segments: z.array(segmentShape) });

/** Segments in time order, empty ones dropped, each starting no earlier than the previous one ended. */
export function readVerboseJson(body: unknown): SpeechSegment[] {
  const parsed = verboseJson.safeParse(body);
  if (!parsed.success) throw new EngineError('bad-response', `transcription answer is not verbose_json with segments: ${parsed.error.issues[0]?.message ?? ''}`);
  const out: SpeechSegment[] = [];
  let last = 0;
  for (const s of [...parsed.data.segments].sort((a, b) => a.start - b.start)) {
    const text = s.text.trim();
    if (!text) continue;
    const start = Math.max(s.start, last);
    const end = Math.max(start, s.end);
    const segment: SpeechSegment = { start, end, text };
    if (s.avg_logprob !== undefined) segment.confidence = Math.round(Math.min(1, Math.exp(s.avg_logprob)) * 1000) / 1000;
    if (s.words?.length) segment.words = s.words.map((w) => ({ text: w.word.trim(), start: w.start, end: w.end, confidence: w.probability }));
    out.push(segment);
    last = end;
  }
  return out;
}

export function createWhisperAdapter(options: WhisperOptions): SpeechAdapter {
  const base = trimSlash(options.url);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const auth: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  const offered = (language: string) => options.languages.some((l) => apiLanguage(l) === apiLanguage(language));

  return {
    kind: 'whisper',
    async languages() {
      return [...options.languages];
    },
    async health(): Promise<EngineHealth> {
      const started = performance.now();
      try {
        // faster-whisper servers list their models; whisper.cpp's server has no /models and answers 404,
        // which still says it is up. Only refusals that concern everyone (auth, overload) count.
        const res = await engineFetch(`${base}/models`, { headers: auth, timeoutMs: Math.min(timeoutMs, 10_000) });
        const latencyMs = Math.round(performance.now() - started);
        if ([401, 403, 429, 502, 503, 504].includes(res.status) || res.status >= 500) return { ok: false, detail: `/models: HTTP ${res.status}`, latencyMs };
        return { ok: true, latencyMs };
      } catch (err) {
        return { ok: false, detail: (err as Error).message };
      }
    },
    async transcribe(wav, { language, signal }) {
      if (!offered(language)) throw new EngineError('unsupported-pair', `this node is not offered for ${language}`);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'audio.wav');
      form.append('model', options.model);
      form.append('language', apiLanguage(language));
      form.append('response_format', 'verbose_json');
      form.append('timestamp_granularities[]', 'segment');
      form.append('temperature', '0');
      const seconds = Math.max(0, wav.byteLength - 44) / 32_000;
      const res = await engineFetch(`${base}/audio/transcriptions`, { method: 'POST', headers: auth, body: form, signal, timeoutMs: Math.max(timeoutMs, Math.round(seconds * 3000) + 30_000) });
      return readVerboseJson(checkReply(res));
    },
  };
}

/** OpenAI's errors are `{error: {message}}`; whisper.cpp answers `{error: "..."}`. */
function checkReply(res: EngineResponse): unknown {
  const body = parseJson(res, 'transcription') as { error?: { message?: string } | string } | null;
  if (res.status >= 200 && res.status < 300) return body;
  const why = (typeof body?.error === 'string' ? body.error : body?.error?.message) ?? `HTTP ${res.status}`;
  throw errorForStatus(res.status, `transcription: ${why}`);
}

/** A node's own fields: the server, its model, the languages it is offered for, its key. */
export const whisperConfig = z.object({
  baseUrl: z.string().url(),
  model: z.string().trim().min(1).max(200).default('whisper-1'),
  apiKey: z.string().max(500).optional(),
  languages: z.array(z.string().trim().min(2).max(20)).min(1),
});

export const whisperDefinition: SpeechAdapterDefinition<z.infer<typeof whisperConfig>> = {
  kind: 'whisper',
  name: { 'zh-CN': 'Whisper 语音识别（OpenAI 兼容转写接口）', 'en-US': 'Whisper speech recognition (OpenAI-compatible transcription API)' },
  capability: speechCapability,
  config: whisperConfig,
  secrets: ['apiKey'],
  fields: {
    baseUrl: { label: { 'zh-CN': '服务地址（含 /v1）', 'en-US': 'Base URL (with /v1)' }, placeholder: 'http://10.0.0.7:8080/v1' },
    model: { label: { 'zh-CN': '模型', 'en-US': 'Model' }, placeholder: 'whisper-1' },
    apiKey: { label: { 'zh-CN': 'API 密钥', 'en-US': 'API key' } },
    languages: { label: { 'zh-CN': '识别的语言', 'en-US': 'Languages recognised' }, help: { 'zh-CN': '语言代码，逗号分隔，例如 zh-CN, es', 'en-US': 'Language codes, comma-separated, e.g. zh-CN, es' } },
  },
  create(node, helpers) {
    const c = node.config;
    return createWhisperAdapter({ url: c.baseUrl, model: c.model, apiKey: c.apiKey, languages: c.languages, timeoutMs: helpers.timeoutMs });
  },
};
