import type { EngineCapabilityDefinition } from './capabilities.js';
import { EngineError, type EngineHealth } from './engines.js';
import { MediaError, readWavPcm } from '@linguaport/media';

/**
 * Speaker engines: the contract between the kernel's speaker routing (`ctx.engines.speaker`: node
 * choice, health, fail-over) and one kind of speaker-recognition engine (the built-in MFCC/GMM-UBM
 * method on this machine, a remote GPU server that turns a recording into a speaker embedding...).
 * A speaker kind registers like a translation kind (`ctx.engines.registerAdapter`, with
 * `capability: speakerCapability`); its `create` returns a `SpeakerAdapter`. Failures are `EngineError`s with
 * the same rule (`failsNode`): `unavailable` and `timeout` mark the node unhealthy and the next node is
 * tried; the others fail the request.
 *
 * What an area keeps is opaque bytes: a group's background model (`train`; null for a method that
 * needs none, as an embedding model) and one representation per speaker (`enrol`); `score` compares a
 * recording with them. Bytes of one method mean nothing to another: every answer names its `method`,
 * a request may ask for one (nodes of other methods are skipped), and an area retrains when it changes.
 */

/** Recognition of speakers does not depend on the language spoken: a speaker node says so with this. */
export const ANY_LANGUAGE = '*';

export interface SpeakerCallOptions {
  signal?: AbortSignal;
}

export interface SpeakerScores {
  /** One score per speaker representation, in their order; higher: more alike (the scale is the method's). */
  scores: number[];
  /** Seconds of speech the recording held once silence was dropped. */
  speechSeconds: number;
}

export interface SpeakerAdapter {
  /** The definition's kind (`voiceprint-local`, `speaker-embedding`). */
  readonly kind: string;
  /**
   * What its models and representations are (`mfcc-gmm-ubm/1`, `embedding/<model>`): bytes made by
   * another method cannot be scored by this one.
   */
  readonly method: string;
  /**
   * The score from which a recording is taken for the speaker (identification's "unknown" below it,
   * verification's acceptance at it), on the method's own scale, as measured by the kind; an area's
   * configuration may override it. Absent: the kind suggests none.
   */
  readonly threshold?: number;
  /** `[ANY_LANGUAGE]`: it takes speech in any language. */
  languages(): Promise<string[]>;
  health(): Promise<EngineHealth>;
  /**
   * A background model of what speech sounds like, from the recordings (16 kHz mono 16-bit PCM WAV
   * files) of a group of speakers and any background speech; null when the method needs none.
   */
  train(recordings: Uint8Array[], options: SpeakerCallOptions & { seed?: number }): Promise<Uint8Array | null>;
  /** One speaker's representation from their recordings (WAV), under the group's background model. */
  enrol(recordings: Uint8Array[], options: SpeakerCallOptions & { background: Uint8Array | null }): Promise<Uint8Array>;
  /** Scores of one recording (WAV) against speakers' representations. */
  score(recording: Uint8Array, speakers: Uint8Array[], options: SpeakerCallOptions & { background: Uint8Array | null }): Promise<SpeakerScores>;
}

/** True when `adapter` is a speaker adapter (what `create` returns for a `speaker` kind). */
export function isSpeakerAdapter(adapter: unknown): adapter is SpeakerAdapter {
  const a = adapter as Partial<SpeakerAdapter> | null;
  return !!a && typeof a.method === 'string' && typeof a.enrol === 'function' && typeof a.score === 'function' && typeof a.train === 'function';
}

