import { describe, expect, it } from 'vitest';
import { WorkerTaskError } from '../../src/server/worker-tasks.js';
import { echo, exhaust, refuse } from './fixtures/worker-tasks.js';

const module = new URL('./fixtures/worker-tasks.ts', import.meta.url).href;

describe('worker tasks', () => {
  it('runs a module function in a worker process and keeps the worker warm for the next call', async () => {
    const first = await echo.run({ bytes: new Uint8Array(10), times: 3 }, { module });
    expect(first.length).toBe(30);
    expect(first.pid).not.toBe(process.pid);
    const second = await echo.run({ bytes: new Uint8Array(1), times: 1 }, { module });
    expect(second.pid).toBe(first.pid);
  });

  it('passes a task error back with its name and its reason in both languages', async () => {
    const err = await refuse.run(undefined as never, { module }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkerTaskError);
    expect((err as WorkerTaskError).name).toBe('XmlBudgetError');
    expect((err as WorkerTaskError).localized).toEqual({ 'zh-CN': '节点过多', 'en-US': 'too many nodes' });
  });

  it('a worker that exhausts its heap fails only its own call; the next calls are answered', async () => {
    const started = Date.now();
    const [dead, alive] = await Promise.allSettled([exhaust.run(undefined as never, { module, maxHeapMb: 64 }), echo.run({ bytes: new Uint8Array(5), times: 2 }, { module })]);
    expect(dead.status).toBe('rejected');
    expect((dead as PromiseRejectedResult).reason).toMatchObject({ name: 'WorkerRunError', reason: 'heap' });
    expect(alive).toMatchObject({ status: 'fulfilled', value: { length: 10 } });
    expect((await echo.run({ bytes: new Uint8Array(2), times: 2 }, { module })).length).toBe(4);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
