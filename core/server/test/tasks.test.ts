import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { DomainEvent, TaskInfo } from '@linguaport/sdk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createEventBus, type KernelEventBus } from '../src/bus/events.js';
import { coreMigrations } from '../src/db/core-migrations.js';
import { runMigrations } from '../src/db/migrations.js';
import { createJobService, type JobService } from '../src/jobs/queue.js';
import { taskMigrations } from '../src/tasks/migrations.js';
import { createTaskService, TASK_CHANGED, type KernelTaskService } from '../src/tasks/service.js';
import { openTestDatabase, type TestDatabase } from './support/test-database.js';

const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const waitFor = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout, interval: 50 });

describe(`task service (${kind})`, () => {
  let t: TestDatabase;
  let jobs: JobService;
  let bus: KernelEventBus;
  let tasks: KernelTaskService;
  const events: DomainEvent<TaskInfo>[] = [];

  beforeAll(async () => {
    t = await openTestDatabase();
    await runMigrations(t.database, 'core', coreMigrations);
    await runMigrations(t.database, 'core.tasks', taskMigrations);
    jobs = await createJobService(t.database, { pollingIntervalSeconds: 0.5 });
    bus = await createEventBus(t.database);
    bus.events(TASK_CHANGED).subscribe((e) => void events.push(e as DomainEvent<TaskInfo>));
    tasks = createTaskService({ database: t.database, jobs, bus, heartbeatMs: 100, staleAfterMs: 800, sweepMs: 200, progressEveryMs: 0 });
  });
  afterAll(async () => {
    await tasks?.stop();
    await jobs?.stop();
    await bus?.close();
    await t?.cleanup();
  });

  it('runs a task to completion, with its progress pushed to the owner', async () => {
    const words = await tasks.forPlugin('demo').define({
      name: 'count-words',
      input: z.object({ text: z.string().min(1) }),
      async run(ctx) {
        const list = ctx.input.text.split(' ');
        for (let i = 0; i < list.length; i++) await ctx.progress({ done: i + 1, total: list.length, message: list[i] });
        return { words: list.length };
      },
    });
    const started = await words.start({ text: 'one two three' }, { ownerId: 7, title: 'three words' });
    expect(started).toMatchObject({ state: 'queued', pluginId: 'demo', name: 'count-words', ownerId: 7, title: 'three words', attempt: 1 });
    await waitFor(async () => (await words.get(started.id))?.state).toBe('completed');
    const done = (await words.get(started.id))!;
    expect(done.output).toEqual({ words: 3 });
    expect(done.progress).toMatchObject({ done: 3, total: 3 });
    const mine = events.filter((e) => e.payload.id === started.id);
    expect(mine.every((e) => JSON.stringify(e.audience) === JSON.stringify({ userIds: [7] }))).toBe(true);
    expect(mine.map((e) => e.payload.state)).toEqual(expect.arrayContaining(['queued', 'running', 'completed']));
    expect(mine.some((e) => e.payload.state === 'running' && e.payload.progress.done > 0)).toBe(true);
  });

  it('refuses a bad input with 400 and queues nothing', async () => {
    const handle = await tasks.forPlugin('demo').define({ name: 'strict', input: z.object({ n: z.number().int() }), run: async () => null });
    await expect(handle.start({ n: 'x' } as never)).rejects.toMatchObject({ code: 400 });
    const rows = await t.database.query<{ n: string }>(`select count(*)::text as n from tasks where name = 'strict'`);
    expect(rows[0]!.n).toBe('0');
  });

  it('runs the higher priority first when work waits', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const handle = await tasks.forPlugin('demo').define({
      name: 'ordered',
      input: z.object({ label: z.string() }),
      async run(ctx) {
        if (ctx.input.label === 'blocker') await gate;
        order.push(ctx.input.label);
        return null;
      },
    });
    const blocker = await handle.start({ label: 'blocker' });
    await waitFor(async () => (await handle.get(blocker.id))?.state).toBe('running');
    const low = await handle.start({ label: 'low' }, { priority: 1 });
    const high = await handle.start({ label: 'high' }, { priority: 9 });
    const mid = await handle.start({ label: 'mid' }, { priority: 5 });
    release();
    for (const x of [low, high, mid]) await waitFor(async () => (await handle.get(x.id))?.state).toBe('completed');
    expect(order).toEqual(['blocker', 'high', 'mid', 'low']);
  });

  it('cancels a queued task before it runs and a running one through its signal', async () => {
    let sawAbort = false;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const ran: string[] = [];
    const handle = await tasks.forPlugin('demo').define({
      name: 'cancellable',
      input: z.object({ label: z.string() }),
      async run(ctx) {
        ran.push(ctx.input.label);
        await new Promise<void>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            sawAbort = true;
            resolve();
          });
          void gate.then(resolve);
        });
        return null;
      },
    });
    const first = await handle.start({ label: 'first' });
    await waitFor(async () => (await handle.get(first.id))?.state).toBe('running');
    const second = await handle.start({ label: 'second' });
    expect((await handle.cancel(second.id))?.state).toBe('cancelled');
    expect((await handle.cancel(first.id))?.state).toBe('cancelled');
    expect(sawAbort).toBe(true);
    // The proof that the cancelled queued task never runs: a later task of the same queue runs and finishes.
    release();
    const third = await handle.start({ label: 'third' });
    await waitFor(async () => (await handle.get(third.id))?.state).toBe('completed');
    expect(ran).toEqual(['first', 'third']);
    expect((await handle.get(second.id))?.state).toBe('cancelled');
  });

  it('retries a failed run from its last checkpoint, then fails for good when retries are spent', async () => {
    const seen: Array<{ attempt: number; from: unknown }> = [];
    const handle = await tasks.forPlugin('demo').define({
      name: 'flaky',
      input: z.object({ failTimes: z.number() }),
      retryLimit: 1,
      async run(ctx) {
        seen.push({ attempt: ctx.attempt, from: ctx.resumeFrom });
        await ctx.checkpoint({ reached: ctx.attempt });
        if (ctx.attempt <= ctx.input.failTimes) throw new Error(`broke on attempt ${ctx.attempt}`);
        return { attempt: ctx.attempt };
      },
    });
    const once = await handle.start({ failTimes: 1 });
    await waitFor(async () => (await handle.get(once.id))?.state).toBe('completed');
    expect(seen).toEqual([
      { attempt: 1, from: null },
      { attempt: 2, from: { reached: 1 } },
    ]);
    const always = await handle.start({ failTimes: 5 });
    await waitFor(async () => (await handle.get(always.id))?.state).toBe('failed');
    expect((await handle.get(always.id))?.error).toBe('broke on attempt 2');
  });

  it('takes over a running task whose server stopped beating, from its checkpoint', async () => {
    const resumed: unknown[] = [];
    const handle = await tasks.forPlugin('demo').define({
      name: 'orphan',
      input: z.object({}),
      async run(ctx) {
        resumed.push(ctx.resumeFrom);
        return { attempt: ctx.attempt };
      },
    });
    // What a dead instance leaves: running, a checkpoint, and a heartbeat from long ago.
    const id = '00000000-0000-4000-8000-000000000001';
    await t.database.query(
      `insert into tasks (id, plugin_id, name, owner_id, state, input, checkpoint, attempt, instance, heartbeat_at, started_at)
       values ($1, 'demo', 'orphan', 3, 'running', '{}', '{"line": 40}', 1, 'gone', now() - interval '1 hour', now() - interval '1 hour')`,
      [id],
    );
    await waitFor(async () => (await handle.get(id))?.state).toBe('completed');
    expect(resumed).toEqual([{ line: 40 }]);
    expect((await handle.get(id))?.output).toEqual({ attempt: 2 });
  });

  it(`takes over another server's running task ${kind === 'pglite' ? 'at once: PGlite has one server at a time' : 'only once it went silent: PostgreSQL may be shared'}`, async () => {
    const handle = await tasks.forPlugin('demo').define({
      name: 'fresh-orphan',
      input: z.object({}),
      async run(ctx) {
        return { attempt: ctx.attempt, from: ctx.resumeFrom };
      },
    });
    // Another instance's task that beat just now (dated a few seconds ahead, so a loaded machine's
    // delay before the sweep below cannot make it stale on PostgreSQL).
    const id = '00000000-0000-4000-8000-000000000002';
    await t.database.query(
      `insert into tasks (id, plugin_id, name, owner_id, state, input, checkpoint, attempt, instance, heartbeat_at, started_at)
       values ($1, 'demo', 'fresh-orphan', 3, 'running', '{}', '{"line": 7}', 1, 'elsewhere', now() + interval '4 seconds', now())`,
      [id],
    );
    await tasks.sweep();
    if (kind === 'pglite') {
      // Queued again by that one sweep, whatever its heartbeat says.
      expect((await handle.get(id))?.state).not.toBe('running');
    } else {
      expect((await handle.get(id))?.state).toBe('running');
    }
    await waitFor(async () => (await handle.get(id))?.state).toBe('completed');
    expect((await handle.get(id))?.output).toEqual({ attempt: 2, from: { line: 7 } });
  });
});