/** Speaker recognition, any language (`ctx.engines.speaker`); speaker kinds name it as their capability. */
export const speakerCapability: EngineCapabilityDefinition<SpeakerAdapter> = {
  id: 'speaker',
  name: { 'zh-CN': '说话人识别', 'en-US': 'Speaker recognition' },
  node: { 'zh-CN': '说话人识别节点', 'en-US': 'speaker recognition node' },
  routing: 'language',
  isAdapter: isSpeakerAdapter,
  contract: 'method, languages, health, train, enrol, score',
  messages: {
    noEngine: () => ({ 'zh-CN': '没有说话人识别引擎', 'en-US': 'There is no speaker recognition engine' }),
    refused: (detail) => ({ 'zh-CN': `说话人识别引擎无法处理此音频：${detail}`, 'en-US': `The speaker recognition engine could not handle this audio: ${detail}` }),
    interrupted: { 'zh-CN': '服务中断：目前没有可用的说话人识别节点，请稍后再试', 'en-US': 'Service interrupted: no speaker recognition node is available right now. Try again later.' },
  },
  console: {
    icon: 'person',
    title: { 'zh-CN': '说话人识别节点', 'en-US': 'Speaker recognition nodes' },
    help: {
      'zh-CN': '声纹识别在正在运行且健康的说话人识别节点上登记和识别说话人，与语言无关。内置节点在本机计算声纹；如需更多处理能力或其他模型，请添加远程节点（GPU 上的说话人嵌入服务）。识别方法改变时，已登记的说话人会重新训练。',
      'en-US': 'Voiceprint recognition enrols and identifies speakers on a running, healthy speaker node, in any language. The built-in node computes voiceprints on this machine; add a remote node (a speaker-embedding server on a GPU) for more capacity or another model. Speakers enrolled on one method are retrained when the method changes.',
    },
    addNode: { 'zh-CN': '添加说话人识别节点', 'en-US': 'Add speaker node' },
    noNodes: { 'zh-CN': '没有说话人识别节点', 'en-US': 'No speaker recognition node' },
  },
};

interface SpeakerRequestBase {
  /** The method the caller's stored bytes belong to: only nodes of it are used (503 when none is up). */
  method?: string;
  /** The speaker node (its id) that must answer; 400 when it does not exist, is not a speaker node or is stopped. */
  nodeId?: number;
  signal?: AbortSignal;
}

export interface SpeakerTrainRequest extends SpeakerRequestBase {
  recordings: Uint8Array[];
  /** Makes a training repeatable (a group's id). */
  seed?: number;
}

export interface SpeakerEnrolRequest extends SpeakerRequestBase {
  recordings: Uint8Array[];
  background: Uint8Array | null;
}

export interface SpeakerScoreRequest extends SpeakerRequestBase {
  recording: Uint8Array;
  speakers: Uint8Array[];
  background: Uint8Array | null;
}

/** Which node answered, of which kind and method. */
export interface SpeakerAnswer {
  method: string;
  /** The answering kind's suggested decision threshold (`SpeakerAdapter.threshold`), if it has one. */
  threshold?: number;
  nodeId: number;
  kind: string;
}

/** A speaker node a caller may choose (`ctx.engines.speaker.nodes`). */
export interface SpeakerNodeChoice {
  id: number;
  name: string;
  kind: string;
  languages: string[];
  /** Running and healthy now. */
  ready: boolean;
  /** The method of its representations, when it is ready: an area sees whether its stored bytes can still be scored. */
  method?: string;
  /** Its kind's suggested decision threshold for that method (`SpeakerAdapter.threshold`), when it is ready and has one. */
  threshold?: number;
}

/** `ctx.engines.speaker`: speaker recognition through the speaker nodes the platform runs. */
export interface SpeakerService {
  /** The speaker nodes left running. */
  nodes(): Promise<SpeakerNodeChoice[]>;
  /**
   * The method a request without `method` gets now (the least busy healthy node's), or null when no
   * speaker node is up: an area whose stored bytes are of another method retrains.
   */
  method(): Promise<string | null>;
  train(request: SpeakerTrainRequest): Promise<SpeakerAnswer & { background: Uint8Array | null }>;
  enrol(request: SpeakerEnrolRequest): Promise<SpeakerAnswer & { representation: Uint8Array }>;
  score(request: SpeakerScoreRequest): Promise<SpeakerAnswer & SpeakerScores>;
}

/**
 * The rate of every recording a speaker engine is given (16 kHz mono WAV): the contract's, so that
 * areas extract audio at it; the model package @linguaport/speaker-model computes its features at the same rate.
 */
export const VOICE_SAMPLE_RATE = 16_000;

/** 16 kHz mono samples (-1..1) of a 16-bit WAV recording; anything else is the request's fault (`rejected`). */
export function speakerWavSamples(wav: Uint8Array): Float32Array {
  let pcm;
  try {
    pcm = readWavPcm(wav);
  } catch (err) {
    if (err instanceof MediaError) throw new EngineError('rejected', `not a WAV recording: ${err.message}`);
    throw err;
  }
  if (pcm.sampleRate !== VOICE_SAMPLE_RATE || pcm.channels !== 1) throw new EngineError('rejected', `the recording must be 16 kHz mono, not ${pcm.sampleRate} Hz with ${pcm.channels} channels`);
  return Float32Array.from(pcm.samples, (s) => s / 32768);
}
