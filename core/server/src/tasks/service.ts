import { randomUUID } from 'node:crypto';
import { ApiError, Codes, type EventBus, type Logger } from '@linguaport/sdk/server';
import type { TaskDefinition, TaskHandle, TaskInfo, TaskProgress, TaskRunContext, TaskService, TaskStartOptions } from '@linguaport/sdk/server';
import { describeIssues, type TaskState } from '@linguaport/sdk/shared';
import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import type { JobService } from '../jobs/queue.js';

/**
 * The kernel's task service: long work defined once by a plugin, run over the durable job queue.
 * The `tasks` row is the truth (state, progress, checkpoint); a job only says "run attempt N of task T".
 * A running task's instance beats a heartbeat; a task whose heartbeat went stale (its server died,
 * `kill -9` included) is queued again with the next attempt number and resumes from its checkpoint.
 * Every change of state goes through a guarded UPDATE (`where state = ... and attempt = ...`), so a
 * late job, a second instance or a lost worker can never move a task twice.
 */
export interface KernelTaskService {
  forPlugin(pluginId: string): TaskService;
  get(id: string): Promise<TaskInfo | null>;
  cancel(id: string): Promise<TaskInfo | null>;
  /** Forgets a stopped plugin's definitions: its queued tasks wait until it starts again. */
  forget(pluginId: string): void;
  /** Requeues tasks whose server died and re-sends queued tasks whose job was lost; returns how many. */
  sweep(options?: { all?: boolean }): Promise<number>;
  stop(): Promise<void>;
}

export interface TaskServiceOptions {
  database: Database;
  jobs: JobService;
  bus: EventBus;
  logger?: Pick<Logger, 'error' | 'warn'>;
  /** How often a running task says it is alive (and learns of a cancel from another instance). */
  heartbeatMs?: number;
  /** A running task silent for this long belongs to a dead server (PostgreSQL; on PGlite, another instance's task always does). */
  staleAfterMs?: number;
  /** How often this instance looks for such tasks. */
  sweepMs?: number;
  /** Progress reaches the database and the console at most this often (checkpoints always do). */
  progressEveryMs?: number;
  /** How long `stop()` waits for running tasks to reach a safe point. */
  stopTimeoutMs?: number;
}

export const TASK_CHANGED = 'task.changed';

interface TaskRow {
  id: string;
  plugin_id: string;
  name: string;
  title: string | null;
  owner_id: number | null;
  state: TaskState;
  priority: number;
  input: unknown;
  checkpoint: unknown;
  output: unknown;
  error: string | null;
  progress_done: number;
  progress_total: number;
  progress_message: string | null;
  attempt: number;
  cancel_requested: boolean;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
}

type JobData = { taskId: string; attempt: number };

const iso = (v: Date | string | null) => (v ? new Date(v).toISOString() : null);
const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function presentTask(row: TaskRow): TaskInfo {
  return {
    id: row.id,
    pluginId: row.plugin_id,
    name: row.name,
    title: row.title,
    state: row.state,
    priority: row.priority,
    ownerId: row.owner_id,
    progress: { done: Number(row.progress_done), total: Number(row.progress_total), ...(row.progress_message ? { message: row.progress_message } : {}) },
    attempt: row.attempt,
    output: json(row.output) ?? null,
    error: row.error,
    createdAt: iso(row.created_at)!,
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
  };
}

const jobName = (name: string) => `task.${name}`;
const ms = (n: number) => sql`(${n}::double precision * interval '1 millisecond')`;

