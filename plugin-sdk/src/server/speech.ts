import type { EngineCapabilityDefinition } from './capabilities.js';
import type { EngineHealth } from './engines.js';

/**
 * Speech engines: the contract between the kernel's speech routing (`ctx.engines.speech`: node
 * choice, health, fail-over) and one kind of speech-recognition engine (pocketsphinx on this
 * machine, a whisper.cpp or faster-whisper server speaking OpenAI's transcription API...).
 * A speech kind registers like a translation kind (`ctx.engines.registerAdapter`, with
 * `capability: speechCapability`); its `create` returns a `SpeechAdapter` instead of an `EngineAdapter`.
 * Failures are `EngineError`s with the same kinds and the same rule (`failsNode`): `unavailable`
 * and `timeout` mark the node unhealthy and the next node is tried; the others fail the request.
 */

/** One stretch of recognised speech, in seconds from the start of the audio. */
export interface SpeechSegment {
  start: number;
  end: number;
  text: string;
  /** The words with their own times, when the engine gives them. */
  words?: { start: number; end: number; text: string; confidence?: number }[];
  /** 0..1, when the engine says. */
  confidence?: number;
}

export interface TranscribeOptions {
  /** Platform language code of the speech (`en`, `es`, `zh-CN`). */
  language: string;
  signal?: AbortSignal;
}

export interface SpeechAdapter {
  /** The definition's kind (`pocketsphinx-local`, `whisper`). */
  readonly kind: string;
  /** The languages it recognises, in platform codes. */
  languages(): Promise<string[]>;
  health(): Promise<EngineHealth>;
  /**
   * Timed text of a 16 kHz mono 16-bit PCM WAV file (the bytes), segments in time order and
   * not overlapping. Rejects with an `EngineError`.
   */
  transcribe(wav: Uint8Array, options: TranscribeOptions): Promise<SpeechSegment[]>;
}

/** True when `adapter` is a speech adapter (what `create` returns for a `speech` kind). */
export function isSpeechAdapter(adapter: unknown): adapter is SpeechAdapter {
  const a = adapter as Partial<SpeechAdapter> | null;
  return !!a && typeof a.transcribe === 'function' && typeof a.languages === 'function';
}

/** Speech recognition, routed by the spoken language (`ctx.engines.speech`); speech kinds name it as their capability. */
export const speechCapability: EngineCapabilityDefinition<SpeechAdapter> = {
  id: 'speech',
  name: { 'zh-CN': '语音识别', 'en-US': 'Speech recognition' },
  node: { 'zh-CN': '语音识别节点', 'en-US': 'speech recognition node' },
  routing: 'language',
  isAdapter: isSpeechAdapter,
  contract: 'languages, health, transcribe',
  messages: {
    noEngine: (name) => ({ 'zh-CN': `没有能识别 ${name} 语音的语音引擎`, 'en-US': `No speech engine recognises ${name}` }),
    refused: (detail) => ({ 'zh-CN': `语音引擎无法识别此音频：${detail}`, 'en-US': `The speech engine could not recognise this audio: ${detail}` }),
    interrupted: { 'zh-CN': '服务中断：目前没有可用的语音识别节点，请稍后再试', 'en-US': 'Service interrupted: no speech recognition node is available right now. Try again later.' },
  },
  console: {
    icon: 'microphone',
    title: { 'zh-CN': '语音识别节点', 'en-US': 'Speech recognition nodes' },
    help: {
      'zh-CN': '音视频翻译把语音发送到能识别该语言、正在运行且健康的节点。内置的 pocketsphinx 节点识别英语；其他语言请添加远程节点（OpenAI 兼容的转写服务）。',
      'en-US': 'Audio and video translation sends speech to a running, healthy node that recognises the spoken language. The built-in pocketsphinx node recognises English; add a remote node (an OpenAI-compatible transcription server) for other languages.',
    },
    addNode: { 'zh-CN': '添加语音节点', 'en-US': 'Add speech node' },
    noNodes: { 'zh-CN': '没有语音识别节点', 'en-US': 'No speech recognition node' },
  },
};

export interface SpeechTranscribeRequest {
  /** A 16 kHz mono 16-bit PCM WAV (`extractAudio` makes one from any media). */
  audio: Uint8Array;
  language: string;
  /** Who asked (for the logs; speech has no character usage). */
  userId?: number;
  /**
   * The speech node (its id) that must recognise it; 400 when it does not exist, is not a speech
   * node, is stopped or does not recognise the language, 503 when it is down. Without it, the least
   * busy node for the language.
   */
  nodeId?: number;
  signal?: AbortSignal;
}

/** A speech node a caller may choose (`ctx.engines.speech.nodes`). */
export interface SpeechNodeChoice {
  id: number;
  name: string;
  kind: string;
  /** The languages it recognised at its last good health check. */
  languages: string[];
  /** Running and healthy now. */
  ready: boolean;
}

export interface SpeechTranscribeResult {
  language: string;
  segments: SpeechSegment[];
  /** The node that answered and its kind. */
  nodeId: number;
  kind: string;
}

/** `ctx.engines.speech`: recognition through the speech nodes the platform runs. */
export interface SpeechService {
  /** Languages some healthy speech node recognises, sorted. */
  languages(): Promise<string[]>;
  /**
   * Transcribes on a healthy speech node that takes the language (least busy first), failing over
   * to the next when a node fails; 400 when no node recognises the language, 503 when none is up.
   */
  transcribe(request: SpeechTranscribeRequest): Promise<SpeechTranscribeResult>;
  /** The speech nodes left running (a stopped one cannot be chosen), with their languages; only those that recognise `language` when given. */
  nodes(language?: string): Promise<SpeechNodeChoice[]>;
}

/** Word error rate of `hypothesis` against `reference`: word-level edit distance over the reference's length. */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const words = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}'\s]/gu, ' ').split(/\s+/).filter(Boolean);
  const r = words(reference);
  const h = words(hypothesis);
  if (r.length === 0) return h.length === 0 ? 0 : 1;
  let prev = Array.from({ length: h.length + 1 }, (_, j) => j);
  for (let i = 1; i <= r.length; i++) {
    const cur = [i];
    for (let j = 1; j <= h.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (r[i - 1] === h[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[h.length]! / r.length;
}
