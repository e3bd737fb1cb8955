import { Worker } from 'node:worker_threads';

/**
 * Runs heavy parsing (spreadsheets, office packages, large XML) in a worker thread with a heap limit
 * and a deadline, so a hostile file fails its own call and never stalls or kills the server.
 *
 * `source` is plain JavaScript (CommonJS, not TypeScript: the server is bundled, so a worker file of
 * its own would not exist in `dist`), run with `workerData` as the input; it answers by calling
 * `done(value)` (any structured-clonable value), or throws. `require` is available; a package is best
 * resolved by the caller (`createRequire(import.meta.url).resolve(...)`) and passed in the input.
 */

export interface WorkerRunOptions {
  /** The worker's old-generation heap, in MB (default 256): past it the worker alone dies. */
  maxHeapMb?: number;
  /** Killed after this long (default 60 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Why a worker run failed: its own error, the heap limit, the deadline or an abort. */
export class WorkerRunError extends Error {
  constructor(
    message: string,
    readonly reason: 'failed' | 'heap' | 'timeout' | 'aborted',
  ) {
    super(message);
    this.name = 'WorkerRunError';
  }
}

const PRELUDE = `
const { parentPort, workerData } = require('node:worker_threads');
const done = (value) => parentPort.postMessage({ ok: true, value });
(async () => {
`;
const POSTLUDE = `
})().catch((err) => parentPort.postMessage({ ok: false, message: String((err && err.message) || err), name: err && err.name }));
`;

export function runInWorker<T>(source: string, input: unknown, opts: WorkerRunOptions = {}): Promise<T> {
  const { maxHeapMb = 256, timeoutMs = 60_000, signal } = opts;
  if (signal?.aborted) return Promise.reject(new WorkerRunError('aborted', 'aborted'));
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(PRELUDE + source + POSTLUDE, {
      eval: true,
      workerData: input,
      // No loader hooks or inspector flags of the parent: the source is plain JavaScript.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, maxHeapMb >> 3)), stackSizeMb: 8 },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(new WorkerRunError(`no answer within ${timeoutMs} ms`, 'timeout'))), timeoutMs);
    const onAbort = () => settle(() => reject(new WorkerRunError('aborted', 'aborted')));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (m: { ok: boolean; value?: T; message?: string }) => settle(() => (m.ok ? resolve(m.value as T) : reject(new WorkerRunError(m.message ?? 'failed', 'failed')))));
    worker.once('error', (err: Error & { code?: string }) =>
      settle(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new WorkerRunError(`over the ${maxHeapMb} MB heap limit`, 'heap') : new WorkerRunError(err.message, 'failed'))),
    );
    worker.once('exit', (code) => settle(() => reject(new WorkerRunError(`the worker exited with ${code} before answering`, 'failed'))));
  });
}