describe(`a task across kill -9 of its server (${kind})`, () => {
  let t: TestDatabase;
  let child: ChildProcess | null = null;
  beforeAll(async () => {
    t = await openTestDatabase();
    // The child processes own the storage (PGlite: one process at a time).
    await t.database.close();
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await t?.cleanup();
  });

  const run = (mode: 'start' | 'resume') => {
    const proc = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'support', 'task-child.ts'), mode, t.dataDir, t.databaseUrl ?? ''], {
      cwd: join(import.meta.dirname, '..', '..', '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines: string[] = [];
    let buffer = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      lines.push(...parts);
    });
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    child = proc;
    return { proc, lines, exited };
  };

  it('resumes from its last checkpoint in the next server and finishes once', async () => {
    const first = run('start');
    await waitFor(() => first.lines.filter((l) => l.startsWith('step ')).length, 60_000).toBeGreaterThanOrEqual(3);
    first.proc.kill('SIGKILL');
    await first.exited;
    const taskId = first.lines.find((l) => l.startsWith('task '))!.slice(5);
    const lastStep = Math.max(...first.lines.filter((l) => l.startsWith('step ')).map((l) => Number(l.slice(5))));
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);

    const second = run('resume');
    await waitFor(() => second.lines.find((l) => l.startsWith('done ')), 60_000).toBeTruthy();
    expect(await second.exited).toBe(0);
    const output = JSON.parse(second.lines.find((l) => l.startsWith('done '))!.slice(5)) as { resumedFrom: number; ran: number[]; attempt: number };
    // It picked up at the last checkpoint the killed server saved (the step it printed, or one after it
    // if the kill came between the checkpoint and the print), and no step ran twice.
    expect(output.attempt).toBe(2);
    expect([lastStep, lastStep + 1]).toContain(output.resumedFrom);
    expect(output.ran[0]).toBe(output.resumedFrom + 1);
    expect(output.ran.at(-1)).toBe(12);
  }, 150_000);
});
