import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { extname } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { idSchema } from '../shared/checks.js';
import { deletedSchema } from './answers.js';
import { idList, like, pageOf, pageOffset, pageQuery, pageSchema } from './helpers.js';
import { ApiError, Codes, type Caller, type LocalizedText, type RouteAccess, type ServerPluginContext } from './index.js';
import { probeUpload, type MediaInfo } from '@linguaport/media';
import type { TaskHandle } from './tasks.js';
import type { UploadedFile } from './uploads.js';

/**
 * The media-job kit: what the areas that turn uploaded audio or video into a job (video conversion,
 * video translation) share on the server. A job is a row of the area's own table, owned by its
 * uploader (anyone else gets 404 on every call), moved between states by conditional updates that
 * push `event` to its owner, and run by the kernel's task service. The kit registers the routes
 * that are the same in every such area (list, delete, settings) and gives the parts of the others.
 */

export type MediaJobState = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** The columns every media-job table has. */
export interface MediaJobColumns {
  id: number;
  owner_id: number;
  name: string;
  status: MediaJobState;
  task_id: string | null;
  source_key: string;
}

export interface MediaJobMessages {
  notFound(id: number): LocalizedText;
  notCancellable(status: string): LocalizedText;
  notRetryable(status: string): LocalizedText;
  empty(name: string): LocalizedText;
  tooLarge(name: string, mb: number): LocalizedText;
  notMedia(name: string): LocalizedText;
}

export interface MediaJobKitOptions<Job extends MediaJobColumns, Row> {
  /** The area's job table (in its own namespace). */
  table: string;
  /** The bus event pushed to the owner on every change, with `present(job)` as payload. */
  event: string;
  present(job: Job): Row | Promise<Row>;
  messages: MediaJobMessages;
}

