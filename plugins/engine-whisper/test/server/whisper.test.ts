// Database: none
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWhisperAdapter, whisperConfig } from '../../server/adapter.js';
import { startWhisperPeer, voicedStretches, type WhisperPeer } from '../support/whisper-peer.js';

// The remote speech adapter against a transcription server on 127.0.0.1 that parses the multipart
// request and times its segments from the audio itself (two Spanish sentences said by espeak-ng
// with a second of silence between them, made 16 kHz mono by ffmpeg).

let dir: string;
let wav: Uint8Array;
let peer: WhisperPeer | null = null;
const SCRIPT = ['El gato duerme.', 'La casa es grande.'];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'whisper-test-'));
  execFileSync('espeak-ng', ['-v', 'es', '-w', join(dir, 'a.wav'), SCRIPT[0]!]);
  execFileSync('espeak-ng', ['-v', 'es', '-w', join(dir, 'b.wav'), SCRIPT[1]!]);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', join(dir, 'a.wav'), '-f', 'lavfi', '-i', 'anullsrc=r=22050:cl=mono:d=1', '-i', join(dir, 'b.wav'),
    '-filter_complex', '[0:a][1:a][2:a]concat=n=3:v=0:a=1', '-ar', '16000', '-ac', '1', join(dir, 'speech.wav')]);
  wav = new Uint8Array(readFileSync(join(dir, 'speech.wav')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await peer?.close();
  peer = null;
});

describe('OpenAI-compatible transcription adapter', () => {
  it('sends the WAV as multipart with model, ISO language and verbose_json, and reads timed segments', async () => {
    peer = await startWhisperPeer({ apiKey: 'sk-speech', models: ['large-v3'], script: SCRIPT });
    const engine = createWhisperAdapter({ url: peer.url, model: 'large-v3', apiKey: 'sk-speech', languages: ['es', 'zh-CN'] });
    const segments = await engine.transcribe(wav, { language: 'es' });
    expect(peer.requests).toEqual([{ model: 'large-v3', language: 'es', responseFormat: 'verbose_json', granularities: ['segment'], fileName: 'audio.wav', fileType: 'audio/wav', bytes: wav.byteLength }]);
    expect(segments.map((s) => s.text)).toEqual(SCRIPT);
    // The peer measured two stretches with the second's start after the silence (about 1 s after the first ends).
    const [a, b] = segments;
    expect(a!.start).toBeLessThan(0.3);
    expect(b!.start - a!.end).toBeGreaterThan(0.7);
    expect(b!.end).toBeLessThanOrEqual((wav.byteLength - 44) / 32_000 + 0.05);
    expect(a!.confidence).toBeCloseTo(Math.exp(-0.2), 2);
    expect(await engine.health()).toMatchObject({ ok: true });
    expect(await engine.languages()).toEqual(['es', 'zh-CN']);
    // zh-CN travels as the API's zh.
    await engine.transcribe(wav, { language: 'zh-CN' });
    expect(peer.requests[1]!.language).toBe('zh');
  });

  it('refuses a language the node is not offered for without calling it', async () => {
    peer = await startWhisperPeer();
    const engine = createWhisperAdapter({ url: peer.url, model: 'whisper-1', languages: ['es'] });
    await expect(engine.transcribe(wav, { language: 'fr' })).rejects.toMatchObject({ name: 'EngineError', kind: 'unsupported-pair' });
    expect(peer.requests).toHaveLength(0);
  });

  it('maps a wrong key and an overloaded server to the node, a refused file to the request', async () => {
    peer = await startWhisperPeer({ apiKey: 'right' });
    const wrongKey = createWhisperAdapter({ url: peer.url, model: 'whisper-1', apiKey: 'wrong', languages: ['es'] });
    await expect(wrongKey.transcribe(wav, { language: 'es' })).rejects.toMatchObject({ kind: 'unavailable', status: 401 });
    expect(await wrongKey.health()).toMatchObject({ ok: false });
    const engine = createWhisperAdapter({ url: peer.url, model: 'whisper-1', apiKey: 'right', languages: ['es'] });
    await expect(engine.transcribe(new TextEncoder().encode('not audio at all, just words'), { language: 'es' })).rejects.toMatchObject({ kind: 'rejected', status: 400 });
    await peer.close();
    peer = await startWhisperPeer({ misbehave: 'down' });
    const down = createWhisperAdapter({ url: peer.url, model: 'whisper-1', languages: ['es'] });
    await expect(down.transcribe(wav, { language: 'es' })).rejects.toMatchObject({ kind: 'unavailable', status: 503 });
    expect(await down.health()).toMatchObject({ ok: false, detail: '/models: HTTP 503' });
  });

  it('refuses an answer without segments, and reports an unreachable node', async () => {
    peer = await startWhisperPeer({ misbehave: 'no-segments' });
    await expect(createWhisperAdapter({ url: peer.url, model: 'whisper-1', languages: ['es'] }).transcribe(wav, { language: 'es' })).rejects.toMatchObject({ kind: 'bad-response' });
    const url = peer.url;
    await peer.close();
    peer = null;
    const gone = createWhisperAdapter({ url, model: 'whisper-1', languages: ['es'] });
    await expect(gone.transcribe(wav, { language: 'es' })).rejects.toMatchObject({ kind: 'unavailable' });
    expect(await gone.health()).toMatchObject({ ok: false });
  });

  it('validates a node config: base URL and at least one language', () => {
    expect(whisperConfig.safeParse({ baseUrl: 'http://10.0.0.7:8080/v1', languages: ['es'] })).toMatchObject({ success: true, data: { model: 'whisper-1' } });
    expect(whisperConfig.safeParse({ baseUrl: 'not a url', languages: ['es'] }).success).toBe(false);
    expect(whisperConfig.safeParse({ baseUrl: 'http://10.0.0.7:8080/v1', languages: [] }).success).toBe(false);
  });

  it('finds the stretches of speech the peer times its segments by', () => {
    expect(voicedStretches(Buffer.from(wav))).toHaveLength(2);
  });
});
