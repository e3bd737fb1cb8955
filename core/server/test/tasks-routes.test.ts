import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, FIXTURES, startKernel, type TestKernel } from './support/kernel.js';

// The task service and the format registry as a plugin reaches them (ctx.tasks, ctx.formats), and the
// kernel's /api/tasks calls: a user sees and cancels only their own tasks.

let k: TestKernel;
let ann: string;
let bob: string;
let admin: string;

beforeAll(async () => {
  k = await startKernel({ registryFile: join(FIXTURES, 'registry-chores.json') }, { tasks: { heartbeatMs: 100, staleAfterMs: 2000, sweepMs: 300, progressEveryMs: 0 } });
  await createUserWithRole(k, 'ann', 'Ann-pass-word-1', 'Ann role', []);
  await createUserWithRole(k, 'bob', 'Bob-pass-word-1', 'Bob role', []);
  ann = await k.login('ann', 'Ann-pass-word-1');
  bob = await k.login('bob', 'Bob-pass-word-1');
  admin = await k.login('admin', ADMIN_PASSWORD);
}, 180_000);
afterAll(async () => {
  await k?.shutdown();
});

const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 100 });

describe('tasks of a plugin', () => {
  it('runs a task a user started and shows it to that user only', async () => {
    const started = await k.call('POST', '/api/chores/tidy', ann, { rooms: 3 });
    expect(started.body.code).toBe(200);
    const id = started.body.data.id as string;
    expect(started.body.data).toMatchObject({ pluginId: 'chores', name: 'tidy', state: 'queued', title: 'tidy up' });
    await poll(async () => (await k.call('GET', `/api/tasks/${id}`, ann)).body.data?.state).toBe('completed');
    const done = (await k.call('GET', `/api/tasks/${id}`, ann)).body.data;
    expect(done).toMatchObject({ output: { tidied: 3 }, progress: { done: 3, total: 3 } });

    const list = (await k.call('GET', '/api/tasks?pageNum=1&pageSize=10', ann)).body.data;
    expect(list.records.map((r: { id: string }) => r.id)).toContain(id);
    // Someone else's task is a task that does not exist.
    expect((await k.call('GET', `/api/tasks/${id}`, bob)).body.code).toBe(404);
    expect((await k.call('POST', `/api/tasks/${id}/cancel`, bob)).body.code).toBe(404);
    expect((await k.call('GET', '/api/tasks', bob)).body.data.total).toBe(0);
    // A super administrator sees everyone's when asking for all.
    const all = (await k.call('GET', '/api/tasks?all=true', admin)).body.data;
    expect(all.records.map((r: { id: string }) => r.id)).toContain(id);
    // A finished task cannot be cancelled.
    expect((await k.call('POST', `/api/tasks/${id}/cancel`, ann)).body.code).toBe(400);
  });

  it('cancels a running task of the caller', async () => {
    const id = (await k.call('POST', '/api/chores/tidy', ann, { rooms: 50, slow: true })).body.data.id as string;
    await poll(async () => (await k.call('GET', `/api/tasks/${id}`, ann)).body.data?.progress.done).toBeGreaterThan(0);
    const cancelled = await k.call('POST', `/api/tasks/${id}/cancel`, ann);
    expect(cancelled.body.data.state).toBe('cancelled');
    const after = (await k.call('GET', `/api/tasks/${id}`, ann)).body.data;
    expect(after.progress.done).toBeLessThan(50);
  });

  it('refuses a bad task input with 400 and a bad task id with 400', async () => {
    const bad = await k.call('POST', '/api/chores/tidy', ann, { rooms: 'many' });
    expect(bad.body.code).toBe(400);
    expect(bad.body.msg).toMatch(/rooms/);
    expect((await k.call('GET', '/api/tasks/not-a-uuid', ann)).body.code).toBe(400);
    expect((await k.call('GET', '/api/tasks?state=sleeping', ann)).body.code).toBe(400);
  });
});

describe('formats of a plugin', () => {
  it('registers beside the kernel formats and is found by extension', async () => {
    const res = await k.call('GET', '/api/chores/formats', ann);
    expect(res.body.data).toEqual({ ids: ['txt', 'chore-list'], forChores: 'chore-list' });
  });
});
