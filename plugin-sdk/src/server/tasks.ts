import type { ZodType } from 'zod';
import type { TaskInfo, TaskProgress } from '../shared/tasks.js';

export type { TaskInfo, TaskProgress } from '../shared/tasks.js';

/**
 * Long work (a file to translate, an import, OCR, training) as a task: defined once by its plugin,
 * started with a validated input, run over the durable job queue with a priority, reporting progress
 * that the console sees live, cancellable, and resumed from its last checkpoint after a restart
 * (`kill -9` included). A task's `run` may therefore start more than once: it reads `checkpoint`
 * and carries on from there.
 */
export interface TaskDefinition<I = unknown, O = unknown> {
  /** Unique within the plugin, e.g. `translate-file`. */
  name: string;
  /** Checked on `start`; a bad input is refused with 400 and nothing is queued. */
  input: ZodType<I>;
  run(ctx: TaskRunContext<I>): Promise<O>;
  /** Higher runs first (0 by default); `start` may override it per task. */
  priority?: number;
  /** Further attempts after a run throws (0 by default): each resumes from the last checkpoint. */
  retryLimit?: number;
}

export interface TaskRunContext<I = unknown> {
  taskId: string;
  input: I;
  /** The user who started the task, or null for the platform's own work. */
  ownerId: number | null;
  /** 1 on the first run, then 2, 3... after a restart or a retry. */
  attempt: number;
  /** What the last run saved with `checkpoint`, or null on a first run. */
  resumeFrom: unknown;
  /** Aborted when the task is cancelled or the server stops: stop at the next safe point. */
  signal: AbortSignal;
  /** Reports progress (pushed to the owner's console, at most a few times a second). */
  progress(progress: TaskProgress): Promise<void>;
  /** Saves where the work stands, durably, before it returns: a later run starts from here. */
  checkpoint(state: unknown, progress?: TaskProgress): Promise<void>;
}

export interface TaskStartOptions {
  ownerId?: number | null;
  priority?: number;
  /** What the task list shows, e.g. the file name. */
  title?: string;
}

/** One defined task of a plugin. */
export interface TaskHandle<I = unknown, O = unknown> {
  start(input: I, options?: TaskStartOptions): Promise<TaskInfo<O>>;
  get(id: string): Promise<TaskInfo<O> | null>;
  /** Cancels a queued or running task; a finished one is returned unchanged. */
  cancel(id: string): Promise<TaskInfo<O> | null>;
}

/** The task service as a plugin sees it (`ctx.tasks`): names are scoped to the plugin. */
export interface TaskService {
  define<I, O>(definition: TaskDefinition<I, O>): Promise<TaskHandle<I, O>>;
}
