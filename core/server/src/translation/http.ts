import { EngineError, errorForStatus } from './adapter.js';

/**
 * One HTTP exchange with an engine, with a deadline. Network failures become `unavailable`,
 * the deadline or the caller's abort becomes `timeout`; the body is returned as text with the
 * status so each adapter maps its own protocol's error shapes.
 */
export interface EngineResponse {
  status: number;
  text: string;
}

export async function engineFetch(
  url: string,
  init: RequestInit & { timeoutMs: number; signal?: AbortSignal },
): Promise<EngineResponse> {
  const deadline = AbortSignal.timeout(init.timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
  if (init.signal?.aborted) throw new EngineError('timeout', `request to ${url} cancelled by the caller`);
  try {
    const res = await fetch(url, { ...init, signal });
    return { status: res.status, text: await res.text() };
  } catch (err) {
    if (signal.aborted) {
      const why = init.signal?.aborted ? 'cancelled by the caller' : `no answer within ${init.timeoutMs} ms`;
      throw new EngineError('timeout', `request to ${url} ${why}`, undefined, { cause: err });
    }
    const code = (err as { cause?: { code?: string } }).cause?.code;
    throw new EngineError('unavailable', `cannot reach ${url}${code ? ` (${code})` : ''}`, undefined, { cause: err });
  }
}

/** Parse a JSON body or fail with `bad-response`. */
export function parseJson(res: EngineResponse, what: string): unknown {
  try {
    return JSON.parse(res.text);
  } catch (err) {
    // An error page (a proxy's 502, a crashed handler's 500) still says whose failure it is.
    if (res.status >= 400) throw errorForStatus(res.status, `${what}: HTTP ${res.status}`);
    throw new EngineError('bad-response', `${what}: answer is not JSON (HTTP ${res.status})`, res.status, { cause: err });
  }
}

/** Run `task` over `items` with at most `limit` in flight; results keep the input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
