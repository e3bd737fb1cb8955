import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '@linguaport/sdk/server';
import { runMigrations } from '../../src/db/migrations.js';
import { checkExternalTools } from '../../src/preflight.js';
import { translationMigrations } from '../../src/translation/migrations.js';
import { startNodeRuntime, type NodeRuntime } from '../../src/translation/node-runtime.js';
import { createTranslationService, type TranslationService, type TranslationServiceOptions } from '../../src/translation/service.js';
import { pathWithout } from '../support/engine-env.js';
import { libreTranslateDefinition } from '../../../../plugins/engine-libretranslate/server/adapter.js';
import { apertiumDefinition } from '../../../../plugins/engine-apertium/server/definition.js';
import type { ApyExit, ApyOptions } from '../../../../plugins/engine-apertium/server/apy-process.js';
import { requireTool, startLibrePeer, type LibrePeer } from '@linguaport/sdk/testing';
import { createAdapterRegistry } from '../../src/translation/adapters.js';
import { openTestDatabase, type TestDatabase } from '../support/test-database.js';

// Nodes under faults, through the service: a request that fails because of its own content
// fails alone and never marks a node unhealthy; only the node's own failures do. The health
// loop never overlaps itself on a node, and restarts a crashed node with a bounded backoff.
const installed = requireTool('apertium-apy', { files: ['/usr/share/apertium/modes/eng-spa.mode'], debian: 'apertium-apy apertium-eng-spa' });
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe('translation nodes under faults', () => {
  let t: TestDatabase;
  let peer: LibrePeer;
  let service: TranslationService | null = null;

  beforeAll(async () => {
    t = await openTestDatabase();
    await runMigrations(t.database, 'core.translation', translationMigrations);
    // Only the nodes each test adds: the seeded Apertium node stays stopped.
    await t.database.db.updateTable('engine_nodes').set({ desired_state: 'stopped' }).execute();
    await t.database.db.updateTable('engines').set({ enabled: false }).execute();
  });
  afterEach(async () => {
    await service?.close();
    service = null;
    await peer?.close();
    await t.database.db.deleteFrom('engines').where('name', 'like', 'fault-%').execute();
    await t.database.db.deleteFrom('engine_nodes').where('container_name', 'like', 'fault-%').execute();
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  async function addNode(values: Record<string, unknown>): Promise<number> {
    const node = await t.database.db
      .insertInto('engine_nodes')
      .values({ ip: '127.0.0.1', desired_state: 'running', create_service: true, ...values })
      .returning('id')
      .executeTakeFirstOrThrow();
    return node.id as number;
  }

  async function addEngine(name: string, nodeIds: number[]): Promise<void> {
    await t.database.db
      .insertInto('engines')
      .values({ name, image_name: 'libretranslate', node_ids: JSON.stringify(nodeIds), container_count: 1, enabled: true, consumer: 'all' })
      .execute();
  }

  async function start(extra: Partial<TranslationServiceOptions> = {}, apy: Pick<ApyOptions, 'env' | 'startTimeoutMs'> = {}): Promise<TranslationService> {
    // The engines as their plugins bring them: LibreTranslate-compatible and the local Apertium, registered.
    const adapters = createAdapterRegistry();
    adapters.register(libreTranslateDefinition, 'engine-libretranslate');
    adapters.register(apertiumDefinition(apy), 'engine-apertium');
    service = createTranslationService({ db: t.database.db, dataDir: t.dataDir, logger: quiet, readSetting: async () => null, autostart: true, adapters, ...extra });
    await service.start();
    return service;
  }

  it('fails a request the engine answers 500 for alone: the node stays healthy and the next user is served at once', async () => {
    peer = await startLibrePeer();
    const id = await addNode({ kind: 'libretranslate', container_name: 'fault-lt', config: JSON.stringify({ baseUrl: peer.url }) });
    await addEngine('fault-lt', [id]);
    const s = await start();
    await expect.poll(() => s.nodes.status(id).health, { timeout: 10_000 }).toBe('healthy');

    peer.options.failNext = { count: 1, status: 500, error: 'Cannot translate text: this input breaks me' };
    const err = await s.translate({ text: 'red car', source: 'en', target: 'es', callerId: 1, channel: 'api' }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 500, data: { reason: 'engine-failed', detail: expect.stringContaining('this input breaks me') } });
    expect(s.nodes.status(id)).toMatchObject({ health: 'healthy', lastError: null });
    const row = await t.database.db.selectFrom('engine_nodes').select('health').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.health).toBe('healthy');

    const next = await s.translate({ text: 'red car', source: 'en', target: 'es', callerId: 2, channel: 'api' });
    expect(next.text).toBe('[es] car red');

    // An engine refusing the input (4xx) is the request's fault too: 400 for that request.
    peer.options.failNext = { count: 1, status: 400, error: 'Invalid request: that text' };
    await expect(s.translate({ text: 'red car', source: 'en', target: 'es', callerId: 1, channel: 'api' })).rejects.toMatchObject({ code: 400, data: { reason: 'engine-refused' } });
    expect(s.nodes.status(id).health).toBe('healthy');
  });

  it('shows a node whose kind has no registered adapter as unavailable with the reason, routes around it, and starts it once its adapter comes', async () => {
    peer = await startLibrePeer();
    const orphan = await addNode({ kind: 'libretranslate', container_name: 'fault-orphan', config: JSON.stringify({ baseUrl: peer.url }), pairs: JSON.stringify([{ source: 'en', target: 'es' }]) });
    await addEngine('fault-orphan', [orphan]);
    // No plugin brought the LibreTranslate adapter to this service.
    const adapters = createAdapterRegistry();
    const s = await start({ adapters });
    await expect.poll(() => s.nodes.status(orphan).health, { timeout: 10_000 }).toBe('unhealthy');
    expect(s.nodes.status(orphan)).toMatchObject({ running: false, unavailable: expect.stringContaining('"libretranslate"') });
    expect(s.nodes.status(orphan).lastError).toMatch(/plugin that brings it is not enabled/);
    expect(s.overview().find((e) => e.name === 'fault-orphan')!.nodes[0]).toMatchObject({ health: 'unhealthy' });
    // A pair only it served: 503 (service interrupted), never a crash.
    await expect(s.translate({ text: 'red car', source: 'en', target: 'es', callerId: 1, channel: 'api' })).rejects.toMatchObject({ code: 503 });
    await expect(s.nodes.start(orphan)).rejects.toMatchObject({ code: 503, message: expect.stringContaining('No engine adapter') });

    // The plugin starts: its adapter registers and the node left running starts.
    const unregister = s.forPlugin('engine-libretranslate').registerAdapter(libreTranslateDefinition);
    await expect.poll(() => s.nodes.status(orphan).health, { timeout: 10_000 }).toBe('healthy');
    expect(s.nodes.status(orphan).unavailable).toBeNull();
    expect(s.adapterKinds().find((k) => k.kind === 'libretranslate')).toMatchObject({ plugin: 'engine-libretranslate', secrets: ['apiKey'] });
    expect((await s.translate({ text: 'red car', source: 'en', target: 'es', callerId: 1, channel: 'api' })).text).toBe('[es] car red');

    // And stops: the node stops with it and reads unavailable again.
    unregister();
    await expect.poll(() => s.nodes.status(orphan).running, { timeout: 10_000 }).toBe(false);
    expect(s.nodes.status(orphan).unavailable).toMatch(/not enabled/);
    await expect(s.translate({ text: 'red car', source: 'en', target: 'es', callerId: 1, channel: 'api' })).rejects.toMatchObject({ code: 503 });
  });

  it('marks a node unhealthy only for its own failures (a gateway 503), and the health check brings it back', async () => {
    peer = await startLibrePeer();
    const id = await addNode({ kind: 'libretranslate', container_name: 'fault-lt', config: JSON.stringify({ baseUrl: peer.url }) });
    await addEngine('fault-lt', [id]);
    const s = await start({ healthIntervalMs: 100 });
    await expect.poll(() => s.nodes.status(id).health, { timeout: 10_000 }).toBe('healthy');
    peer.options.failNext = { count: 1, status: 503, error: 'upstream down' };
    await expect(s.translate({ text: 'red car', source: 'en', target: 'es', callerId: 1, channel: 'api' })).rejects.toMatchObject({ code: 503 });
    await expect.poll(() => s.nodes.status(id).health, { timeout: 10_000 }).toBe('healthy');
  });

  it('never runs two health rounds of one node at once, however slow its check', async () => {
    peer = await startLibrePeer();
    const id = await addNode({ kind: 'libretranslate', container_name: 'fault-lt', config: JSON.stringify({ baseUrl: peer.url }) });
    await addEngine('fault-lt', [id]);
    const s = await start({ healthIntervalMs: 20 });
    await expect.poll(() => s.nodes.status(id).health, { timeout: 10_000 }).toBe('healthy');
    // Each health check now takes 15 health intervals.
    peer.options.delayMs = 300;
    let inFlight = 0;
    let most = 0;
    let checks = 0;
    const original = fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (!url.startsWith(peer.url) || !url.endsWith('/languages')) return original(input, init);
      inFlight++;
      checks++;
      most = Math.max(most, inFlight);
      try {
        return await original(input, init);
      } finally {
        inFlight--;
      }
    }) as typeof fetch;
    try {
      // A check is health() + languagePairs(): two sequential calls, never overlapping rounds.
      await expect.poll(() => checks, { timeout: 15_000 }).toBeGreaterThanOrEqual(6);
      expect(most).toBe(1);
    } finally {
      globalThis.fetch = original;
    }
  });

  it('restarts a crashed node with an exponential, bounded backoff, the state visible in its status', async () => {
    const id = await addNode({ kind: 'apertium-local', container_name: 'fault-apy' });
    await addEngine('fault-apy', [id]);
    const attempts: number[] = [];
    const exits = new Set<(e: ApyExit) => void>();
    let failuresLeft = 0;
    let running = true;
    // A stand-in for an APy: its process can "crash", and the next starts can fail.
    const fakeRuntime = async (spec: Parameters<typeof startNodeRuntime>[0]): Promise<NodeRuntime> => {
      attempts.push(Date.now());
      if (failuresLeft > 0) {
        failuresLeft--;
        throw new Error('APy did not start: port in use');
      }
      running = true;
      const apy = {
        get running() {
          return running;
        },
        pid: 1,
        onExit(fn: (e: ApyExit) => void) {
          exits.add(fn);
          return () => exits.delete(fn);
        },
        async stop() {
          running = false;
          return { code: 0, signal: null, expected: true, stderrTail: '' };
        },
      };
      const adapter = {
        kind: 'fake',
        languagePairs: async () => [{ source: 'en', target: 'es' }],
        health: async () => (running ? { ok: true } : { ok: false, detail: 'down' }),
        translate: async (b: { segments: string[] }) => b.segments,
      };
      return { spec, adapter, process: apy, processLabel: 'APy', healthy: false, pairs: [], inFlight: 0, lastError: null };
    };
    const s = await start({ healthIntervalMs: 20, restartBackoffMs: { base: 100, max: 400 }, startRuntime: fakeRuntime });
    await expect.poll(() => s.nodes.status(id).health, { timeout: 10_000 }).toBe('healthy');

    failuresLeft = 4;
    attempts.length = 0;
    running = false;
    for (const fn of exits) fn({ code: null, signal: 'SIGKILL', expected: false, stderrTail: '' });
    expect(s.nodes.status(id)).toMatchObject({ health: 'unhealthy', lastError: 'APy exited (SIGKILL)', restart: { attempts: 0 } });
    expect(s.overview().find((e) => e.name === 'fault-apy')!.nodes[0]).toMatchObject({ health: 'unhealthy', restart: { attempts: 0 } });
    await expect.poll(() => s.nodes.status(id).restart?.attempts, { timeout: 10_000 }).toBe(2);
    expect(s.nodes.status(id).lastError).toMatch(/port in use/);
    await expect.poll(() => s.nodes.status(id).health, { timeout: 20_000 }).toBe('healthy');
    expect(s.nodes.status(id).restart).toBeNull();
    // Four failed starts and the fifth that worked, each later than the one before by the
    // doubled delay (100, 200, 400, then capped at 400); the interval adds at most a tick.
    expect(attempts).toHaveLength(5);
    const gaps = attempts.slice(1).map((a, i) => a - attempts[i]);
    expect(gaps[0]).toBeGreaterThanOrEqual(190);
    expect(gaps[1]).toBeGreaterThanOrEqual(390);
    expect(gaps[2]).toBeGreaterThanOrEqual(390);
    expect(gaps[3]).toBeGreaterThanOrEqual(390);
    expect(Math.max(...gaps)).toBeLessThan(2000);
  });

  it.skipIf(!installed)('answers an html request 400 when this machine lacks transfuse, naming it, and keeps serving text', async () => {
    const id = await addNode({ kind: 'apertium-local', container_name: 'fault-apy' });
    await addEngine('fault-apy', [id]);
    const tools = checkExternalTools().map((tool) => (tool.debianPackage === 'transfuse' ? { ...tool, ok: false } : tool));
    const s = await start({ tools }, { startTimeoutMs: 90_000 });
    await expect.poll(() => s.nodes.status(id).health, { timeout: 100_000 }).toBe('healthy');
    const err = await s.translate({ text: 'The <b>red</b> car.', source: 'en', target: 'es', format: 'html', callerId: 1, channel: 'api' }).catch((e) => e);
    expect(err).toMatchObject({ code: 400, data: { reason: 'format-unavailable', detail: expect.stringContaining('tf-extract') } });
    expect(s.nodes.status(id).health).toBe('healthy');
    expect((await s.translate({ text: 'The red car.', source: 'en', target: 'es', callerId: 2, channel: 'api' })).text).toMatch(/coche rojo/);
  }, 120_000);

  it.skipIf(!installed)('keeps a real APy healthy when it answers 500 to one html request (no tf-extract on its PATH)', async () => {
    const id = await addNode({ kind: 'apertium-local', container_name: 'fault-apy' });
    await addEngine('fault-apy', [id]);
    const path = pathWithout(['tf-extract', 'tf-inject']);
    try {
      // The tools check saw transfuse (as on the machine in the finding); APy's PATH lacks it.
      const s = await start({ tools: checkExternalTools() }, { startTimeoutMs: 90_000, env: { ...process.env, PATH: path.dir } });
      await expect.poll(() => s.nodes.status(id).health, { timeout: 100_000 }).toBe('healthy');
      const err = await s.translate({ text: 'The <b>red</b> car.', source: 'en', target: 'es', format: 'html', callerId: 1, channel: 'api' }).catch((e) => e);
      expect(err).toMatchObject({ code: 500, data: { reason: 'engine-failed' } });
      expect(s.nodes.status(id).health).toBe('healthy');
      expect((await s.translate({ text: 'The red car.', source: 'en', target: 'es', callerId: 2, channel: 'api' })).text).toMatch(/coche rojo/);
    } finally {
      await service?.close();
      service = null;
      path.cleanup();
    }
  }, 120_000);
});
