import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readWavPcm } from '@linguaport/media';
import { mfccFrames, voicedFrameIndexes } from '@linguaport/speaker-model';

/**
 * A protocol-faithful PaddleSpeech Server vector service on 127.0.0.1, as `paddlespeech_server` with
 * the vector engine answers: `GET /paddlespeech/vector/help`; `POST /paddlespeech/vector` with
 * `{audio: <base64 WAV>, task: "spk", audio_format: "wav", sample_rate: 16000}` answered
 * `{success: true, code: 200, message: {description: "success"}, result: {vec}}`; audio it cannot
 * decode answered 200 with `{success: false, code, message: {description}}`, as its failed_response.
 * The embedding is computed, not canned (the peer has no ECAPA model): the mean and spread of the speaker model's
 * MFCC cepstra over the voiced frames, without cepstral normalisation, so timbre shows in it.
 */
export interface VectorPeerOptions {
  /** `down`: 503 to everything. */
  misbehave?: 'down';
}

export interface VectorPeer {
  url: string;
  options: VectorPeerOptions;
  /** Embeddings it computed. */
  requests: number;
  close(): Promise<void>;
}

const reply = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Mean and standard deviation of each cepstrum (c1..c20) over voiced frames. */
export function cepstralEmbedding(samples: Float32Array): number[] {
  const ceps = 20;
  const { cepstra, energyDb } = mfccFrames(samples, ceps);
  const voiced = voicedFrameIndexes(energyDb);
  if (!voiced.length) throw new Error('no speech in the audio');
  const out: number[] = [];
  for (let d = 0; d < ceps; d++) {
    let sum = 0;
    let sq = 0;
    for (const f of voiced) {
      const x = cepstra[f * ceps + d]!;
      sum += x;
      sq += x * x;
    }
    const mean = sum / voiced.length;
    out.push(mean, Math.sqrt(Math.max(0, sq / voiced.length - mean * mean)));
  }
  return out;
}

export async function startVectorPeer(options: VectorPeerOptions = {}): Promise<VectorPeer> {
  const peer = { requests: 0 };
  const server = createServer(async (req, res) => {
    try {
      if (options.misbehave === 'down') return reply(res, 503, { detail: 'Service Unavailable' });
      const path = new URL(req.url ?? '/', 'http://peer').pathname;
      if (req.method === 'GET' && path === '/paddlespeech/vector/help') return reply(res, 200, { success: 'True', code: 200, message: { global: 'success' }, vector: [2.3, 3.5] });
      if (req.method !== 'POST' || path !== '/paddlespeech/vector') return reply(res, 404, { detail: 'Not Found' });
      let body: { audio?: unknown; task?: unknown; audio_format?: unknown; sample_rate?: unknown };
      try {
        body = JSON.parse((await bodyOf(req)).toString('utf8'));
      } catch {
        return reply(res, 422, { detail: [{ msg: 'invalid JSON' }] });
      }
      if (typeof body.audio !== 'string' || typeof body.task !== 'string' || typeof body.audio_format !== 'string' || typeof body.sample_rate !== 'number') return reply(res, 422, { detail: [{ msg: 'field required' }] });
      try {
        const wav = readWavPcm(Buffer.from(body.audio, 'base64'));
        if (wav.sampleRate !== body.sample_rate || wav.channels !== 1) throw new Error(`the audio is ${wav.sampleRate} Hz, ${wav.channels} channels`);
        const vec = cepstralEmbedding(Float32Array.from(wav.samples, (s) => s / 32768));
        peer.requests++;
        return reply(res, 200, { success: true, code: 200, message: { description: 'success' }, result: { vec } });
      } catch (err) {
        return reply(res, 200, { success: false, code: 555, message: { description: `Failed to process the audio: ${(err as Error).message}` } });
      }
    } catch (err) {
      if (!res.headersSent) reply(res, 500, { detail: (err as Error).message });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    options,
    get requests() {
      return peer.requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
