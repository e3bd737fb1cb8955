import type { Job, JobOptions, JobQueue, Logger } from '@linguaport/sdk/server';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import type { Database } from '../db/database.js';

/** The kernel's durable job queue, shared by every plugin; each plugin sees its own `JobQueue`. */
export interface JobService {
  forPlugin(pluginId: string): JobQueue;
  health(): Promise<{ ok: boolean; detail?: string }>;
  /** Stops fetching, lets running handlers finish (up to the timeout), then returns. */
  stop(): Promise<void>;
}

export interface JobServiceOptions {
  logger?: Pick<Logger, 'error'>;
  /** How often an idle worker looks for work; pg-boss allows 0.5 s at the least. */
  pollingIntervalSeconds?: number;
  /** Jobs fetched per poll by default. */
  batchSize?: number;
  /** How long `stop()` waits for running handlers. */
  stopTimeoutMs?: number;
}

const SCHEMA = 'pgboss';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Queue defaults; a job's own options override them. */
const QUEUE_DEFAULTS = {
  retryLimit: 2,
  retryDelay: 5,
  retryBackoff: false,
  // A job whose server died mid-run is retried after this; long work (training, big files) needs room.
  expireInSeconds: 60 * 60,
};

/**
 * pg-boss talks to the database through `executeSql(text, values)`. `Database.query` already sends
 * parameterised text as one statement and parameterless text (pg-boss's multi-statement schema
 * and maintenance scripts) over the simple protocol, on PGlite and PostgreSQL alike.
 */
