import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '@linguaport/sdk/server';
import { runMigrations } from '../../src/db/migrations.js';
import { translationMigrations } from '../../src/translation/migrations.js';
import { createTranslationService, type TranslationService } from '../../src/translation/service.js';
import { createAdapterRegistry } from '../../src/translation/adapters.js';
import { apertiumDefinition } from '../../../../plugins/engine-apertium/server/definition.js';
import { openTestDatabase, type TestDatabase } from '../support/test-database.js';
import { requireTool, until } from '@linguaport/sdk/testing';

// The service on its own (no HTTP): the seeded Apertium node with the real APy, and what a
// server restart does to nodes left running or stopped.
const installed = requireTool('apertium-apy', { files: ['/usr/share/apertium/modes/eng-spa.mode'], debian: 'apertium-apy apertium-eng-spa' });
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe.skipIf(!installed)('translation service across restarts', () => {
  let t: TestDatabase;
  let service: TranslationService | null = null;
  const start = async () => {
    // The local Apertium kind as its plugin registers it.
    const adapters = createAdapterRegistry();
    adapters.register(apertiumDefinition(), 'engine-apertium');
    service = createTranslationService({ db: t.database.db, dataDir: t.dataDir, logger: quiet, readSetting: async () => null, autostart: true, adapters });
    await service.start();
    return service;
  };

  beforeAll(async () => {
    t = await openTestDatabase();
    await runMigrations(t.database, 'core.translation', translationMigrations);
  });
  afterAll(async () => {
    await service?.close();
    await t?.cleanup();
  });

  it('starts the seeded node at start-up and translates, and starts it again after a restart', async () => {
    let s = await start();
    const [node] = await t.database.db.selectFrom('engine_nodes').selectAll().where('kind', '=', 'apertium-local').execute();
    // While APy loads its pairs the overview says the node is starting, not stopped.
    expect(s.overview()[0]).toMatchObject({ name: 'Apertium', ready: false, nodes: [{ id: node.id, health: 'starting', desired: 'running' }] });
    await until(() => s.nodes.status(node.id).health === 'healthy', { timeout: 60_000, interval: 100 });
    expect(s.overview()[0]).toMatchObject({ ready: true, nodes: [{ id: node.id, health: 'healthy' }] });
    // Its APy is a local process, named after the node, for the dashboard's process groups.
    expect(s.nodes.local()).toEqual([{ id: node.id, name: 'apertium-local', pid: expect.any(Number) }]);
    const r = await s.translate({ text: 'The cat is sleeping.', source: 'en', target: 'es', callerId: 7, channel: 'text' });
    expect(r.text).toMatch(/gato/);
    await s.close();
    expect(await t.database.db.selectFrom('engines').select('name').execute()).toEqual([{ name: 'Apertium' }]);
    s = await start();
    await until(() => s.nodes.status(node.id).health === 'healthy', { timeout: 60_000, interval: 100 });
    expect((await s.translate({ text: 'The red car.', source: 'en', target: 'es', callerId: 7, channel: 'api' })).text).toMatch(/coche rojo/);
    await s.close();
    const usage = await t.database.db.selectFrom('usage_records').select(['channel', 'characters']).where('user_id', '=', 7).orderBy('channel').execute();
    expect(usage.map((u) => [u.channel, Number(u.characters)])).toEqual([['api', 12], ['text', 20]]);
  }, 150_000);

  it('keeps a stopped node stopped across a restart and answers 503 for its pairs', async () => {
    let s = await start();
    const [node] = await t.database.db.selectFrom('engine_nodes').selectAll().where('kind', '=', 'apertium-local').execute();
    await until(() => s.nodes.status(node.id).health === 'healthy', { timeout: 60_000, interval: 100 });
    await s.nodes.stop(node.id);
    await s.close();
    s = await start();
    // A request first awaits the start-up round (the same ensureStarted): once answered, autostart had its chance.
    const err = await s.translate({ text: 'The cat.', source: 'en', target: 'es', callerId: 7, channel: 'text' }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(503);
    expect(s.nodes.status(node.id)).toMatchObject({ running: false, health: 'stopped' });
    const unknown = await s.translate({ text: 'The cat.', source: 'en', target: 'xx', callerId: 7, channel: 'text' }).catch((e) => e);
    expect((unknown as ApiError).code).toBe(400);
  }, 150_000);
});
