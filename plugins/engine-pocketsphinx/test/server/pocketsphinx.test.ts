import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordErrorRate } from '@linguaport/sdk/server';
import { ADMIN_PASSWORD, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';
import { createPocketsphinxAdapter, readPocketsphinxTimes } from '../../server/adapter.js';

// The built-in speech engine: its output reader on a decoder transcript, the adapter on real speech
// (espeak-ng, made 16 kHz mono by ffmpeg, recognised by Debian's pocketsphinx), the refusals, and the
// kind registered by this plugin in a kernel, where the seeded node runs and reports English.

const SENTENCE = 'The children are playing in the park.';
let dir: string;

/** Speech of `text` as a 16 kHz mono WAV (espeak's full-scale output halved: it clips the decoder's front end less). */
function speak(text: string, name = 'speech'): Uint8Array {
  const raw = join(dir, `${name}-raw.wav`);
  const wav = join(dir, `${name}.wav`);
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '120', '-w', raw, text]);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', raw, '-af', 'volume=0.5', '-ar', '16000', '-ac', '1', wav]);
  return new Uint8Array(readFileSync(wav));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pocketsphinx-test-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('pocketsphinx output', () => {
  it('reads utterances with word times, dropping fillers and alternate-pronunciation marks', () => {
    const out = ['hello the world', '<s> 0.000 0.220 0.998', 'hello 0.230 0.500 0.9', '<sil> 0.510 0.700 0.99', 'the(2) 0.710 0.800 0.5', 'world 0.810 1.200 0.7', '</s> 1.210 1.400 1.0', 'again', '<s> 2.000 2.100 1.0', '[NOISE] 2.100 2.300 0.2', 'again 2.310 2.800 0.6', '</s> 2.810 3.000 1.0', '<s> 3.100 3.200 1.0', '</s> 3.210 3.400 1.0'].join('\n');
    expect(readPocketsphinxTimes(out)).toEqual([
      { start: 0.23, end: 1.2, text: 'hello the world', confidence: 0.7, words: [
        { text: 'hello', start: 0.23, end: 0.5, confidence: 0.9 },
        { text: 'the', start: 0.71, end: 0.8, confidence: 0.5 },
        { text: 'world', start: 0.81, end: 1.2, confidence: 0.7 },
      ] },
      { start: 2.31, end: 2.8, text: 'again', confidence: 0.6, words: [{ text: 'again', start: 2.31, end: 2.8, confidence: 0.6 }] },
    ]);
  });
});

describe('pocketsphinx adapter', () => {
  it('recognises a clear English sentence with monotonic word times', async () => {
    const audio = speak(SENTENCE);
    const adapter = createPocketsphinxAdapter({ timeoutMs: 30_000 });
    expect(await adapter.health()).toEqual({ ok: true });
    expect(await adapter.languages()).toEqual(['en']);
    const started = performance.now();
    const segments = await adapter.transcribe(audio, { language: 'en-US' });
    const seconds = (performance.now() - started) / 1000;
    const text = segments.map((s) => s.text).join(' ');
    const wer = wordErrorRate(SENTENCE, text);
    const duration = (audio.byteLength - 44) / 32_000;
    console.log(`pocketsphinx: "${text}" WER ${wer.toFixed(2)}, ${seconds.toFixed(2)} s for ${duration.toFixed(2)} s of audio`);
    expect(wer).toBeLessThan(0.6);
    let last = 0;
    for (const segment of segments) {
      expect(segment.start).toBeGreaterThanOrEqual(last);
      for (const word of segment.words ?? []) {
        expect(word.start).toBeGreaterThanOrEqual(last);
        expect(word.end).toBeGreaterThanOrEqual(word.start);
        last = word.end;
      }
      last = segment.end;
    }
    expect(last).toBeLessThanOrEqual(duration + 0.05);
    // The next request goes to the decoder started (model loaded) once this one finished: same words.
    const again = await adapter.transcribe(audio, { language: 'en' });
    expect(again.map((s) => s.text).join(' ')).toBe(text);
    // A file that is no 16-bit PCM WAV is refused as such.
    await expect(adapter.transcribe(new TextEncoder().encode('not audio at all'), { language: 'en' })).rejects.toMatchObject({ name: 'EngineError', kind: 'rejected' });
  }, 60_000);

  it('reports a missing decoder as unhealthy with the Debian package to install, and refuses other languages', async () => {
    const adapter = createPocketsphinxAdapter({ timeoutMs: 5000, command: '/nonexistent/pocketsphinx_continuous' });
    expect(await adapter.health()).toEqual({ ok: false, detail: expect.stringContaining('Debian package pocketsphinx') });
    await expect(adapter.transcribe(speak('Yes.', 'yes'), { language: 'en' })).rejects.toMatchObject({ name: 'EngineError', kind: 'unavailable' });
    const noModel = createPocketsphinxAdapter({ timeoutMs: 5000, model: join(dir, 'no-model') });
    expect(await noModel.health()).toEqual({ ok: false, detail: expect.stringContaining('Debian package pocketsphinx-en-us') });
    await expect(createPocketsphinxAdapter({ timeoutMs: 5000 }).transcribe(new Uint8Array(100), { language: 'fr' })).rejects.toMatchObject({ kind: 'unsupported-pair' });
  });
});

describe('pocketsphinx in a kernel', () => {
  let k: TestKernel;
  afterAll(async () => k?.shutdown());

  it('registers the pocketsphinx-local kind from this plugin; the seeded node runs and recognises English', async () => {
    k = await startTestKernel({ plugins: ['service', 'engine-pocketsphinx'] });
    const admin = await k.login('admin', ADMIN_PASSWORD);
    const kinds = (await k.call('GET', '/api/translServiceNode/kinds', admin)).body.data as { kind: string; capability: string; plugin: string; local: boolean }[];
    expect(kinds.find((x) => x.kind === 'pocketsphinx-local')).toMatchObject({ capability: 'speech', plugin: 'engine-pocketsphinx', local: true });
    const listed = (await k.call('GET', '/api/translServiceNode/speechNodes', admin)).body.data as { id: number; kind: string; languages: string[] }[];
    const node = listed.find((n) => n.kind === 'pocketsphinx-local')!;
    expect(node.languages).toEqual(['en']);
    const checked = await k.call('GET', `/api/translServiceNode/startTranslationService?id=${node.id}`, admin);
    expect(checked.body.data, checked.body.msg).toMatchObject({ health: 'healthy' });
  }, 60_000);
});