function bossDb(database: Database, logger: Pick<Logger, 'error'>) {
  const inFlight = new Set<Promise<unknown>>();
  let closed = false;
  return {
    executeSql(text: string, values?: unknown[]) {
      const statement = CREATE_QUEUE.test(text) ? createQueueLocked(database, text, values) : database.query(text, values);
      // pg-boss completes a worker's batch without awaiting it; once the queue has stopped (and the
      // database may be closing) such a late statement is logged, never an unhandled rejection.
      const run = statement.then(
        (rows) => ({ rows }),
        (err: Error) => {
          if (!closed) throw err;
          logger.error(`job queue: statement after stop not run: ${err.message}`);
          // A late complete or fail reads the count of the rows it changed (`rows[0].count`): none.
          return { rows: (/select\s+count\(\*\)/i.test(text) ? [{ count: 0 }] : []) as any[] };
        },
      );
      inFlight.add(run);
      void run.finally(() => inFlight.delete(run)).catch(() => undefined);
      return run;
    },
    /** Waits for the statements already sent, then absorbs the failures of any sent later. */
    async drain() {
      closed = true;
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
  };
}

const CREATE_QUEUE = /^\s*SELECT \w+\.create_queue\(/;

/**
 * pg-boss's create_queue inserts the queue's row, then adds foreign keys to the queue table and
 * attaches a partition to the job table. Two at once (two plugins starting, or two servers) each
 * hold the lock the other's foreign key needs: PostgreSQL ends one with "deadlock detected". So
 * queues are created one at a time in the whole database, under a transaction-scoped advisory lock.
 */
async function createQueueLocked(database: Database, text: string, values?: unknown[]) {
  return database.db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`${SCHEMA}.create_queue`}))`.execute(trx);
    const result = await trx.executeQuery(CompiledQuery.raw(text, values ?? []));
    return result.rows as any[];
  });
}

/** The same, inside a kysely transaction, so a check and a send can be one atomic step. */
function bossDbIn(trx: Kysely<any>) {
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      const result = await trx.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: result.rows as any[] };
    },
  };
}

function errorOutput(err: unknown) {
  return err instanceof Error ? { message: err.message, name: err.name, stack: err.stack } : { message: String(err) };
}

/** Run `fn` on every item with at most `limit` running at once. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}

export async function createJobService(database: Database, options: JobServiceOptions = {}): Promise<JobService> {
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 0.5;
  const defaultBatchSize = options.batchSize ?? 5;
  const logger = options.logger ?? { error: (msg: string, extra?: object) => console.error(msg, extra ?? '') };

  const db = bossDb(database, logger);
  const boss = new PgBoss({
    db: db as unknown as PgBoss.Db,
    schema: SCHEMA,
    migrate: true,
    supervise: true,
    // No cron schedules yet: the timekeeper would only add polling.
    schedule: false,
    pollingIntervalSeconds,
  });
  // pg-boss reports worker and maintenance failures as 'error' events; unhandled they would crash.
  boss.on('error', (err: Error & { queue?: string }) => {
    logger.error(`job queue error${err.queue ? ` in ${err.queue}` : ''}: ${err.message}`);
  });
  await boss.start();

  let stopped = false;
  const queues = new Map<string, Promise<void>>();
  const workersByQueue = new Map<string, string[]>();

  // Created once per process; createQueue is idempotent in the database, so other instances are fine.
  const ensureQueue = (queue: string) => {
    let ready = queues.get(queue);
    if (!ready) {
      ready = boss.createQueue(queue, { name: queue, ...QUEUE_DEFAULTS }).catch((err) => {
        queues.delete(queue);
        throw err;
      });
      queues.set(queue, ready);
    }
    return ready;
  };

  const forPlugin = (pluginId: string): JobQueue => {
    const queueOf = (name: string) => `${pluginId}.${name}`;

    return {
      async send<T extends object>(name: string, data: T, opts: JobOptions = {}) {
        const queue = queueOf(name);
        await ensureQueue(queue);
        const sendOptions: PgBoss.SendOptions = {};
        if (opts.retryLimit !== undefined) sendOptions.retryLimit = opts.retryLimit;
        if (opts.retryDelaySeconds !== undefined) sendOptions.retryDelay = opts.retryDelaySeconds;
        if (opts.startAfterSeconds !== undefined) sendOptions.startAfter = opts.startAfterSeconds;
        if (opts.priority !== undefined) sendOptions.priority = opts.priority;

        let id: string | null;
        if (opts.singletonKey !== undefined) {
          // pg-boss's standard queues do not dedupe by key, so: lock the key, reuse a waiting job, or send.
          const key = opts.singletonKey;
          id = await database.db.transaction().execute(async (trx) => {
            await sql`SELECT pg_advisory_xact_lock(hashtext(${queue}), hashtext(${key}))`.execute(trx);
            const waiting = await sql<{ id: string }>`
              SELECT id FROM pgboss.job
              WHERE name = ${queue} AND singleton_key = ${key} AND state IN ('created', 'retry')
              ORDER BY created_on LIMIT 1`.execute(trx);
            if (waiting.rows[0]) return waiting.rows[0].id;
            return boss.send(queue, data, { ...sendOptions, singletonKey: key, db: bossDbIn(trx) as unknown as PgBoss.Db });
          });
        } else {
          id = await boss.send(queue, data, sendOptions);
        }
        if (!id) throw new Error(`job queue ${queue} did not accept the job`);
        // Wake this process's idle workers instead of waiting for their next poll.
        for (const workerId of workersByQueue.get(queue) ?? []) boss.notifyWorker(workerId);
        return id;
      },

      async work<T extends object>(
        name: string,
        handler: (job: Job<T>) => Promise<unknown>,
        workOptions: { batchSize?: number; concurrency?: number } = {},
      ) {
        const queue = queueOf(name);
        await ensureQueue(queue);
        const batchSize = workOptions.batchSize ?? defaultBatchSize;
        const concurrency = workOptions.concurrency ?? 1;
        // Each job completes or fails on its own, so one failure in a batch retries only that job.
        const workerId = await boss.work<T>(queue, { batchSize, pollingIntervalSeconds }, async (jobs) => {
          await eachLimited(jobs, concurrency, async (job) => {
            try {
              const output = await handler({ id: job.id, name, data: job.data });
              await boss.complete(queue, job.id, output === undefined ? undefined : (output as object));
            } catch (err) {
              await boss.fail(queue, job.id, errorOutput(err)).catch((failErr: Error) => {
                logger.error(`job queue ${queue}: could not record failure of ${job.id}: ${failErr.message}`);
              });
            }
          });
        });
        workersByQueue.set(queue, [...(workersByQueue.get(queue) ?? []), workerId]);
      },

      async getJob(name: string, id: string) {
        if (!UUID.test(id)) return null;
        const job = await boss.getJobById(queueOf(name), id, { includeArchive: true });
        return job ? { id: job.id, state: job.state, output: job.output ?? null } : null;
      },

      async cancel(name: string, id: string) {
        if (!UUID.test(id)) return;
        await boss.cancel(queueOf(name), id);
      },
    };
  };

  return {
    forPlugin,
    async health() {
      if (stopped) return { ok: false, detail: 'job queue is stopped' };
      try {
        await database.query(`SELECT version FROM ${SCHEMA}.version`);
        return { ok: true };
      } catch (err) {
        return { ok: false, detail: err instanceof Error ? err.message : String(err) };
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await boss.stop({ graceful: true, wait: true, timeout: options.stopTimeoutMs ?? 30_000 });
      await db.drain();
    },
  };
}
