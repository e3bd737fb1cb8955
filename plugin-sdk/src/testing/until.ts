import { inspect } from 'node:util';

export interface UntilOptions {
  /** How long to keep asking, in ms (default 15 s: generous for a loaded machine; a passing run returns at once). */
  timeout?: number;
  /** Pause between two asks, in ms (default 50). */
  interval?: number;
  /** What is awaited, for the failure message (default: the source of `fn`); a function is asked at the deadline. */
  what?: string | (() => string);
  /**
   * Runs each pause: React tests pass `(pause) => act(pause)` so the updates that land while waiting
   * are inside act().
   */
  pause?: (wait: () => Promise<void>) => unknown;
}

/** What `until` resolves with: the answer, never a falsy one. */
export type Truthy<T> = Exclude<T, false | 0 | 0n | '' | null | undefined>;

const show = (value: unknown) => inspect(value, { depth: 4, breakLength: Infinity, maxStringLength: 400, maxArrayLength: 20 });

/**
 * Asks `fn` until it answers a truthy value and resolves with that value; a call that throws counts
 * as not yet. Past the deadline it throws an Error naming what was awaited and the last answer (or
 * the last error), so a failing wait says where it stood. One helper instead of a fixed sleep or a
 * loop of its own in each test.
 */
export async function until<T>(fn: () => T | Promise<T>, options: UntilOptions = {}): Promise<Truthy<T>> {
  const { timeout = 15_000, interval = 50, pause = (wait) => wait() } = options;
  const deadline = Date.now() + timeout;
  let last: { value: unknown } | { error: unknown } = { value: undefined };
  for (;;) {
    try {
      const value = await fn();
      if (value) return value as Truthy<T>;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() >= deadline) break;
    await pause(() => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, Math.min(interval, deadline - Date.now())))));
  }
  const what = typeof options.what === 'function' ? options.what() : (options.what ?? fn.toString().replace(/\s+/g, ' ').slice(0, 300));
  const where = 'error' in last ? `last error: ${last.error instanceof Error ? last.error.message : show(last.error)}` : `last value: ${show(last.value)}`;
  throw new Error(`timed out after ${timeout} ms waiting for ${what}; ${where}`);
}
