import type { TaskState } from './states.js';

/** A task of the kernel's task service as the server returns it and `task.changed` pushes it. */
export interface TaskProgress {
  done: number;
  total: number;
  message?: string;
}

export interface TaskInfo<O = unknown> {
  id: string;
  pluginId: string;
  name: string;
  title: string | null;
  state: TaskState;
  priority: number;
  ownerId: number | null;
  progress: TaskProgress;
  attempt: number;
  output: O | null;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

