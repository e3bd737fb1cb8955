import { z } from 'zod';
import {
  ANY_LANGUAGE,
  EngineError,
  engineFetch,
  errorForStatus,
  parseJson,
  speakerWavSamples,
  trimSlash,
  type EngineHealth,
  type SpeakerAdapter,
  type SpeakerAdapterDefinition,
  speakerCapability,
} from '@linguaport/sdk/server';
import { floatBytes, floatsOf, voiceFeatures } from '@linguaport/speaker-model';

/**
 * A remote speaker node speaking PaddleSpeech Server's vector API (`paddlespeech_server start` with the
 * `vector_python` engine, an ECAPA-TDNN model on a GPU; port 8090 by default):
 * `POST {base}/paddlespeech/vector` with `{"audio": "<base64 WAV>", "task": "spk", "audio_format": "wav",
 * "sample_rate": 16000}`, answered with `{"success": true, "code": 200, "message": {"description": "success"},
 * "result": {"vec": [...]}}`; a failure has `success: false` and says why in `message.description`.
 * `GET {base}/paddlespeech/vector/help` answers when the vector engine is served. The embedding of a
 * speaker is the normalised mean of their recordings' normalised embeddings; scores are cosine
 * similarities (-1..1), computed here. The method needs no background model (`train` gives null).
 */

export interface SpeakerEmbeddingOptions {
  /** The server, e.g. `http://10.0.0.7:8090`. */
  url: string;
  /** The served model (the server does not say it): embeddings of two models cannot be compared. */
  model: string;
  timeoutMs?: number;
  /** The cosine from which a recording is taken for the speaker (`EMBEDDING_THRESHOLD` when not given). */
  threshold?: number;
}

/**
 * The cosine threshold suggested when a node names none. Cosines of a speaker model's embeddings depend
 * on the model: ECAPA-TDNN models trained on VoxCeleb put the equal-error point between about 0.25 and
 * 0.6; 0.5 leans towards "unknown" rather than a wrong name. Measured against the loopback peer's
 * cepstral embeddings (`startVectorPeer` of the SDK's testing), same-speaker cosines were 0.98-0.99 and other voices up to 0.99:
 * a node's own model calls for its own value, set on the node (`threshold`).
 */
export const EMBEDDING_THRESHOLD = 0.5;

const replyShape = z.object({
  success: z.boolean(),
  message: z.object({ description: z.string().optional() }).partial().optional(),
  result: z.object({ vec: z.array(z.number().finite()).min(1) }).optional(),
});

/** `v` scaled to length 1 (a zero vector stays zero). */
export function unitVector(v: ArrayLike<number>): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
  norm = Math.sqrt(norm);
  return Float32Array.from(v, (x) => (norm > 0 ? x / norm : 0));
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

