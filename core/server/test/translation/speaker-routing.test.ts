import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScratch, runTool } from '@linguaport/sdk/server';
import { extractAudio } from '@linguaport/media';
import { startVectorPeer, type VectorPeer } from '@linguaport/sdk/testing';
import { runMigrations } from '../../src/db/migrations.js';
import { translationMigrations } from '../../src/translation/migrations.js';
import { createAdapterRegistry } from '../../src/translation/adapters.js';
import { createTranslationService, type TranslationService } from '../../src/translation/service.js';
import { voiceprintLocalDefinition, VOICEPRINT_METHOD } from '../../../../plugins/engine-voiceprint-local/server/definition.js';
import { speakerEmbeddingDefinition } from '../../../../plugins/engine-speaker-embedding/server/adapter.js';
import { openTestDatabase, type TestDatabase } from '../support/test-database.js';

// Speaker routing (ctx.engines.speaker) over real engines: the built-in voiceprint node (MFCC/GMM-UBM)
// and two remote PaddleSpeech vector nodes (peers on 127.0.0.1 computing embeddings of espeak-ng
// speech), through the router that serves speech and OCR: any language, least busy first, a request
// for a method goes only to nodes of it, fail-over, 400 for bad input, 503 when none is up.

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

async function speak(text: string): Promise<Uint8Array> {
  return inScratch(async (dir) => {
    await runTool('espeak-ng', ['-v', 'en-us+f3', '-p', '70', '-w', join(dir, 'in.wav'), text], { timeoutMs: 30_000 });
    await extractAudio(join(dir, 'in.wav'), join(dir, 'out.wav'), { sampleRate: 16000, channels: 1, timeoutMs: 30_000 });
    return new Uint8Array(await readFile(join(dir, 'out.wav')));
  });
}

describe('speaker routing', () => {
  let t: TestDatabase;
  let service: TranslationService | null = null;
  const peers: VectorPeer[] = [];
  const ids: Record<string, number> = {};
  let recordings: Uint8Array[] = [];
  const EMBEDDING = 'embedding/paddlespeech/ecapatdnn_voxceleb12';

  beforeAll(async () => {
    t = await openTestDatabase();
    await runMigrations(t.database, 'core.translation', translationMigrations);
    peers.push(await startVectorPeer(), await startVectorPeer());
    const add = async (name: string, kind: string, config: object) => {
      const row = await t.database.db.insertInto('engine_nodes').values({ kind, container_name: name, ip: '127.0.0.1', desired_state: 'running', config: JSON.stringify(config), languages: JSON.stringify([]) }).returning('id').executeTakeFirstOrThrow();
      ids[name] = row.id as number;
    };
    await add('voiceprint-local', 'voiceprint-local', {});
    await add('gpu-a', 'paddlespeech-vector', { baseUrl: peers[0]!.url });
    await add('gpu-b', 'paddlespeech-vector', { baseUrl: peers[1]!.url, threshold: 0.97 });
    const adapters = createAdapterRegistry();
    adapters.register(voiceprintLocalDefinition(), 'engine-voiceprint-local');
    adapters.register(speakerEmbeddingDefinition, 'engine-speaker-embedding');
    service = createTranslationService({ db: t.database.db, dataDir: t.dataDir, logger: quiet, readSetting: async () => null, adapters });
    await service.start();
    recordings = [await speak('The quick brown fox jumps over the lazy dog.'), await speak('We will meet again on Thursday afternoon.')];
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    for (const p of peers) await p.close();
    await t?.cleanup();
  });

  it('lists the speaker nodes for any language and runs each request on the least busy node of its method', async () => {
    const nodes = await service!.speaker.nodes();
    expect(nodes.map((n) => [n.name, n.languages, n.ready, n.method])).toEqual([['voiceprint-local', ['*'], true, VOICEPRINT_METHOD], ['gpu-a', ['*'], true, EMBEDDING], ['gpu-b', ['*'], true, EMBEDDING]]);
    // Three at once, no method asked: one each.
    const trained = await Promise.all([1, 2, 3].map(() => service!.speaker.train({ recordings, seed: 3 })));
    expect(new Set(trained.map((r) => r.nodeId))).toEqual(new Set(Object.values(ids)));
    const local = trained.find((r) => r.method === VOICEPRINT_METHOD)!;
    expect(local.background!.byteLength).toBeGreaterThan(1000);
    for (const r of trained.filter((x) => x.method === EMBEDDING)) expect(r.background).toBeNull();
    // Each answer carries the answering node's suggested threshold: its kind's, or the node's setting.
    expect(trained.map((r) => [r.nodeId, r.threshold]).sort()).toEqual([[ids['voiceprint-local'], 1.2], [ids['gpu-a'], 0.5], [ids['gpu-b'], 0.97]].sort());

    // Bytes of one method go to its nodes only.
    const gmm = await service!.speaker.enrol({ recordings, background: local.background, method: VOICEPRINT_METHOD });
    expect(gmm).toMatchObject({ nodeId: ids['voiceprint-local'], method: VOICEPRINT_METHOD });
    const emb = await Promise.all([1, 2].map(() => service!.speaker.enrol({ recordings, background: null, method: EMBEDDING })));
    expect(new Set(emb.map((e) => e.nodeId))).toEqual(new Set([ids['gpu-a'], ids['gpu-b']]));
    const held = await speak('Please remember to bring the documents tomorrow.');
    const scored = await service!.speaker.score({ recording: held, speakers: [emb[0]!.representation], background: null, method: EMBEDDING });
    expect(scored.scores[0]).toBeGreaterThan(0.9);
    const gmmScore = await service!.speaker.score({ recording: held, speakers: [gmm.representation], background: local.background, method: VOICEPRINT_METHOD });
    expect(gmmScore.nodeId).toBe(ids['voiceprint-local']);

    // Bad input: 400 in both languages; a recording the engine refuses: 400, the node stays healthy.
    await expect(service!.speaker.enrol({ recordings: [new Uint8Array(10)], background: null })).rejects.toMatchObject({ code: 400, messages: { 'zh-CN': '没有可识别的音频' } });
    await expect(service!.speaker.score({ recording: new Uint8Array(100), speakers: [emb[0]!.representation], background: null, method: EMBEDDING })).rejects.toMatchObject({ code: 400, data: { reason: 'engine-refused' } });
    await expect(service!.speaker.enrol({ recordings, background: null, nodeId: ids['voiceprint-local']! + 1000 })).rejects.toMatchObject({ code: 400 });
    expect((await service!.speaker.nodes()).every((n) => n.ready)).toBe(true);
  }, 120_000);

  it('fails over when a node goes down, and answers 503 when no node of the method is up', async () => {
    await peers[0]!.close();
    for (let i = 0; i < 2; i++) expect((await service!.speaker.enrol({ recordings, background: null, method: EMBEDDING })).nodeId).toBe(ids['gpu-b']);
    expect((await service!.speaker.nodes()).find((n) => n.id === ids['gpu-a'])!.ready).toBe(false);
    await peers[1]!.close();
    await expect(service!.speaker.enrol({ recordings, background: null, method: EMBEDDING })).rejects.toMatchObject({ code: 503, messages: { 'en-US': 'Service interrupted: no speaker recognition node is available right now. Try again later.' } });
    // The built-in node still answers requests of its method, and those that ask for none.
    expect((await service!.speaker.train({ recordings })).kind).toBe('voiceprint-local');
    expect(await service!.speaker.method()).toBe(VOICEPRINT_METHOD);
  }, 120_000);
});
