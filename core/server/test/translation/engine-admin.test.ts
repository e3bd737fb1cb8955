import { startTestKernel, type TestKernel } from '@linguaport/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineAdmin } from '../../src/translation/engine-admin.js';

// ctx.engineAdmin: the engine-management area's records, on a real database.

let k: TestKernel;
beforeAll(async () => {
  k = await startTestKernel({ plugins: [], builtinEngine: false });
}, 120_000);
afterAll(async () => {
  await k?.shutdown();
});

describe('the engine administration service', () => {
  it('keeps engines and their nodes together: a node added to an engine, a model set on the nodes that take one, a deleted node gone from every engine', async () => {
    const admin = createEngineAdmin(k.database.db);
    const engine = await admin.engines.create({ name: 'Remote_1', image_name: 'openai:small', language_abbreviations: { en: 'EN' } });
    expect(engine).toMatchObject({ name: 'Remote_1', node_ids: [], enabled: true, language_abbreviations: { en: 'EN' } });
    const withModel = await admin.nodes.create({ kind: 'openai', container_name: 'a', authentication_file: 'f', config: { model: 'small', baseUrl: 'http://127.0.0.1:1' } }, engine.id);
    const without = await admin.nodes.create({ kind: 'libretranslate', container_name: 'b', authentication_file: 'f', config: { baseUrl: 'http://127.0.0.1:2' } }, engine.id);
    expect((await admin.engines.get(engine.id))!.node_ids).toEqual([withModel.id, without.id]);

    await admin.engines.setModel(engine.id, 'large');
    expect((await admin.engines.get(engine.id))!.image_name).toBe('openai:large');
    const nodes = await admin.nodes.list({ ids: [withModel.id, without.id] });
    expect(nodes.map((n) => n.config)).toEqual([{ model: 'large', baseUrl: 'http://127.0.0.1:1' }, { baseUrl: 'http://127.0.0.1:2' }]);
    expect((await admin.nodes.list({ kinds: ['libretranslate'] })).map((n) => n.id)).toContain(without.id);
    expect(await admin.nodes.list({ ids: [] })).toEqual([]);

    await admin.nodes.remove(withModel.id);
    expect((await admin.engines.get(engine.id))!.node_ids).toEqual([without.id]);
    expect(await admin.nodes.get(withModel.id)).toBeNull();

    expect((await admin.engines.page({ name: 'e_1', offset: 0, limit: 10 })).engines.map((e) => e.id)).toEqual([engine.id]);
    expect((await admin.engines.page({ name: '%', offset: 0, limit: 10 })).total).toBe(0);
    await admin.engines.update(engine.id, { expires_at: new Date('2030-01-01T00:00:00Z'), licence: { nodeLimit: 2 } });
    expect(await admin.engines.get(engine.id)).toMatchObject({ expires_at: new Date('2030-01-01T00:00:00Z'), licence: { nodeLimit: 2 } });
    await admin.engines.remove(engine.id);
    expect(await admin.engines.get(engine.id)).toBeNull();
  });

  it('trusts a licence key once', async () => {
    const admin = createEngineAdmin(k.database.db);
    const id = await admin.trustedKeys.add({ name: 'k', publicKey: 'MCowBQYDK2VwAyEAEy/mtXpYzvMasqcF/jZH2T3DRIASlwNuJ47XdGTg3rE=' });
    expect(id).toEqual(expect.any(Number));
    expect(await admin.trustedKeys.add({ name: 'again', publicKey: 'MCowBQYDK2VwAyEAEy/mtXpYzvMasqcF/jZH2T3DRIASlwNuJ47XdGTg3rE=' })).toBeNull();
    expect((await admin.trustedKeys.list()).map((key) => key.name)).toContain('k');
    await admin.trustedKeys.remove(id!);
    expect((await admin.trustedKeys.list()).map((key) => key.id)).not.toContain(id);
  });
});