export function createSpeakerEmbeddingAdapter(options: SpeakerEmbeddingOptions): SpeakerAdapter {
  const root = trimSlash(options.url);
  const timeoutMs = options.timeoutMs ?? 120_000;

  /** The server's embedding of one recording (checked to hold speech first: a silent file is the request's fault). */
  async function embed(wav: Uint8Array, signal?: AbortSignal): Promise<{ vec: Float32Array; speechSeconds: number }> {
    const { speechSeconds } = voiceFeatures(speakerWavSamples(wav));
    if (speechSeconds === 0) throw new EngineError('rejected', 'the recording holds no speech');
    const res = await engineFetch(`${root}/paddlespeech/vector`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ audio: Buffer.from(wav).toString('base64'), task: 'spk', audio_format: 'wav', sample_rate: 16000 }),
      signal,
      timeoutMs,
    });
    // No vector route: the node's configuration (a server without the vector engine), not this recording.
    if (res.status === 404) throw new EngineError('unavailable', 'PaddleSpeech: the server does not serve the vector engine (HTTP 404)', 404);
    const body = parseJson(res, 'PaddleSpeech');
    if (res.status < 200 || res.status >= 300) throw errorForStatus(res.status, `PaddleSpeech: HTTP ${res.status}`);
    const reply = replyShape.safeParse(body);
    if (!reply.success) throw new EngineError('bad-response', `PaddleSpeech answer is not {success, message, result: {vec}}: ${reply.error.issues[0]?.message ?? ''}`);
    if (!reply.data.success) throw new EngineError('rejected', `PaddleSpeech could not embed the recording: ${reply.data.message?.description || 'no reason given'}`);
    if (!reply.data.result) throw new EngineError('bad-response', 'PaddleSpeech answered success without a vector');
    return { vec: unitVector(reply.data.result.vec), speechSeconds };
  }

  return {
    kind: 'paddlespeech-vector',
    method: `embedding/paddlespeech/${options.model}`,
    threshold: options.threshold ?? EMBEDDING_THRESHOLD,
    languages: async () => [ANY_LANGUAGE],
    async health(): Promise<EngineHealth> {
      const started = performance.now();
      try {
        const res = await engineFetch(`${root}/paddlespeech/vector/help`, { timeoutMs: Math.min(timeoutMs, 10_000) });
        const latencyMs = Math.round(performance.now() - started);
        if (res.status >= 400) return { ok: false, detail: `/paddlespeech/vector/help: HTTP ${res.status}`, latencyMs };
        return { ok: true, latencyMs };
      } catch (err) {
        return { ok: false, detail: (err as Error).message };
      }
    },
    async train() {
      return null;
    },
    async enrol(recordings, { signal }) {
      const vecs: Float32Array[] = [];
      for (const wav of recordings) vecs.push((await embed(wav, signal)).vec);
      const dims = vecs[0]!.length;
      if (vecs.some((v) => v.length !== dims)) throw new EngineError('bad-response', 'PaddleSpeech answered embeddings of different sizes');
      return floatBytes(unitVector(Array.from({ length: dims }, (_, i) => vecs.reduce((s, v) => s + v[i]!, 0))));
    },
    async score(recording, speakers, { signal }) {
      const { vec, speechSeconds } = await embed(recording, signal);
      const enrolled = speakers.map((s) => floatsOf(s));
      if (enrolled.some((e) => e.length !== vec.length)) throw new EngineError('rejected', `a speaker embedding is not of ${options.model} (${vec.length} values)`);
      return { scores: enrolled.map((e) => Math.round(dot(vec, e) * 10000) / 10000), speechSeconds };
    },
  };
}

/** A node's own fields: the server and the model it serves. */
export const speakerEmbeddingConfig = z.object({
  baseUrl: z.string().url(),
  model: z.string().trim().regex(/^[A-Za-z0-9_.-]{1,100}$/).default('ecapatdnn_voxceleb12'),
  /** The cosine from which a recording is taken for the speaker, for the served model. */
  threshold: z.coerce.number().gt(-1).lt(1).default(EMBEDDING_THRESHOLD),
});

export const speakerEmbeddingDefinition: SpeakerAdapterDefinition<z.infer<typeof speakerEmbeddingConfig>> = {
  kind: 'paddlespeech-vector',
  name: { 'zh-CN': '说话人嵌入（PaddleSpeech 服务）', 'en-US': 'Speaker embedding (PaddleSpeech Server)' },
  capability: speakerCapability,
  config: speakerEmbeddingConfig,
  fields: {
    baseUrl: { label: { 'zh-CN': '服务地址', 'en-US': 'Server address' }, placeholder: 'http://10.0.0.7:8090' },
    model: {
      label: { 'zh-CN': '声纹模型', 'en-US': 'Speaker model' },
      help: { 'zh-CN': '服务所加载的声纹模型名称；更换模型后已登记的说话人会重新训练', 'en-US': 'The speaker model the server loads; speakers are retrained when it changes' },
      placeholder: 'ecapatdnn_voxceleb12',
    },
    threshold: {
      label: { 'zh-CN': '判定阈值（余弦）', 'en-US': 'Decision threshold (cosine)' },
      help: { 'zh-CN': '余弦相似度达到此值才认定为该说话人；取决于所加载的模型，默认 0.5', 'en-US': 'A recording is taken for a speaker from this cosine similarity on; it depends on the served model (0.5 by default)' },
      placeholder: '0.5',
    },
  },
  create(node, helpers) {
    return createSpeakerEmbeddingAdapter({ url: node.config.baseUrl, model: node.config.model, threshold: node.config.threshold, timeoutMs: Math.max(helpers.timeoutMs, 60_000) });
  },
};