/** `attachment` with the name in ASCII and in UTF-8 (RFC 6266), so every browser keeps the file's name. */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** How often a running job writes its progress to its row (the task's progress goes out every time). */
const PROGRESS_EVERY_MS = 400;

/** The uploaded files of a multipart body (`files` and `file` both taken), each with its bare name. */
export function uploadedMedia(body: { files?: UploadedFile[]; file?: UploadedFile[] }): Array<UploadedFile & { name: string }> {
  return [...(body.files ?? []), ...(body.file ?? [])].map((f) => ({ ...f, name: f.filename.split(/[\\/]/).pop() || f.filename }));
}

export function mediaJobKit<Job extends MediaJobColumns, Row>(ctx: ServerPluginContext, db: Kysely<any>, options: MediaJobKitOptions<Job, Row>) {
  const { table, messages } = options;

  const publish = async (j: Job | undefined) => {
    if (j) await ctx.bus.publish({ type: options.event, payload: await options.present(j), audience: { userIds: [j.owner_id] } }).catch(() => undefined);
  };

  /** Updates a job if its `column` is still among `from` (any, for null); the row after, or undefined when it had moved on. */
  async function move(id: number, from: readonly string[] | null, set: Record<string, unknown>, column = 'status'): Promise<Job | undefined> {
    let q = db.updateTable(table).set(set).where('id', '=', id);
    if (from) q = q.where(column, 'in', from);
    const row = (await q.returningAll().executeTakeFirst()) as Job | undefined;
    await publish(row);
    return row;
  }

  /** The caller's own job; another user's, or none, is a 404 (not a 403: its existence is not told). */
  async function own(caller: Caller, id: number): Promise<Job> {
    const j = (await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst()) as Job | undefined;
    if (!j || j.owner_id !== caller.userId) throw new ApiError(Codes.NOT_FOUND, messages.notFound(id));
    return j;
  }

  /** A progress reporter: the task's progress every time, the row's `column` now and then (or at once with `set`). */
  function reporter(jobId: number, progress: (p: { done: number; total: number }) => Promise<void>, column = 'progress', statusColumn = 'status') {
    let saving: Promise<unknown> = Promise.resolve();
    let lastSave = 0;
    const report = (fraction: number, set: Record<string, unknown> = {}) => {
      void progress({ done: Math.round(fraction * 1000), total: 1000 }).catch(() => undefined);
      if (!Object.keys(set).length && (fraction >= 1 || Date.now() - lastSave < PROGRESS_EVERY_MS)) return;
      lastSave = Date.now();
      saving = saving.then(() => move(jobId, ['running'], { [column]: fraction, ...set }, statusColumn)).catch(() => undefined);
    };
    return { report, settled: () => saving };
  }

  /**
   * The row brought in line with its task where the two can part: a task cancelled through `/tasks`
   * or failed outside the run, and (with `requeued`) one queued again after its server died while the
   * row still says running.
   */
  async function reconcile(
    j: Job,
    task: TaskHandle<any, any>,
    how: { idColumn?: string; statusColumn?: string; errorColumn?: string; finished?: boolean; requeued?: Record<string, unknown> } = {},
  ): Promise<Job> {
    const { idColumn = 'task_id', statusColumn = 'status', errorColumn = 'error', finished = true } = how;
    const row = j as unknown as Record<string, unknown>;
    const taskId = row[idColumn] as string | null;
    const status = row[statusColumn];
    if (!taskId || (status !== 'queued' && status !== 'running')) return j;
    const info = await task.get(taskId);
    const end = finished ? { finished_at: sql`now()` } : {};
    if (info?.state === 'cancelled') return (await move(j.id, ['queued', 'running'], { [statusColumn]: 'cancelled', ...end }, statusColumn)) ?? j;
    if (info?.state === 'failed') return (await move(j.id, ['queued', 'running'], { [statusColumn]: 'failed', [errorColumn]: (info.error ?? 'failed').slice(0, 500), ...end }, statusColumn)) ?? j;
    if (info?.state === 'queued' && status === 'running' && how.requeued) return (await move(j.id, ['running'], { [statusColumn]: 'queued', ...how.requeued }, statusColumn)) ?? j;
    return j;
  }

  /** Starts the job's task and keeps its id on the row. */
  async function start(j: Job, task: TaskHandle<{ jobId: number }, any>, options: { title?: string; priority?: number; idColumn?: string } = {}): Promise<Job> {
    const info = await task.start({ jobId: j.id }, { ownerId: j.owner_id, title: options.title ?? j.name, priority: options.priority ?? 5 });
    const row = (await db.updateTable(table).set({ [options.idColumn ?? 'task_id']: info.id }).where('id', '=', j.id).returningAll().executeTakeFirstOrThrow()) as Job;
    await publish(row);
    return row;
  }

  /**
   * An upload's checks that do not depend on the area: not empty, within the size, audio or video by
   * content (the SDK's `probeUpload`: playlists and lists of other files, which ffmpeg would follow, are refused).
   */
  async function probe(file: UploadedFile & { name: string }, maxFileMb: number): Promise<{ info: MediaInfo; refused?: undefined } | { info?: undefined; refused: LocalizedText }> {
    if (file.size === 0) return { refused: messages.empty(file.name) };
    if (file.size > maxFileMb * 1024 * 1024) return { refused: messages.tooLarge(file.name, maxFileMb) };
    return probeUpload(file.path, file.name, { notMedia: messages.notMedia(file.name) });
  }

  /** Stores an upload as the job's source (`jobs/<id>/source.<ext>`); the row goes if storing fails. */
  async function storeSource(row: Job, file: UploadedFile & { name: string }): Promise<Job> {
    const key = `jobs/${row.id}/source${extname(file.name).toLowerCase().replace(/[^.a-z0-9]/g, '')}`;
    try {
      await ctx.storage.put(key, createReadStream(file.path));
    } catch (err) {
      await db.deleteFrom(table).where('id', '=', row.id).execute();
      throw err;
    }
    return (await db.updateTable(table).set({ source_key: key }).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow()) as Job;
  }

  /** Cancels a queued or running job's task and marks it cancelled (409 when it is neither). */
  async function cancel(caller: Caller, j: Job, task: TaskHandle<any, any>): Promise<Job> {
    if (j.status !== 'queued' && j.status !== 'running') throw new ApiError(Codes.CONFLICT, messages.notCancellable(j.status));
    if (j.task_id) await task.cancel(j.task_id);
    return (await move(j.id, ['queued', 'running'], { status: 'cancelled', finished_at: sql`now()` })) ?? (await own(caller, j.id));
  }

  /** Queues a failed or cancelled job again with `reset` (409 otherwise, or when it moved meanwhile) and starts its task. */
  async function retry(j: Job, reset: Record<string, unknown>, begin: (j: Job) => Promise<Job>): Promise<Job> {
    if (j.status !== 'failed' && j.status !== 'cancelled') throw new ApiError(Codes.CONFLICT, messages.notRetryable(j.status));
    const moved = (await db.updateTable(table).set({ status: 'queued', progress: 0, error: null, finished_at: null, ...reset }).where('id', '=', j.id).where('status', 'in', ['failed', 'cancelled']).returningAll().executeTakeFirst()) as Job | undefined;
    if (!moved) throw new ApiError(Codes.CONFLICT, messages.notRetryable(j.status));
    return begin(moved);
  }

  /** The routes every media-job area has in the same shape, under `base` (`/video`): list, get, cancel, retry, delete, settings. */
  function routes(r: {
    base: string;
    access: RouteAccess;
    rowSchema: z.ZodTypeAny;
    /** The job as the list shows it now (reconciled with its tasks). */
    current(j: Job): Promise<Job>;
    list: { summary: string; filters?: Record<string, readonly [string, ...string[]]>; states: readonly [string, ...string[]] };
    /** `GET <base>/get/:id` answering the row; an area whose answer holds more registers its own. */
    get?: { summary: string };
    /** `before` may handle the call itself (a second task of the job running): the row it answers, or undefined. */
    cancel: { summary: string; task: TaskHandle<any, any>; before?(caller: Caller, j: Job): Promise<Job | undefined> };
    retry: { summary: string; reset: Record<string, unknown>; start(j: Job): Promise<Job> };
    /** Running work of a deleted job is cancelled. */
    remove: { summary: string; cancelTasks(j: Job): Promise<void> };
    settings: { manage: RouteAccess; schema: z.ZodTypeAny; get(): Promise<unknown>; set(value: any): Promise<unknown>; summaries: [string, string] };
  }): void {
    const optionalEnum = (values: readonly [string, ...string[]]) => z.preprocess((v) => (v === '' ? undefined : v), z.enum(values as [string, ...string[]]).optional());
    const filters = Object.fromEntries(Object.entries(r.list.filters ?? {}).map(([k, v]) => [k, optionalEnum(v)]));

    ctx.route({
      method: 'GET',
      url: `${r.base}/list`,
      access: r.access,
      summary: r.list.summary,
      schema: { query: z.object({ ...pageQuery, name: z.string().trim().max(200).optional(), status: optionalEnum(r.list.states), ...filters }) },
      response: { data: pageSchema(r.rowSchema) },
      async handler({ query, caller }) {
        const q0 = query as Record<string, any>;
        let q = db.selectFrom(table).where('owner_id', '=', caller!.userId);
        if (q0.name) q = q.where('name', 'ilike', like(q0.name));
        for (const column of ['status', ...Object.keys(filters)]) if (q0[column]) q = q.where(column, '=', q0[column]);
        const [rows, total] = await Promise.all([
          q.selectAll().orderBy('id', 'desc').limit(q0.pageSize).offset(pageOffset(q0 as never)).execute(),
          q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst(),
        ]);
        const shown: Row[] = [];
        for (const row of rows) shown.push(await options.present(await r.current(row as Job)));
        return pageOf(q0 as never, shown, (total as { n?: string } | undefined)?.n);
      },
    });

    const byId = { params: z.object({ id: idSchema }) };
    if (r.get)
      ctx.route({
        method: 'GET',
        url: `${r.base}/get/:id`,
        access: r.access,
        summary: r.get.summary,
        schema: byId,
        response: { data: r.rowSchema, errors: [404] },
        handler: async ({ params, caller }) => options.present(await r.current(await own(caller!, params.id))),
      });

    ctx.route({
      method: 'POST',
      url: `${r.base}/cancel/:id`,
      access: r.access,
      summary: r.cancel.summary,
      schema: byId,
      response: { data: r.rowSchema, errors: [404, 409] },
      async handler({ params, caller }) {
        const j = await own(caller!, params.id);
        return options.present((await r.cancel.before?.(caller!, j)) ?? (await cancel(caller!, j, r.cancel.task)));
      },
    });

    ctx.route({
      method: 'POST',
      url: `${r.base}/retry/:id`,
      access: r.access,
      summary: r.retry.summary,
      schema: byId,
      response: { data: r.rowSchema, errors: [404, 409] },
      handler: async ({ params, caller }) => options.present(await retry(await own(caller!, params.id), r.retry.reset, r.retry.start)),
    });

    ctx.route({
      method: 'DELETE',
      url: `${r.base}/delete`,
      access: r.access,
      summary: r.remove.summary,
      schema: { query: z.object({ ids: idList }) },
      response: { data: deletedSchema, errors: [404] },
      async handler({ query, caller }) {
        // All found first: one id that is not the caller's refuses the whole call and deletes nothing.
        const found: Job[] = [];
        for (const id of query.ids) found.push(await own(caller!, id));
        for (const j of found) {
          await db.deleteFrom(table).where('id', '=', j.id).execute();
          await r.remove.cancelTasks(j);
          await rm(ctx.storage.path(`jobs/${j.id}`), { recursive: true, force: true });
        }
        return { deleted: found.length };
      },
    });

    ctx.route({ method: 'GET', url: `${r.base}/settings`, access: r.settings.manage, summary: r.settings.summaries[0], response: { data: r.settings.schema }, handler: () => r.settings.get() });
    ctx.route({
      method: 'PUT',
      url: `${r.base}/settings`,
      access: r.settings.manage,
      summary: r.settings.summaries[1],
      schema: { body: r.settings.schema },
      response: { data: r.settings.schema },
      handler: ({ body }) => r.settings.set(body),
    });
  }

  return { publish, move, own, reporter, reconcile, start, probe, storeSource, cancel, retry, routes };
}

export type MediaJobKit<Job extends MediaJobColumns, Row> = ReturnType<typeof mediaJobKit<Job, Row>>;
