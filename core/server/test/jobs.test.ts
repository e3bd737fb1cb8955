import type { Job } from '@linguaport/sdk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobService, type JobService } from '../src/jobs/queue.js';
import { openTestDatabase, type TestDatabase } from './support/test-database.js';

let t: TestDatabase;
let jobs: JobService;
const errors: string[] = [];
const logger = { error: (msg: string) => void errors.push(msg) };

beforeAll(async () => {
  t = await openTestDatabase();
  jobs = await createJobService(t.database, { logger });
});

afterAll(async () => {
  await jobs?.stop();
  await t?.cleanup();
});

const waitFor = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 100 });

describe(`job queue (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('is healthy once started', async () => {
    expect(await jobs.health()).toEqual({ ok: true });
  });

  it('works a sent job and keeps its output', async () => {
    const queue = jobs.forPlugin('term');
    const seen: Job<{ text: string }>[] = [];
    await queue.work<{ text: string }>('import', async (job) => {
      seen.push(job);
      return { words: job.data.text.split(' ').length };
    });
    const id = await queue.send('import', { text: 'three little words' });
    await waitFor(async () => (await queue.getJob('import', id))?.state).toBe('completed');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual({ id, name: 'import', data: { text: 'three little words' } });
    expect((await queue.getJob('import', id))?.output).toEqual({ words: 3 });
  });

  it('prefixes queue names with the plugin id', async () => {
    const id = await jobs.forPlugin('memory').send('reindex', { n: 1 });
    const rows = await t.database.query<{ name: string }>(`SELECT name FROM pgboss.job WHERE id = $1`, [id]);
    expect(rows).toEqual([{ name: 'memory.reindex' }]);
    // Another plugin's queue of the same short name is a different queue.
    expect(await jobs.forPlugin('term').getJob('reindex', id)).toBeNull();
  });

  it('creates many queues at once, from one server and (on PostgreSQL) from a second one, without a deadlock', async () => {
    // Each plugin registers its workers as it starts; on PostgreSQL two unguarded creations deadlocked.
    const second = t.databaseUrl ? await createJobService(await t.open(), { logger }) : null;
    const services = second ? [jobs, second] : [jobs];
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => services[i % services.length].forPlugin(`starting${i}`).work('convert', async () => undefined)),
    );
    await second?.stop();
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    const rows = await t.database.query<{ n: number | string }>(`SELECT count(*) AS n FROM pgboss.queue WHERE name LIKE 'starting%'`);
    expect(Number(rows[0].n)).toBe(12);
  });

  it('retries a failing job until it succeeds', async () => {
    const queue = jobs.forPlugin('retry');
    let attempts = 0;
    await queue.work('flaky', async () => {
      attempts += 1;
      if (attempts < 3) throw new Error(`attempt ${attempts} failed`);
      return { attempts };
    });
    const id = await queue.send('flaky', {}, { retryLimit: 3, retryDelaySeconds: 0 });
    await waitFor(async () => (await queue.getJob('flaky', id))?.state).toBe('completed');
    expect(attempts).toBe(3);
  });

  it('fails a job for good after its retries, keeping the error', async () => {
    const queue = jobs.forPlugin('retry');
    let attempts = 0;
    await queue.work('doomed', async () => {
      attempts += 1;
      throw new Error('always broken');
    });
    const id = await queue.send('doomed', {}, { retryLimit: 1, retryDelaySeconds: 0 });
    await waitFor(async () => (await queue.getJob('doomed', id))?.state).toBe('failed');
    expect(attempts).toBe(2);
    expect((await queue.getJob('doomed', id))?.output).toMatchObject({ message: 'always broken' });
  });

  it('fails only the failing job of a batch', async () => {
    const queue = jobs.forPlugin('batch');
    const ids = await Promise.all([1, 2, 3, 4].map((n) => queue.send('mixed', { n }, { retryLimit: 0 })));
    await queue.work<{ n: number }>(
      'mixed',
      async (job) => {
        if (job.data.n === 3) throw new Error('three is bad');
        return { n: job.data.n };
      },
      { batchSize: 4, concurrency: 2 },
    );
    await waitFor(async () => Promise.all(ids.map(async (id) => (await queue.getJob('mixed', id))?.state))).toEqual([
      'completed',
      'completed',
      'failed',
      'completed',
    ]);
  });

  it('does not queue a second job with the same singleton key while one waits', async () => {
    const queue = jobs.forPlugin('single');
    const first = await queue.send('rebuild', { a: 1 }, { singletonKey: 'index' });
    const second = await queue.send('rebuild', { a: 2 }, { singletonKey: 'index' });
    const other = await queue.send('rebuild', { a: 3 }, { singletonKey: 'other' });
    expect(second).toBe(first);
    expect(other).not.toBe(first);
    const rows = await t.database.query(`SELECT id FROM pgboss.job WHERE name = 'single.rebuild'`);
    expect(rows).toHaveLength(2);
  });

  it('cancels a waiting job so no worker runs it', async () => {
    const queue = jobs.forPlugin('cancel');
    const id = await queue.send('later', { n: 1 }, { startAfterSeconds: 1 });
    await queue.cancel('later', id);
    const ran: number[] = [];
    await queue.work<{ n: number }>('later', async (job) => {
      ran.push(job.data.n);
    });
    // Proof that the worker went past the cancelled job's start time: a job due after it has run.
    const witness = await queue.send('later', { n: 2 }, { startAfterSeconds: 1 });
    await waitFor(async () => (await queue.getJob('later', witness))?.state).toBe('completed');
    expect(ran).toEqual([2]);
    expect((await queue.getJob('later', id))?.state).toBe('cancelled');
  });

  it('answers null for an unknown job id', async () => {
    expect(await jobs.forPlugin('term').getJob('import', 'not-a-uuid')).toBeNull();
    expect(await jobs.forPlugin('term').getJob('import', '00000000-0000-0000-0000-000000000000')).toBeNull();
  });

  it('finishes its own statements before stop returns, so closing the database next loses nothing', async () => {
    const own = await openTestDatabase();
    // Completion statements take a while, as on a busy server: pg-boss sends one it does not await.
    const slow = Object.create(own.database) as typeof own.database;
    let inFlight = 0;
    slow.query = async (text, values) => {
      inFlight++;
      try {
        // The delay is the scenario (a busy server), not a wait in the test.
        if (/state = 'completed'|completed_on/i.test(text)) await new Promise((r) => setTimeout(r, 400));
        return await own.database.query(text, values);
      } finally {
        inFlight--;
      }
    };
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    const service = await createJobService(slow, { logger });
    try {
      const queue = service.forPlugin('late');
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let started = false;
      await queue.work('finish', async () => {
        started = true;
        await gate;
        return { done: true };
      });
      const id = await queue.send('finish', {});
      await waitFor(() => started).toBe(true);
      const stopping = service.stop();
      release();
      await stopping;
      await own.database.close();
      // Every statement pg-boss sent has answered (or failed), and a rejection is reported after the
      // macrotask that made it: only then is "no unhandled rejection" a finding.
      await waitFor(() => inFlight).toBe(0);
      await new Promise((r) => setImmediate(r));
      expect(rejections).toEqual([]);
      const reopened = await own.open();
      const rows = await reopened.query<{ state: string }>(`SELECT state FROM pgboss.job WHERE id = $1`, [id]);
      expect(rows[0]?.state).toBe('completed');
    } finally {
      process.off('unhandledRejection', onRejection);
      await own.cleanup();
    }
  });

  it('keeps an accepted job across a restart of the service and the database', async () => {
    const id = await jobs.forPlugin('durable').send('convert', { file: 'a.docx' });
    await jobs.stop();
    expect(await jobs.health()).toMatchObject({ ok: false });
    await t.database.close();

    const reopened = await t.open();
    jobs = await createJobService(reopened, { logger });
    const queue = jobs.forPlugin('durable');
    expect((await queue.getJob('convert', id))?.state).toBe('created');
    const worked: string[] = [];
    await queue.work<{ file: string }>('convert', async (job) => {
      worked.push(job.data.file);
    });
    await waitFor(async () => (await queue.getJob('convert', id))?.state).toBe('completed');
    expect(worked).toEqual(['a.docx']);
  });

  it('reported no queue errors', () => {
    expect(errors).toEqual([]);
  });
});
