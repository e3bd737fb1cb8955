import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A protocol-faithful transcription server on 127.0.0.1, as whisper.cpp's server and the
 * faster-whisper servers answer OpenAI's `POST /v1/audio/transcriptions`: it parses the multipart
 * body, refuses what they refuse (no file, a file that is not a WAV, a model it does not serve, an
 * unknown response format, a missing key), finds the stretches of speech in the WAV by their energy
 * and answers `verbose_json` with one segment per stretch, its times measured from the audio and its
 * text the next line of `script` (the peer cannot understand speech; the test says what was said).
 */
export interface WhisperPeerOptions {
  apiKey?: string;
  models?: string[];
  /** The text of each stretch of speech, in order. */
  script?: string[];
  /** `no-segments`: answers verbose_json without its segments; `down`: 503 to everything. */
  misbehave?: 'no-segments' | 'down';
}

export interface WhisperPeerRequest {
  model: string;
  language: string | null;
  responseFormat: string;
  granularities: string[];
  fileName: string;
  fileType: string;
  bytes: number;
}

export interface WhisperPeer {
  url: string;
  /** The peer's behaviour, changeable while it runs (a test makes it fail mid-way). */
  options: WhisperPeerOptions;
  requests: WhisperPeerRequest[];
  close(): Promise<void>;
}

/** Stretches of a 16-bit mono WAV louder than a floor for at least 0.15 s, apart by 0.35 s of quiet. */
export function voicedStretches(wav: Buffer): { start: number; end: number }[] {
  if (wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a WAV file');
  let offset = 12;
  let rate = 0;
  let channels = 0;
  let bits = 0;
  let data: Buffer | null = null;
  while (offset + 8 <= wav.length) {
    const id = wav.toString('ascii', offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    if (id === 'fmt ') {
      channels = wav.readUInt16LE(offset + 10);
      rate = wav.readUInt32LE(offset + 12);
      bits = wav.readUInt16LE(offset + 22);
    } else if (id === 'data') data = wav.subarray(offset + 8, Math.min(wav.length, offset + 8 + size));
    offset += 8 + size + (size % 2);
  }
  if (!data || bits !== 16 || channels !== 1 || !rate) throw new Error('not 16-bit mono PCM');
  const frame = Math.round(rate * 0.02);
  const loud: boolean[] = [];
  for (let i = 0; i + frame * 2 <= data.length; i += frame * 2) {
    let sum = 0;
    for (let j = 0; j < frame; j++) sum += data.readInt16LE(i + j * 2) ** 2;
    loud.push(Math.sqrt(sum / frame) > 500);
  }
  const out: { start: number; end: number }[] = [];
  let from = -1;
  let quiet = 0;
  for (let i = 0; i <= loud.length; i++) {
    if (i < loud.length && loud[i]) {
      if (from < 0) from = i;
      quiet = 0;
    } else if (from >= 0 && (++quiet >= 18 || i === loud.length)) {
      const end = i - quiet + 1;
      if (end - from >= 8) out.push({ start: (from * 0.02), end: end * 0.02 });
      from = -1;
      quiet = 0;
    }
  }
  return out.map((s) => ({ start: Math.round(s.start * 100) / 100, end: Math.round(s.end * 100) / 100 }));
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startWhisperPeer(options: WhisperPeerOptions = {}): Promise<WhisperPeer> {
  const models = options.models ?? ['whisper-1'];
  const requests: WhisperPeerRequest[] = [];
  const server = createServer(async (req, res) => {
    try {
      if (options.misbehave === 'down') return send(res, 503, { error: { message: 'server overloaded' } });
      if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) return send(res, 401, { error: { message: 'Incorrect API key provided' } });
      if (req.method === 'GET' && req.url === '/v1/models') return send(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model' })) });
      if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') return send(res, 404, { error: { message: 'not found' } });
      const type = req.headers['content-type'] ?? '';
      if (!type.startsWith('multipart/form-data')) return send(res, 400, { error: { message: 'expected multipart/form-data' } });
      const form = await new Request('http://peer/', { method: 'POST', headers: { 'content-type': type }, body: new Uint8Array(await readBody(req)) }).formData();
      const file = form.get('file');
      if (!(file instanceof Blob)) return send(res, 400, { error: { message: 'file is required' } });
      const entry = {
        model: String(form.get('model') ?? ''),
        language: form.get('language') === null ? null : String(form.get('language')),
        responseFormat: String(form.get('response_format') ?? 'json'),
        granularities: form.getAll('timestamp_granularities[]').map(String),
        fileName: (file as File).name ?? '',
        fileType: file.type,
        bytes: file.size,
      };
      requests.push(entry);
      if (!models.includes(entry.model)) return send(res, 404, { error: { message: `model ${entry.model} not found` } });
      if (!['json', 'text', 'verbose_json', 'srt', 'vtt'].includes(entry.responseFormat)) return send(res, 400, { error: { message: `unknown response_format ${entry.responseFormat}` } });
      if (entry.language !== null && !/^[a-z]{2,3}$/.test(entry.language)) return send(res, 400, { error: { message: `unknown language ${entry.language}` } });
      let stretches: { start: number; end: number }[];
      try {
        stretches = voicedStretches(Buffer.from(await file.arrayBuffer()));
      } catch (err) {
        return send(res, 400, { error: { message: `invalid audio file: ${(err as Error).message}` } });
      }
      const script = options.script ?? [];
      const segments = stretches.map((s, id) => ({ id, seek: 0, start: s.start, end: s.end, text: ` ${script[id] ?? '(speech)'}`, tokens: [], temperature: 0, avg_logprob: -0.2, compression_ratio: 1.2, no_speech_prob: 0.01 }));
      const text = segments.map((s) => s.text).join('');
      if (entry.responseFormat !== 'verbose_json') return send(res, 200, { text });
      const duration = Math.max(0, file.size - 44) / 32_000;
      send(res, 200, options.misbehave === 'no-segments' ? { task: 'transcribe', language: entry.language, duration, text } : { task: 'transcribe', language: entry.language ?? 'en', duration, text, segments });
    } catch (err) {
      send(res, 500, { error: { message: (err as Error).message } });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    options,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
