import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordErrorRate } from '@linguaport/sdk/server';
import { runMigrations } from '../../src/db/migrations.js';
import { translationMigrations } from '../../src/translation/migrations.js';
import { createPocketsphinxAdapter, readPocketsphinxTimes } from '../../src/translation/pocketsphinx/adapter.js';
import { createTranslationService, type TranslationService } from '../../src/translation/service.js';
import { openTestDatabase, type TestDatabase } from '../support/test-database.js';

// The built-in speech engine on real speech: espeak-ng says a sentence, ffmpeg makes it 16 kHz mono,
// Debian's pocketsphinx recognises it through ctx.engines.speech with the seeded node.
const installed = existsSync('/usr/bin/pocketsphinx_continuous') && existsSync('/usr/share/pocketsphinx/model/en-us/en-us/mdef') && existsSync('/usr/bin/espeak-ng');
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const SENTENCE = 'The children are playing in the park.';

/** Speech of `text` as a 16 kHz mono WAV (espeak's full-scale output halved: it clips the decoder's front end less). */
function speak(text: string, dir: string, name = 'speech'): Uint8Array {
  const raw = join(dir, `${name}-raw.wav`);
  const wav = join(dir, `${name}.wav`);
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '120', '-w', raw, text]);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', raw, '-af', 'volume=0.5', '-ar', '16000', '-ac', '1', wav]);
  return new Uint8Array(readFileSync(wav));
}

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

  it('computes word error rate as word edits over the reference', () => {
    expect(wordErrorRate('the cat sat', 'the cat sat')).toBe(0);
    expect(wordErrorRate('The cat sat.', 'the bat sat on')).toBeCloseTo(2 / 3);
    expect(wordErrorRate('a b c d', '')).toBe(1);
  });
});

describe.skipIf(!installed)('speech through the seeded pocketsphinx node', () => {
  let t: TestDatabase;
  let service: TranslationService | null = null;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'speech-test-'));
    t = await openTestDatabase();
    await runMigrations(t.database, 'core.translation', translationMigrations);
    service = createTranslationService({ db: t.database.db, dataDir: t.dataDir, logger: quiet, readSetting: async () => null });
    await service.start();
  });
  afterAll(async () => {
    await service?.close();
    await t?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('recognises a clear English sentence with monotonic timings', async () => {
    const audio = speak(SENTENCE, dir);
    const started = performance.now();
    const result = await service!.speech.transcribe({ audio, language: 'en', userId: 1 });
    const seconds = (performance.now() - started) / 1000;
    const node = await t.database.db.selectFrom('engine_nodes').select(['id', 'health', 'languages']).where('kind', '=', 'pocketsphinx-local').executeTakeFirstOrThrow();
    expect(result).toMatchObject({ language: 'en', kind: 'pocketsphinx-local', nodeId: node.id });
    expect(node).toMatchObject({ health: 'healthy', languages: ['en'] });
    const text = result.segments.map((s) => s.text).join(' ');
    const wer = wordErrorRate(SENTENCE, text);
    const duration = (audio.byteLength - 44) / 32_000;
    console.log(`pocketsphinx: "${text}" WER ${wer.toFixed(2)}, ${seconds.toFixed(2)} s for ${duration.toFixed(2)} s of audio`);
    expect(wer).toBeLessThan(0.6);
    let last = 0;
    for (const segment of result.segments) {
      expect(segment.start).toBeLessThanOrEqual(segment.end);
      expect(segment.start).toBeGreaterThanOrEqual(last);
      for (const word of segment.words ?? []) {
        expect(word.start).toBeGreaterThanOrEqual(last);
        expect(word.end).toBeGreaterThanOrEqual(word.start);
        last = word.end;
      }
      last = segment.end;
    }
    expect(last).toBeLessThanOrEqual(duration + 0.05);
    expect(await service!.speech.languages()).toEqual(['en']);
  }, 60_000);

  it('answers 400 for a language no speech node recognises, and for no audio', async () => {
    const audio = speak('Hello.', dir, 'hello');
    await expect(service!.speech.transcribe({ audio, language: 'de' })).rejects.toMatchObject({ name: 'ApiError', code: 400, messages: { 'en-US': 'No speech engine recognises German' } });
    await expect(service!.speech.transcribe({ audio: new Uint8Array(10), language: 'en' })).rejects.toMatchObject({ code: 400 });
  });

  it('answers 503 when the only English node is stopped, and recognises again once it runs', async () => {
    const audio = speak('Good morning.', dir, 'morning');
    const node = await t.database.db.selectFrom('engine_nodes').select('id').where('kind', '=', 'pocketsphinx-local').executeTakeFirstOrThrow();
    await service!.nodes.stop(node.id);
    await expect(service!.speech.transcribe({ audio, language: 'en' })).rejects.toMatchObject({ code: 503 });
    await service!.nodes.start(node.id);
    expect((await service!.speech.transcribe({ audio, language: 'en' })).segments.length).toBeGreaterThan(0);
  }, 60_000);

  it('reports a missing decoder as unhealthy with the Debian package to install', async () => {
    const adapter = createPocketsphinxAdapter({ timeoutMs: 5000, command: '/nonexistent/pocketsphinx_continuous' });
    expect(await adapter.health()).toEqual({ ok: false, detail: expect.stringContaining('Debian package pocketsphinx') });
    await expect(adapter.transcribe(speak('Yes.', dir, 'yes'), { language: 'en' })).rejects.toMatchObject({ name: 'EngineError', kind: 'unavailable' });
    await expect(createPocketsphinxAdapter({ timeoutMs: 5000 }).transcribe(new Uint8Array(100), { language: 'fr' })).rejects.toMatchObject({ kind: 'unsupported-pair' });
  });
});
