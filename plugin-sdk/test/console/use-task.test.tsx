// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { Subject, filter } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { PlatformContext, taskFraction, useTask, type ApiClient, type BusEvent, type ConsoleBus, type PlatformServices, type TaskHookState, type TaskView } from '../../src/console/index.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
});

const ID = '00000000-0000-4000-8000-00000000000a';
const view = (over: Partial<TaskView>): TaskView => ({
  id: ID,
  pluginId: 'documents',
  name: 'translate-file',
  title: 'report.docx',
  state: 'queued',
  priority: 0,
  ownerId: 1,
  progress: { done: 0, total: 0 },
  attempt: 1,
  output: null,
  error: null,
  createdAt: '2026-11-23T10:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  ...over,
});

function platform(calls: string[]) {
  const subject = new Subject<BusEvent>();
  const bus: ConsoleBus = {
    events: <T,>(type?: string) => (type ? subject.pipe(filter((e) => e.type === type)) : subject) as never as import('rxjs').Observable<BusEvent<T>>,
    emit: (e) => subject.next(e),
  };
  const api = {
    get: async (url: string) => {
      calls.push(`GET ${url}`);
      return view({ state: 'running', progress: { done: 1, total: 4 } });
    },
    post: async (url: string) => {
      calls.push(`POST ${url}`);
      return view({ state: 'cancelled' });
    },
  } as unknown as ApiClient;
  return { bus, api } as PlatformServices;
}

async function mount(services: PlatformServices, id: string | null) {
  const state: { current: TaskHookState | null } = { current: null };
  function View() {
    state.current = useTask(id);
    return null;
  }
  root = createRoot(document.createElement('div'));
  await act(async () => root!.render(<PlatformContext.Provider value={services}><View /></PlatformContext.Provider>));
  return () => state.current!;
}

describe('useTask', () => {
  it('reads the task, then follows its pushed changes and ignores other tasks', async () => {
    const calls: string[] = [];
    const services = platform(calls);
    const hook = await mount(services, ID);
    expect(calls).toEqual([`GET /tasks/${ID}`]);
    expect(hook().task?.progress).toEqual({ done: 1, total: 4 });
    expect(hook().cancellable).toBe(true);
    await act(async () => services.bus.emit({ type: 'task.changed', payload: view({ id: 'another', state: 'failed' }) }));
    expect(hook().task?.state).toBe('running');
    await act(async () => services.bus.emit({ type: 'task.changed', payload: view({ state: 'completed', progress: { done: 4, total: 4 }, output: { words: 9 } }) }));
    expect(hook().task).toMatchObject({ state: 'completed', output: { words: 9 } });
    expect(hook().cancellable).toBe(false);
  });

  it('cancels through the kernel and shows the answer', async () => {
    const calls: string[] = [];
    const hook = await mount(platform(calls), ID);
    await act(() => hook().cancel());
    expect(calls).toContain(`POST /tasks/${ID}/cancel`);
    expect(hook().task?.state).toBe('cancelled');
  });

  it('asks nothing before there is a task', async () => {
    const calls: string[] = [];
    const hook = await mount(platform(calls), null);
    expect(calls).toEqual([]);
    expect(hook().task).toBeNull();
  });
});

describe('taskFraction', () => {
  it('is unknown without a total, bounded, and whole when completed', () => {
    expect(taskFraction(view({ progress: { done: 3, total: 0 } }))).toBeNull();
    expect(taskFraction(view({ progress: { done: 3, total: 4 } }))).toBe(0.75);
    expect(taskFraction(view({ progress: { done: 9, total: 4 } }))).toBe(1);
    expect(taskFraction(view({ state: 'completed', progress: { done: 0, total: 0 } }))).toBe(1);
  });
});
