import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';
import { inScratch, runTool } from '@linguaport/sdk/server';
import { extractAudio } from '@linguaport/media';
import { createVoiceprintAdapter, VOICEPRINT_METHOD, VOICEPRINT_THRESHOLD } from '../../server/definition.js';

// The built-in speaker engine on speech made with espeak-ng (two voices that differ as two people do in
// what MFCC sees), as 16 kHz mono WAV through ffmpeg: a background model, enrolment, scores that put
// each speaker's held-out sentence on that speaker, the refusals; then the kind and its seeded node in a
// kernel (the routing of ctx.engines.speaker to it: core/server/test/translation/speaker-routing.test.ts).

const VOICES = { anna: ['en-us+f3', '70', '160'], boris: ['en+m3', '40', '150'] } as const;

async function speak(who: keyof typeof VOICES, text: string, rate = 16000): Promise<Uint8Array> {
  const [voice, pitch, speed] = VOICES[who];
  return inScratch(async (dir) => {
    await runTool('espeak-ng', ['-v', voice, '-p', pitch, '-s', speed, '-w', join(dir, 'in.wav'), text], { timeoutMs: 30_000 });
    await extractAudio(join(dir, 'in.wav'), join(dir, 'out.wav'), { sampleRate: rate, channels: 1, timeoutMs: 30_000 });
    return new Uint8Array(await readFile(join(dir, 'out.wav')));
  });
}

const ENROL = ['The quick brown fox jumps over the lazy dog near the river bank.', 'We will meet again on Thursday afternoon at the small cafe by the station.'];
const HELD_OUT = 'Please remember to bring the documents and the keys when you come back tomorrow.';

describe('voiceprint-local adapter', () => {
  const adapter = createVoiceprintAdapter();

  it('trains, enrols and scores: each held-out sentence scores highest on its own speaker', async () => {
    expect(await adapter.health()).toEqual({ ok: true });
    expect(await adapter.languages()).toEqual(['*']);
    expect(adapter.method).toBe(VOICEPRINT_METHOD);
    expect(adapter.threshold).toBe(VOICEPRINT_THRESHOLD);
    const enrol = { anna: await Promise.all(ENROL.map((t) => speak('anna', t))), boris: await Promise.all(ENROL.map((t) => speak('boris', t))) };
    const background = (await adapter.train([...enrol.anna, ...enrol.boris], { seed: 1 }))!;
    expect(background.byteLength).toBeGreaterThan(1000);
    const speakers = [await adapter.enrol(enrol.anna, { background }), await adapter.enrol(enrol.boris, { background })];
    const anna = await adapter.score(await speak('anna', HELD_OUT), speakers, { background });
    const boris = await adapter.score(await speak('boris', HELD_OUT), speakers, { background });
    expect(anna.speechSeconds).toBeGreaterThan(1);
    expect(anna.scores[0]).toBeGreaterThan(anna.scores[1]!);
    expect(boris.scores[1]).toBeGreaterThan(boris.scores[0]!);
    // The margins, for the record (log-likelihood ratios).
    console.info(`voiceprint-local margins: anna ${(anna.scores[0]! - anna.scores[1]!).toFixed(3)}, boris ${(boris.scores[1]! - boris.scores[0]!).toFixed(3)}`);

    // Refusals are the request's fault (`rejected`: 400 through the kernel), never a failed node.
    await expect(adapter.score(new TextEncoder().encode('not audio at all, just some text'), speakers, { background })).rejects.toMatchObject({ name: 'EngineError', kind: 'rejected' });
    await expect(adapter.score(await speak('anna', 'Hello there', 8000), speakers, { background })).rejects.toMatchObject({ kind: 'rejected', message: expect.stringContaining('16 kHz mono') });
    await expect(adapter.enrol(enrol.anna, { background: null })).rejects.toMatchObject({ kind: 'rejected' });
    await expect(adapter.score(enrol.anna[0]!, [new Uint8Array(12)], { background })).rejects.toMatchObject({ kind: 'rejected' });
  }, 120_000);
});

describe('voiceprint-local in a kernel', () => {
  let k: TestKernel;
  afterAll(async () => k?.shutdown());

  it('registers the kind and seeds its node running, healthy for any language (ctx.engines.speaker: core speaker-routing.test.ts)', async () => {
    k = await startTestKernel({ plugins: ['service', 'engine-voiceprint-local'] });
    const admin = await k.login('admin', ADMIN_PASSWORD);
    const kinds = (await k.call('GET', '/api/translServiceNode/kinds', admin)).body.data as { kind: string; capability: string; plugin: string; local: boolean }[];
    expect(kinds.find((x) => x.kind === 'voiceprint-local')).toMatchObject({ capability: 'speaker', plugin: 'engine-voiceprint-local', local: true });
    const rows = await k.database.db.selectFrom('engine_nodes').select(['id', 'desired_state']).where('kind', '=', 'voiceprint-local').execute();
    expect(rows).toEqual([{ id: expect.any(Number), desired_state: 'running' }]);
    const id = rows[0]!.id as number;
    const started = await k.call('GET', `/api/translServiceNode/startTranslationService?id=${id}`, admin);
    expect(started.body.data, started.body.msg).toMatchObject({ health: 'healthy' });
    const listed = (await k.call('GET', '/api/translServiceNode/speakerNodes', admin)).body.data as { id: number; languages: string[]; health: string }[];
    expect(listed).toEqual([expect.objectContaining({ id, languages: ['*'], health: 'healthy' })]);

  }, 120_000);
});
