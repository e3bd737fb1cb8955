import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordErrorRate } from '@linguaport/sdk/server';
import { runMigrations } from '../../src/db/migrations.js';
import { translationMigrations } from '../../src/translation/migrations.js';
import { createAdapterRegistry } from '../../src/translation/adapters.js';
import { createTranslationService, type TranslationService } from '../../src/translation/service.js';
import { pocketsphinxDefinition } from '../../../../plugins/engine-pocketsphinx/server/definition.js';
import { openTestDatabase, type TestDatabase } from '../support/test-database.js';
import { requireTool } from '@linguaport/sdk/testing';

// Speech routing (ctx.engines.speech) on real speech: espeak-ng says a sentence, ffmpeg makes it 16 kHz
// mono, Debian's pocketsphinx (its kind registered as the engine-pocketsphinx plugin registers it)
// recognises it on the seeded node. The adapter's own tests are in plugins/engine-pocketsphinx.
const installed =
  requireTool('pocketsphinx_continuous', { files: ['/usr/share/pocketsphinx/model/en-us/en-us/mdef'], debian: 'pocketsphinx pocketsphinx-en-us' }) &&
  requireTool('espeak-ng', { debian: 'espeak-ng' }) &&
  requireTool('ffmpeg', { debian: 'ffmpeg' });
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

describe('word error rate', () => {
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
    const adapters = createAdapterRegistry();
    adapters.register(pocketsphinxDefinition(), 'engine-pocketsphinx');
    service = createTranslationService({ db: t.database.db, dataDir: t.dataDir, logger: quiet, readSetting: async () => null, adapters });
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
});
