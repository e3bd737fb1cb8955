import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller, EngineService, EngineTranslateRequest, RawReply, RequestContext, RouteDefinition } from '@linguaport/sdk/server';
import { runMigrations } from '../../src/db/migrations.js';
import { ltRoutes } from '../../src/translation/lt-routes.js';
import { translationMigrations } from '../../src/translation/migrations.js';
import { createRequestFront, type FrontTranslateRequest } from '../../src/translation/request-front.js';
import type { NodeSupervisor } from '../../src/translation/node-supervisor.js';
import type { TranslationRouter } from '../../src/translation/router.js';
import type { HookRegistry } from '../../src/translation/hooks.js';
import { openTestDatabase, type TestDatabase } from '../support/test-database.js';

// A cached API key's validity check (one query) runs beside the engine's work on /api/lt/translate
// instead of before it, and the request front counts and answers nothing until it passes: a key
// revoked while cached is still refused on its very next request, uncounted.

const deferred = <T,>() => {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

const caller = { userId: 7, username: 'client', permissions: new Set<string>(), isSuperAdmin: false } as unknown as Caller;

function harness() {
  const checks: Array<ReturnType<typeof deferred<boolean>>> = [];
  const started: EngineTranslateRequest[] = [];
  const counted: number[] = [];
  // The engine stage: records the request, then counts only once the front's gate opens (as request-front.ts does).
  const engines = {
    async translate(request: FrontTranslateRequest) {
      started.push(request);
      await request.admitted;
      counted.push(request.callerId);
      return { text: `[es] ${request.text}`, source: request.source, target: request.target, characters: request.text.length, engineId: 1, nodeId: 1 };
    },
  } as unknown as EngineService;
  const routes = ltRoutes({
    db: {} as never,
    engines,
    resolveApiKey: async (_db, key) => (key === 'good' ? caller : null),
    keyStillValid: () => {
      const d = deferred<boolean>();
      checks.push(d);
      return d.promise;
    },
    readSetting: async () => null,
  });
  const route = routes.find((r) => r.url === '/lt/translate') as RouteDefinition;
  const call = (body: Record<string, unknown>) => route.handler({ body, query: {}, params: {}, headers: {}, ip: '127.0.0.1' } as unknown as RequestContext) as Promise<RawReply>;
  return { checks, started, counted, call };
}

describe('/api/lt/translate key check beside the engine', () => {
  const body = { q: 'The red car.', source: 'en', target: 'es', api_key: 'good' };

  it('starts the engine while a cached key is being checked, and answers once the check passes', async () => {
    const h = harness();
    // The first call resolves the key in full (and caches its caller).
    expect((await h.call(body)).status).toBe(200);
    const second = h.call(body);
    await expect.poll(() => h.started.length).toBe(2);
    expect(h.checks).toHaveLength(1);
    expect(h.counted).toHaveLength(1);
    h.checks[0]!.resolve(true);
    expect(await second).toMatchObject({ status: 200, body: JSON.stringify({ translatedText: '[es] The red car.' }) });
    expect(h.counted).toEqual([7, 7]);
  });

  it('refuses a key the check finds revoked with 403, counting nothing, and resolves it in full next time', async () => {
    const h = harness();
    expect((await h.call(body)).status).toBe(200);
    const second = h.call({ ...body, q: ['One.', 'Two.'] });
    await expect.poll(() => h.started.length).toBe(2);
    h.checks[0]!.resolve(false);
    expect(await second).toMatchObject({ status: 403, body: JSON.stringify({ error: 'Invalid API key' }) });
    expect(h.counted).toEqual([7]);
    // Dropped from the cache: the next call is resolved before any work (the fake still knows the key).
    expect((await h.call(body)).status).toBe(200);
    expect(h.checks).toHaveLength(1);
  });
});

describe('request front: admitted', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase();
    await runMigrations(t.database, 'core.translation', translationMigrations);
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  const front = (db: TestDatabase['database']['db'], ensureStarted: () => Promise<void> = async () => {}) =>
    createRequestFront({
      db,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      now: () => new Date('2026-03-01T10:00:00Z'),
      readSetting: async () => null,
      deadlineMs: 10_000,
      supervisor: { ensureStarted } as unknown as NodeSupervisor,
      router: { route: () => ({ used: () => ({ engineId: 1, nodeId: 1 }), translate: async (batch: { segments: string[] }) => ({ targets: batch.segments.map((s) => `[es] ${s}`), origin: { kind: 'engine', engineId: 1, nodeId: 1 } }) }) } as unknown as TranslationRouter,
      hooks: { list: () => [] } as unknown as HookRegistry,
    });
  const usage = async (userId: number) => Number((await t.database.db.selectFrom('usage_records').select('characters').where('user_id', '=', userId).executeTakeFirst())?.characters ?? 0);

  it('counts a request only once admitted, and nothing when admission fails', async () => {
    const f = front(t.database.db);
    const refusal = new Error('refused');
    await expect(f.translate({ text: 'The red car.', source: 'en', target: 'es', callerId: 41, channel: 'api', admitted: Promise.reject(refusal) } as FrontTranslateRequest)).rejects.toBe(refusal);
    await expect(f.translate({ text: 'Same.', source: 'en', target: 'en', callerId: 41, channel: 'api', admitted: Promise.reject(refusal) } as FrontTranslateRequest)).rejects.toBe(refusal);
    const gate = deferred<void>();
    let done = false;
    const pending = f.translate({ text: 'The red car.', source: 'en', target: 'es', callerId: 42, channel: 'api', admitted: gate.promise } as FrontTranslateRequest).then((r) => ((done = true), r));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    gate.resolve();
    expect((await pending).text).toBe('[es] The red car.');
    await f.flushUsage();
    expect(await usage(41)).toBe(0);
    expect(await usage(42)).toBe(12);
  });

  it('a key refused while the front still waits (engine start-up) fails the request without an unhandled rejection', async () => {
    const stray: unknown[] = [];
    const listener = (reason: unknown) => stray.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const f = front(t.database.db, () => new Promise((r) => setTimeout(r, 30)));
      const refusal = new Error('refused early');
      await expect(f.translate({ text: 'The red car.', source: 'en', target: 'es', callerId: 43, channel: 'api', admitted: Promise.reject(refusal) } as FrontTranslateRequest)).rejects.toBe(refusal);
      // Node reports an unhandled rejection after the microtasks of the tick that left it unhandled.
      await new Promise((r) => setTimeout(r, 10));
      expect(stray).toEqual([]);
      expect(await usage(43)).toBe(0);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
