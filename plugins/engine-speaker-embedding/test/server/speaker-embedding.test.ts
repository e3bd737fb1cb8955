import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestKernel, startVectorPeer, type TestKernel, type VectorPeer } from '@linguaport/sdk/testing';
import { inScratch, runTool } from '@linguaport/sdk/server';
import { extractAudio, writeWavPcm } from '@linguaport/media';
import { createSpeakerEmbeddingAdapter, EMBEDDING_THRESHOLD } from '../../server/adapter.js';

// The PaddleSpeech vector adapter against a protocol-faithful peer on 127.0.0.1 that computes real
// embeddings (cepstral statistics) of espeak-ng speech: enrolment, cosine scores that put each held-out
// sentence on its own speaker, the refusals and a node that is down; then the kind in a kernel.

const VOICES = { anna: ['en-us+f3', '70', '160'], boris: ['en+m3', '40', '150'] } as const;

async function speak(who: keyof typeof VOICES, text: string): Promise<Uint8Array> {
  const [voice, pitch, speed] = VOICES[who];
  return inScratch(async (dir) => {
    await runTool('espeak-ng', ['-v', voice, '-p', pitch, '-s', speed, '-w', join(dir, 'in.wav'), text], { timeoutMs: 30_000 });
    await extractAudio(join(dir, 'in.wav'), join(dir, 'out.wav'), { sampleRate: 16000, channels: 1, timeoutMs: 30_000 });
    return new Uint8Array(await readFile(join(dir, 'out.wav')));
  });
}

const ENROL = ['The quick brown fox jumps over the lazy dog near the river bank.', 'We will meet again on Thursday afternoon at the small cafe by the station.'];
const HELD_OUT = 'Please remember to bring the documents and the keys when you come back tomorrow.';

describe('PaddleSpeech vector adapter', () => {
  let peer: VectorPeer;
  let down: VectorPeer;
  beforeAll(async () => {
    peer = await startVectorPeer();
    down = await startVectorPeer({ misbehave: 'down' });
  });
  afterAll(async () => {
    await peer?.close();
    await down?.close();
  });

  it('enrols and scores by cosine similarity: each held-out sentence is closest to its own speaker', async () => {
    const adapter = createSpeakerEmbeddingAdapter({ url: peer.url, model: 'ecapatdnn_voxceleb12', timeoutMs: 30_000 });
    expect(await adapter.health()).toMatchObject({ ok: true });
    expect(adapter.method).toBe('embedding/paddlespeech/ecapatdnn_voxceleb12');
    expect(adapter.threshold).toBe(EMBEDDING_THRESHOLD);
    expect(createSpeakerEmbeddingAdapter({ url: peer.url, model: 'm', threshold: 0.97 }).threshold).toBe(0.97);
    expect(await adapter.languages()).toEqual(['*']);
    expect(await adapter.train([], {})).toBeNull();
    const speakers = [await adapter.enrol(await Promise.all(ENROL.map((t) => speak('anna', t))), { background: null }), await adapter.enrol(await Promise.all(ENROL.map((t) => speak('boris', t))), { background: null })];
    const anna = await adapter.score(await speak('anna', HELD_OUT), speakers, { background: null });
    const boris = await adapter.score(await speak('boris', HELD_OUT), speakers, { background: null });
    expect(anna.speechSeconds).toBeGreaterThan(1);
    for (const s of [...anna.scores, ...boris.scores]) expect(Math.abs(s)).toBeLessThanOrEqual(1);
    expect(anna.scores[0]).toBeGreaterThan(anna.scores[1]!);
    expect(boris.scores[1]).toBeGreaterThan(boris.scores[0]!);
    console.info(`paddlespeech-vector cosine: anna ${anna.scores.join(' / ')}, boris ${boris.scores.join(' / ')}`);
    expect(peer.requests).toBe(6);

    // Not a 16 kHz mono WAV, or no speech: the request's fault, never sent.
    await expect(adapter.score(new TextEncoder().encode('no audio here, only text'), speakers, { background: null })).rejects.toMatchObject({ kind: 'rejected' });
    const silence = writeWavPcm(new Int16Array(16_000));
    await expect(adapter.score(silence, speakers, { background: null })).rejects.toMatchObject({ kind: 'rejected', message: expect.stringContaining('no speech') });
    await expect(adapter.score(await speak('anna', HELD_OUT), [new Uint8Array(8)], { background: null })).rejects.toMatchObject({ kind: 'rejected' });
    expect(peer.requests).toBe(7);

    // A node that is down, or one whose server has no vector engine: the node's fault.
    const offline = createSpeakerEmbeddingAdapter({ url: down.url, model: 'm', timeoutMs: 5000 });
    expect(await offline.health()).toMatchObject({ ok: false });
    await expect(offline.enrol([await speak('anna', HELD_OUT)], { background: null })).rejects.toMatchObject({ kind: 'unavailable' });
    const elsewhere = createSpeakerEmbeddingAdapter({ url: `${peer.url}/other`, model: 'm', timeoutMs: 5000 });
    await expect(elsewhere.enrol([await speak('anna', HELD_OUT)], { background: null })).rejects.toMatchObject({ kind: 'unavailable' });
  }, 120_000);
});

describe('PaddleSpeech vector in a kernel', () => {
  let k: TestKernel;
  let peer: VectorPeer;
  afterAll(async () => {
    await k?.shutdown();
    await peer?.close();
  });

  it('registers the kind; a node added on the engines screen checks healthy for any language', async () => {
    peer = await startVectorPeer();
    k = await startTestKernel({ plugins: ['service', 'engine-speaker-embedding'] });
    const admin = await k.login('admin', ADMIN_PASSWORD);
    const kinds = (await k.call('GET', '/api/translServiceNode/kinds', admin)).body.data as { kind: string; capability: string; plugin: string; local: boolean }[];
    expect(kinds.find((x) => x.kind === 'paddlespeech-vector')).toMatchObject({ capability: 'speaker', plugin: 'engine-speaker-embedding', local: false });
    const refused = await k.call('POST', '/api/translServiceNode/add', admin, { kind: 'paddlespeech-vector', containerName: 'no-address', authenticationFile: 'none', config: { baseUrl: 'not a url' } });
    expect(refused.body.code).toBe(400);
    const added = await k.call('POST', '/api/translServiceNode/add', admin, { kind: 'paddlespeech-vector', containerName: 'gpu-1', authenticationFile: 'none', config: { baseUrl: peer.url } });
    expect(added.body.code, added.body.msg).toBe(200);
    const id = added.body.data.id as number;
    const started = await k.call('GET', `/api/translServiceNode/startTranslationService?id=${id}`, admin);
    expect(started.body.data, started.body.msg).toMatchObject({ health: 'healthy' });
    const listed = (await k.call('GET', '/api/translServiceNode/speakerNodes', admin)).body.data as { id: number; languages: string[]; health: string }[];
    expect(listed).toEqual([expect.objectContaining({ id, languages: ['*'], health: 'healthy' })]);
  }, 60_000);
});
