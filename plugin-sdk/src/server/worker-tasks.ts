import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * Heavy parsing of a plugin's own code (office packages, large XML) in worker processes with a heap
 * limit and a deadline: a file that exhausts the worker's heap fails its own call, and the server
 * keeps answering. Processes, not worker threads: on Node 20 a thread that reaches its
 * `resourceLimits` can still abort the whole process (nodejs/node#47224; seen here with a docx of
 * 120 MB of text under a 128 MB limit), and the server must survive any file. A worker task runs a
 * function of a module, so TypeScript code is shared between the worker and the server:
 *
 *   const parse = defineWorkerTask('formats-office.parse', async (input: In): Promise<Out> => ...);
 *   await parse.run(input, { module: import.meta.url, maxHeapMb: 768 });
 *
 * `module` is a module whose evaluation defines the task (usually the caller's own `import.meta.url`).
 * That works both ways the server runs: from TypeScript (tests, `--dev`: the worker loads tsx) and
 * compiled by esbuild (the URL is then the bundle file that holds the code, whose evaluation defines
 * the task the same way). Input and output are structured-cloned (a Buffer arrives as a Uint8Array).
 * Workers are kept warm for the next call (idle ones do not keep the process alive and end after a
 * minute), at most `MAX_RUNNING` run at once and further calls wait their turn.
 */

export interface WorkerTaskOptions {
  /** The module that defines the task (see above). */
  module: string;
  /** The worker's old-generation heap in MB (default 512): past it the worker alone dies. */
  maxHeapMb?: number;
  /** The call fails after this long and its worker is ended (default 120 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface WorkerTask<I, O> {
  readonly name: string;
  /** Runs the task in a worker process. */
  run(input: I, options: WorkerTaskOptions): Promise<O>;
  /** Runs the task in this process (for code that is itself in a worker). */
  runHere(input: I): Promise<O>;
}

/** Why a worker call failed outside the task's own code: the heap limit, the deadline, an abort, or the worker's death. */
export class WorkerRunError extends Error {
  constructor(
    message: string,
    readonly reason: 'failed' | 'heap' | 'timeout' | 'aborted',
  ) {
    super(message);
    this.name = 'WorkerRunError';
  }
}

/** A task's own error, as thrown in the worker: its name, message and reason in both languages. */
export class WorkerTaskError extends Error {
  constructor(
    message: string,
    readonly errorName: string,
    readonly localized?: Readonly<Record<'zh-CN' | 'en-US', string>>,
  ) {
    super(message);
    this.name = errorName || 'WorkerTaskError';
  }
}

const REGISTRY = Symbol.for('linguaport.workerTasks');
type TaskFn = (input: unknown) => unknown;
const registry = (): Map<string, TaskFn> => ((globalThis as Record<symbol, Map<string, TaskFn>>)[REGISTRY] ??= new Map());

export function defineWorkerTask<I, O>(name: string, fn: (input: I) => O | Promise<O>): WorkerTask<I, O> {
  registry().set(name, fn as TaskFn);
  return {
    name,
    run: (input, options) => runTask<O>(name, input, options),
    runHere: async (input) => fn(input),
  };
}

// The worker's program, run by `node -e` (no file of its own: nothing to find on disk in a build). It
// loads tsx first when the module is TypeScript, then the module, and answers each call with the
// task's value or its error. It ends with the server (its channel closes).
const PROGRAM = `
const ready = (async () => {
  if (process.env.LINGUAPORT_TASK_TSX) (await import(process.env.LINGUAPORT_TASK_TSX)).register();
  await import(process.env.LINGUAPORT_TASK_MODULE);
})();
ready.catch(() => {});
process.on('disconnect', () => process.exit(0));
process.on('message', async (m) => {
  try {
    await ready;
    const fn = (globalThis[Symbol.for('linguaport.workerTasks')] || new Map()).get(m.name);
    if (!fn) throw new Error('no worker task ' + m.name + ' in ' + process.env.LINGUAPORT_TASK_MODULE);
    process.send({ id: m.id, ok: true, value: await fn(m.input) });
  } catch (err) {
    const e = err || {};
    process.send({ id: m.id, ok: false, name: String(e.name || 'Error'), message: String(e.message || e), localized: e.localized && typeof e.localized === 'object' ? { 'zh-CN': String(e.localized['zh-CN']), 'en-US': String(e.localized['en-US']) } : undefined });
  }
});
`;

const MAX_RUNNING = Math.max(1, Number(process.env.LINGUAPORT_PARSE_WORKERS) || 2);
const IDLE_MS = 60_000;

interface Warm {
  child: ChildProcess;
  key: string;
  timer: NodeJS.Timeout | null;
  /** The end of what it wrote to stderr (V8 names a heap exhaustion there). */
  stderr: string;
}

const idle: Warm[] = [];
const waiting: Array<() => void> = [];
let running = 0;
let nextId = 1;
let tsxApi: string | null | undefined;

/** tsx's ESM API for a worker that loads TypeScript (in a build, no module is TypeScript). */
function tsxFor(module: string): string | null {
  if (!/\.[cm]?tsx?$/.test(new URL(module).pathname)) return null;
  if (tsxApi === undefined) {
    try {
      const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
      const esm = cjs.replace(/\.cjs$/, '.mjs');
      tsxApi = existsSync(esm) ? pathToFileURL(esm).href : null;
    } catch {
      tsxApi = null;
    }
  }
  if (!tsxApi) throw new Error(`${module} is TypeScript, and tsx is not installed to run it in a worker`);
  return tsxApi;
}

async function slot(): Promise<void> {
  if (running < MAX_RUNNING) {
    running++;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

function setRef(warm: Warm, on: boolean): void {
  // Idle, a worker never keeps the server alive; busy, it does, as any pending work would.
  const channel = (warm.child as unknown as { channel?: { ref(): void; unref(): void } }).channel;
  if (on) {
    warm.child.ref();
    channel?.ref();
  } else {
    warm.child.unref();
    channel?.unref();
  }
}

function workerFor(module: string, maxHeapMb: number): Warm {
  const key = `${maxHeapMb} ${module}`;
  const at = idle.findIndex((w) => w.key === key && w.child.connected);
  if (at >= 0) {
    const warm = idle.splice(at, 1)[0]!;
    if (warm.timer) clearTimeout(warm.timer);
    warm.timer = null;
    warm.stderr = '';
    setRef(warm, true);
    return warm;
  }
  const env: NodeJS.ProcessEnv = { ...process.env, LINGUAPORT_TASK_MODULE: module, LINGUAPORT_TASK_TSX: tsxFor(module) ?? '' };
  // None of the parent's options (a loader, another heap size): the program loads what it needs.
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, [`--max-old-space-size=${maxHeapMb}`, '-e', PROGRAM], { stdio: ['ignore', 'inherit', 'pipe', 'ipc'], serialization: 'advanced', env });
  const warm: Warm = { child, key, timer: null, stderr: '' };
  child.stderr!.on('data', (d: Buffer) => {
    warm.stderr = (warm.stderr + d.toString('utf8')).slice(-4096);
  });
  child.on('error', () => {});
  return warm;
}

function putBack(warm: Warm): void {
  // One warm worker per module and heap is enough for the next call; more would only hold memory.
  if (!warm.child.connected || idle.some((w) => w.key === warm.key)) {
    warm.child.kill('SIGKILL');
    return;
  }
  setRef(warm, false);
  warm.timer = setTimeout(() => {
    const at = idle.indexOf(warm);
    if (at >= 0) idle.splice(at, 1);
    warm.child.kill('SIGKILL');
  }, IDLE_MS);
  warm.timer.unref();
  idle.push(warm);
}

async function runTask<O>(name: string, input: unknown, options: WorkerTaskOptions): Promise<O> {
  const { module, maxHeapMb = 512, timeoutMs = 120_000, signal } = options;
  if (signal?.aborted) throw new WorkerRunError('aborted', 'aborted');
  await slot();
  let warm: Warm;
  try {
    warm = workerFor(module, maxHeapMb);
  } catch (err) {
    release();
    throw err;
  }
  const { child } = warm;
  const id = nextId++;
  return new Promise<O>((resolve, reject) => {
    let settled = false;
    const settle = (keep: boolean, fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (keep) putBack(warm);
      else child.kill('SIGKILL');
      release();
      fn();
    };
    const onMessage = (m: { id: number; ok: boolean; value?: O; name?: string; message?: string; localized?: WorkerTaskError['localized'] }) => {
      if (m.id !== id) return;
      settle(true, () => (m.ok ? resolve(m.value as O) : reject(new WorkerTaskError(m.message ?? 'failed', m.name ?? 'Error', m.localized))));
    };
    const onExit = (code: number | null, sig: NodeJS.Signals | null) => {
      // Let the last of stderr arrive: V8 reports a heap exhaustion there before it aborts.
      setImmediate(() =>
        settle(false, () =>
          reject(/heap out of memory|Reached heap limit/i.test(warm.stderr) ? new WorkerRunError(`over the ${maxHeapMb} MB heap limit`, 'heap') : new WorkerRunError(`the worker ended (${sig ?? code}) before answering: ${warm.stderr.trim().split('\n').pop() ?? ''}`, 'failed')),
        ),
      );
    };
    const onAbort = () => settle(false, () => reject(new WorkerRunError('aborted', 'aborted')));
    const timer = setTimeout(() => settle(false, () => reject(new WorkerRunError(`no answer within ${timeoutMs} ms`, 'timeout'))), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send({ id, name, input }, (err) => {
      if (err) settle(false, () => reject(new WorkerRunError(`the worker could not be reached: ${err.message}`, 'failed')));
    });
  });
}