export function createTaskService(options: TaskServiceOptions): KernelTaskService {
  const { database, jobs, bus } = options;
  const db = database.db;
  const logger = options.logger ?? { error: (m: string) => console.error(m), warn: (m: string) => console.warn(m) };
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const staleAfterMs = options.staleAfterMs ?? 30_000;
  const progressEveryMs = options.progressEveryMs ?? 250;
  const instance = randomUUID();
  const definitions = new Map<string, TaskDefinition<any, any>>();
  const workers = new Set<string>();
  const running = new Map<string, { abort(why: 'cancel' | 'stop'): void; settled: Promise<void> }>();
  let stopped = false;

  const key = (pluginId: string, name: string) => `${pluginId}\u0000${name}`;

  const publish = async (row: TaskRow | undefined) => {
    if (!row) return;
    // Only the owner's consoles hear of a task; the platform's own tasks reach no console.
    await bus
      .publish({ type: TASK_CHANGED, payload: presentTask(row), audience: { userIds: row.owner_id ? [row.owner_id] : [] } })
      .catch((err: Error) => logger.error(`task ${row.id}: could not publish its change: ${err.message}`));
  };

  const send = (row: Pick<TaskRow, 'id' | 'plugin_id' | 'name' | 'priority' | 'attempt'>) =>
    jobs.forPlugin(row.plugin_id).send<JobData>(jobName(row.name), { taskId: row.id, attempt: row.attempt }, {
      priority: row.priority,
      // One waiting job per attempt however often the sweep re-sends it.
      singletonKey: `${row.id}:${row.attempt}`,
      retryLimit: 0,
    });

  /** Moves the task to `state` if it is still attempt `attempt` in one of `from`; returns the row, or undefined if it had moved on. */
  const move = (id: string, attempt: number, from: TaskState[], set: Record<string, unknown>) =>
    db
      .updateTable('tasks')
      .set({ ...set, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('attempt', '=', attempt)
      .where('state', 'in', from)
      .returningAll()
      .executeTakeFirst() as Promise<TaskRow | undefined>;

  async function requeue(row: TaskRow, why: string): Promise<void> {
    const next = await move(row.id, row.attempt, ['running'], { state: 'queued', attempt: row.attempt + 1, instance: null, heartbeat_at: null, error: why });
    if (!next) return;
    await publish(next);
    if (!stopped) await send(next);
  }

  async function runJob(pluginId: string, definition: TaskDefinition<any, any>, data: JobData): Promise<void> {
    if (stopped) return;
    const claimed = (await db
      .updateTable('tasks')
      .set({ state: 'running', instance, heartbeat_at: sql`now()`, started_at: sql`coalesce(started_at, now())`, updated_at: sql`now()`, error: null })
      .where('id', '=', data.taskId)
      .where('attempt', '=', data.attempt)
      .where('state', '=', 'queued')
      .where('cancel_requested', '=', false)
      .returningAll()
      .executeTakeFirst()) as TaskRow | undefined;
    // A stale job: the task was cancelled, already run, or queued again under a newer attempt.
    if (!claimed) return;
    await publish(claimed);

    const controller = new AbortController();
    let why: 'cancel' | 'stop' | 'lost' | null = null;
    const abort = (reason: 'cancel' | 'stop' | 'lost') => {
      if (!why) why = reason;
      controller.abort(new Error(`task ${reason}`));
    };
    let pending: TaskProgress | null = null;
    let lastFlush = 0;
    const flush = async () => {
      if (!pending) return;
      const p = pending;
      pending = null;
      lastFlush = Date.now();
      await publish(await move(claimed.id, claimed.attempt, ['running'], { progress_done: p.done, progress_total: p.total, progress_message: p.message ?? null }));
    };
    const beat = setInterval(() => {
      void (async () => {
        const row = await db
          .updateTable('tasks')
          .set({ heartbeat_at: sql`now()` })
          .where('id', '=', claimed.id)
          .where('attempt', '=', claimed.attempt)
          .where('state', '=', 'running')
          .returning('cancel_requested')
          .executeTakeFirst();
        if (!row) abort('lost');
        else if (row.cancel_requested) abort('cancel');
        else await flush();
      })().catch((err: Error) => logger.warn(`task ${claimed.id}: heartbeat failed: ${err.message}`));
    }, heartbeatMs);

    const ctx: TaskRunContext<unknown> = {
      taskId: claimed.id,
      input: json(claimed.input),
      ownerId: claimed.owner_id,
      attempt: claimed.attempt,
      resumeFrom: json(claimed.checkpoint) ?? null,
      signal: controller.signal,
      async progress(p) {
        pending = p;
        if (Date.now() - lastFlush >= progressEveryMs) await flush();
      },
      async checkpoint(state, p) {
        if (controller.signal.aborted) throw controller.signal.reason;
        const set: Record<string, unknown> = { checkpoint: JSON.stringify(state ?? null) };
        if (p) Object.assign(set, { progress_done: p.done, progress_total: p.total, progress_message: p.message ?? null });
        pending = null;
        lastFlush = Date.now();
        const row = await move(claimed.id, claimed.attempt, ['running'], set);
        if (!row) {
          abort('lost');
          throw controller.signal.reason;
        }
        await publish(row);
      },
    };

    let settle!: () => void;
    running.set(claimed.id, { abort, settled: new Promise<void>((r) => (settle = r)) });
    try {
      const output = await definition.run(ctx);
      if (why) throw controller.signal.reason;
      await publish(
        await move(claimed.id, claimed.attempt, ['running'], {
          state: 'completed',
          output: JSON.stringify(output ?? null),
          finished_at: sql`now()`,
          progress_done: sql`greatest(progress_done, progress_total)`,
          instance: null,
        }),
      );
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (why === 'cancel') {
        await publish(await move(claimed.id, claimed.attempt, ['running'], { state: 'cancelled', finished_at: sql`now()`, instance: null }));
      } else if (why === 'stop') {
        // Left for the next start (or another instance) to resume from the checkpoint.
        await requeue(claimed, 'server stopped');
      } else if (why === 'lost') {
        // Another instance took the task over after this one's heartbeat went stale.
      } else if (claimed.attempt <= (definition.retryLimit ?? 0)) {
        await requeue(claimed, message);
      } else {
        await publish(await move(claimed.id, claimed.attempt, ['running'], { state: 'failed', error: message.slice(0, 2000), finished_at: sql`now()`, instance: null }));
      }
    } finally {
      clearInterval(beat);
      running.delete(claimed.id);
      settle();
    }
  }

  const get = async (id: string) => {
    if (!UUID.test(id)) return null;
    const row = (await db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst()) as TaskRow | undefined;
    return row ? presentTask(row) : null;
  };

  const cancel = async (id: string) => {
    if (!UUID.test(id)) return null;
    // A queued task is cancelled at once; a running one is asked to stop (here, or by its instance's heartbeat).
    const queued = (await db
      .updateTable('tasks')
      .set({ state: 'cancelled', cancel_requested: true, finished_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .returningAll()
      .executeTakeFirst()) as TaskRow | undefined;
    if (queued) {
      await publish(queued);
      return presentTask(queued);
    }
    await db.updateTable('tasks').set({ cancel_requested: true, updated_at: sql`now()` }).where('id', '=', id).where('state', '=', 'running').execute();
    const here = running.get(id);
    if (here) {
      here.abort('cancel');
      await here.settled;
    }
    return get(id);
  };

  async function sweep({ all = false }: { all?: boolean } = {}): Promise<number> {
    if (stopped) return 0;
    // Running tasks whose server stopped beating: queue the next attempt.
    let stale = db
      .updateTable('tasks')
      .set({ state: 'queued', attempt: sql`attempt + 1`, instance: null, heartbeat_at: null, updated_at: sql`now()`, error: 'server stopped while running' })
      .where('state', '=', 'running')
      // This instance's own tasks are alive by definition, however late a heartbeat on a busy machine.
      .where(sql<boolean>`instance is distinct from ${instance}`);
    // The embedded database has one server at a time (the one that opened its directory): a task
    // another instance was running belongs to a server that is gone, so a restart after `kill -9`
    // resumes it at once. PostgreSQL may be shared by several servers: there only silence tells.
    if (database.kind !== 'pglite') stale = stale.where('heartbeat_at', '<', sql<Date>`now() - ${ms(staleAfterMs)}`);
    const dead = (await stale.returningAll().execute()) as TaskRow[];
    for (const row of dead) await publish(row);
    // Queued tasks whose job may be gone (never sent, or the instance died before sending): send again.
    let waiting = db.selectFrom('tasks').selectAll().where('state', '=', 'queued').where('cancel_requested', '=', false);
    if (!all) waiting = waiting.where('updated_at', '<', sql<Date>`now() - ${ms(staleAfterMs)}`);
    const rows = [...dead, ...((await waiting.execute()) as TaskRow[]).filter((r) => !dead.some((d) => d.id === r.id))];
    let sent = 0;
    for (const row of rows) {
      if (!definitions.has(key(row.plugin_id, row.name))) continue;
      await send(row);
      await db.updateTable('tasks').set({ updated_at: sql`now()` }).where('id', '=', row.id).where('state', '=', 'queued').execute();
      sent++;
    }
    return sent;
  }

  const sweepTimer = setInterval(() => {
    sweep().catch((err: Error) => logger.error(`task sweep failed: ${err.message}`));
  }, options.sweepMs ?? 10_000);
  sweepTimer.unref();

  return {
    forPlugin(pluginId) {
      return {
        async define<I, O>(definition: TaskDefinition<I, O>): Promise<TaskHandle<I, O>> {
          if (!/^[a-z0-9][a-z0-9-]*$/.test(definition.name)) throw new Error(`task name ${definition.name} must be lower-case letters, digits and dashes`);
          const k = key(pluginId, definition.name);
          // A plugin started again (an uploaded part replaced while running) defines its tasks again: the
          // new definition takes over; the queue's worker, registered once, runs whichever is current.
          const known = workers.has(k);
          definitions.set(k, definition);
          if (!known) {
            workers.add(k);
            await jobs.forPlugin(pluginId).work<JobData>(
              jobName(definition.name),
              async (job) => {
                const current = definitions.get(k);
                // Not defined here now (its plugin stopped): left queued for an instance that runs it.
                if (current) await runJob(pluginId, current, job.data);
              },
              { batchSize: 1, concurrency: 1 },
            );
          }
          // Tasks queued before this start (a restart): their jobs may be gone with the old process.
          await sweep({ all: true });
          return {
            async start(input: I, opts: TaskStartOptions = {}) {
              const parsed = definition.input.safeParse(input);
              if (!parsed.success) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': describeIssues(parsed.error.issues, 'zh-CN'), 'en-US': describeIssues(parsed.error.issues, 'en-US') });
              const row = (await db
                .insertInto('tasks')
                .values({
                  id: randomUUID(),
                  plugin_id: pluginId,
                  name: definition.name,
                  title: opts.title ?? null,
                  owner_id: opts.ownerId ?? null,
                  state: 'queued',
                  priority: opts.priority ?? definition.priority ?? 0,
                  input: JSON.stringify(parsed.data ?? null),
                })
                .returningAll()
                .executeTakeFirstOrThrow()) as TaskRow;
              await send(row);
              await publish(row);
              return presentTask(row) as TaskInfo<O>;
            },
            get: async (id) => {
              const info = await get(id);
              return info && info.pluginId === pluginId && info.name === definition.name ? (info as TaskInfo<O>) : null;
            },
            cancel: async (id) => {
              const info = await get(id);
              if (!info || info.pluginId !== pluginId || info.name !== definition.name) return null;
              return (await cancel(id)) as TaskInfo<O> | null;
            },
          };
        },
      };
    },
    forget(pluginId) {
      for (const k of [...definitions.keys()]) if (k.startsWith(`${pluginId}\u0000`)) definitions.delete(k);
    },
    get,
    cancel,
    sweep,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(sweepTimer);
      const settling = [...running.values()].map((r) => {
        r.abort('stop');
        return r.settled;
      });
      // A run that ignores its signal is not waited for forever: its heartbeat stops with the process.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(settling), new Promise<void>((r) => (timer = setTimeout(r, options.stopTimeoutMs ?? 10_000)))]);
      clearTimeout(timer);
    },
  };
}
