import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';
import { startDeeplPeer, type DeeplPeer } from '../support/deepl-peer.js';

// DeepL nodes inside a real kernel: the plugin registers its adapter, the engine-management area
// offers its kind and fields, stores the key sealed, and the kernel routes and fails over by the
// adapter's classification (a used-up quota fails the node; a bad request fails the request alone).

let k: TestKernel;
let admin: string;
let peers: DeeplPeer[] = [];

beforeAll(async () => {
  peers = [await startDeeplPeer({ apiKey: 'key-a' }), await startDeeplPeer({ apiKey: 'key-b' })];
  k = await startTestKernel({ plugins: ['service', 'trans-text', 'engine-deepl'] });
  admin = await k.login('admin', ADMIN_PASSWORD);
  // Only the DeepL nodes: the seeded Apertium node is not started.
  const seeded = await k.call('GET', '/api/translServiceInfo/getTranslationServiceByPage?pageNum=1&pageSize=10', admin);
  await k.call('GET', `/api/translServiceNode/stopTranslationService?id=${seeded.body.data.records[0].nodeIds[0]}`, admin);
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
  for (const p of peers) await p.close();
});

describe('DeepL engine plugin in a kernel', () => {
  it('offers its kind with its fields to the node form, the key marked secret', async () => {
    const kinds = (await k.call('GET', '/api/translServiceNode/kinds', admin)).body.data as { kind: string; plugin: string; secrets: string[]; schema: { properties: Record<string, unknown> } }[];
    const deepl = kinds.find((x) => x.kind === 'deepl')!;
    expect(deepl).toMatchObject({ plugin: 'engine-deepl', secrets: ['apiKey'], name: { 'en-US': 'DeepL API' } });
    expect(Object.keys(deepl.schema.properties).sort()).toEqual(['apiKey', 'baseUrl']);
    expect(kinds.map((x) => x.kind)).toContain('apertium-local');
  });

  it('refuses a node without its key, naming the field', async () => {
    const res = await k.call('POST', '/api/translServiceNode/add', admin, { kind: 'deepl', containerName: 'no-key', authenticationFile: 'none', config: { baseUrl: peers[0]!.url } });
    expect(res.body.code).toBe(400);
    expect(res.body.msg).toMatch(/apiKey/);
  });

  it('translates through two nodes, fails over when one runs out of quota (456), and fails a bad request (400) alone', async () => {
    const engine = await k.call('POST', '/api/translServiceInfo/add', admin, { name: 'DeepL', imageName: 'deepl', sourceLanguage: 'en', targetLanguage: 'de' });
    const add = (name: string, peer: DeeplPeer, key: string) =>
      k.call('POST', '/api/translServiceNode/add', admin, { kind: 'deepl', containerName: name, authenticationFile: 'none', engineId: engine.body.data.id, config: { baseUrl: peer.url, apiKey: key } });
    const a = await add('deepl-a', peers[0]!, 'key-a');
    const b = await add('deepl-b', peers[1]!, 'key-b');
    expect(a.body.code, a.body.msg).toBe(200);
    // The key is sealed at rest and never sent back.
    expect(JSON.stringify(a.body.data)).not.toContain('key-a');
    expect(a.body.data).toMatchObject({ kind: 'deepl', config: { baseUrl: peers[0]!.url }, secretsSet: ['apiKey'], unavailable: null });
    const row = await k.database.db.selectFrom('engine_nodes').select('config').where('id', '=', a.body.data.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row.config)).not.toContain('key-a');
    for (const n of [a, b]) {
      const started = await k.call('GET', `/api/translServiceNode/startTranslationService?id=${n.body.data.id}`, admin);
      expect(started.body.data.health, started.body.msg).toBe('healthy');
    }

    const first = await k.call('POST', '/api/transText/translate', admin, { text: 'red car', source: 'en', target: 'de' });
    expect(first.body.data.text).toBe('[DE] car red');

    const node = async (id: number) => (await k.call('GET', `/api/translServiceNode/getTranslationServiceNodeById/${id}`, admin)).body.data;
    const restart = async (id: number) => {
      await k.call('GET', `/api/translServiceNode/stopTranslationService?id=${id}`, admin);
      expect((await k.call('GET', `/api/translServiceNode/startTranslationService?id=${id}`, admin)).body.data.health).toBe('healthy');
    };

    // Both run out of quota: each is tried, each fails node-wide, the caller gets 503.
    for (const p of peers) p.options.failNext = { count: 1, status: 456, message: 'Quota exceeded' };
    const over = await k.call('POST', '/api/transText/translate', admin, { text: 'red car', source: 'en', target: 'de' });
    expect(over.body.code).toBe(503);
    expect([(await node(a.body.data.id)).health, (await node(b.body.data.id)).health]).toEqual(['unhealthy', 'unhealthy']);
    expect((await node(a.body.data.id)).lastError).toMatch(/quota exceeded/);
    for (const n of [a, b]) await restart(n.body.data.id);

    // Only A runs out: whenever A is picked, the request fails over to B and A leaves the rotation.
    peers[0]!.options.failNext = { count: 1, status: 456, message: 'Quota exceeded' };
    for (let i = 0; i < 6 && peers[0]!.options.failNext!.count > 0; i++) {
      const res = await k.call('POST', '/api/transText/translate', admin, { text: 'big house', source: 'en', target: 'de' });
      expect(res.body.data.text).toBe('[DE] house big');
    }
    expect(peers[0]!.options.failNext!.count).toBe(0);
    expect((await node(a.body.data.id)).health).toBe('unhealthy');
    expect((await node(b.body.data.id)).health).toBe('healthy');
    const before = peers[0]!.requests.filter((r) => r.path === '/v2/translate').length;
    const after = await k.call('POST', '/api/transText/translate', admin, { text: 'old tree', source: 'en', target: 'de' });
    expect(after.body.data.text).toBe('[DE] tree old');
    expect(peers[0]!.requests.filter((r) => r.path === '/v2/translate').length).toBe(before);
    await restart(a.body.data.id);

    // A bad request fails alone: 400 to the caller, the node stays healthy.
    for (const p of peers) p.options.failNext = { count: 1, status: 400, message: 'Bad request' };
    const bad = await k.call('POST', '/api/transText/translate', admin, { text: 'red car', source: 'en', target: 'de' });
    expect(bad.body).toMatchObject({ code: 400, data: { reason: 'engine-refused' } });
    for (const n of [a, b]) expect((await k.call('GET', `/api/translServiceNode/getTranslationServiceNodeById/${n.body.data.id}`, admin)).body.data.health).toBe('healthy');
  }, 60_000);
});
