import { useCallback, useEffect, useRef, useState } from 'react';
import type { TaskInfo } from '../shared/tasks.js';
import { task as taskMachine } from '../shared/states.js';
import { canTake } from '../shared/state-machine.js';
import { usePlatform, type ApiErrorInfo, type BusEvent } from './index.js';

/** A task as the kernel's `/tasks` calls and `task.changed` events describe it. */
export type TaskView<O = unknown> = TaskInfo<O>;

export const TASK_CHANGED = 'task.changed';

/** 0..1, or null while the total is not known yet. */
export function taskFraction(task: Pick<TaskView, 'progress' | 'state'>): number | null {
  if (task.state === 'completed') return 1;
  const { done, total } = task.progress;
  return total > 0 ? Math.min(1, Math.max(0, done / total)) : null;
}

export interface TaskHookState<O = unknown> {
  task: TaskView<O> | null;
  loading: boolean;
  error: ApiErrorInfo | null;
  /** True when the task's state allows the owner to cancel it. */
  cancellable: boolean;
  cancel(): Promise<void>;
  reload(): Promise<void>;
}

/**
 * One task, kept live: read once from `GET /tasks/:id`, then updated by the `task.changed` events
 * the kernel pushes to the task's owner (progress, state, output), so a view shows progress without
 * polling. `id` null renders nothing yet (the task has not been started).
 */
export function useTask<O = unknown>(id: string | null): TaskHookState<O> {
  const { api, bus } = usePlatform();
  const [task, setTask] = useState<TaskView<O> | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<ApiErrorInfo | null>(null);
  const current = useRef(id);
  current.current = id;

  const reload = useCallback(async () => {
    if (!id) return;
    setLoading(true);
    try {
      const info = await api.get<TaskView<O>>(`/tasks/${encodeURIComponent(id)}`, { silent: true });
      if (current.current === id) {
        setTask(info);
        setError(null);
      }
    } catch (err) {
      if (current.current === id) setError(err as ApiErrorInfo);
    } finally {
      if (current.current === id) setLoading(false);
    }
  }, [api, id]);

  useEffect(() => {
    setTask(null);
    void reload();
  }, [reload]);

  useEffect(() => {
    if (!id) return;
    const sub = bus.events<TaskView<O>>(TASK_CHANGED).subscribe((event: BusEvent<TaskView<O>>) => {
      // Events can overtake the first read; a later attempt or more progress wins over an older copy.
      if (event.payload?.id === id) setTask(event.payload);
    });
    return () => sub.unsubscribe();
  }, [bus, id]);

  const cancel = useCallback(async () => {
    if (!id) return;
    const info = await api.post<TaskView<O>>(`/tasks/${encodeURIComponent(id)}/cancel`);
    if (current.current === id && info) setTask(info);
  }, [api, id]);

  return { task, loading, error, cancellable: !!task && canTake(taskMachine, task.state, 'cancel', 'owner'), cancel, reload };
}
