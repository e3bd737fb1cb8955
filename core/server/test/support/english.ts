import type { TestKernel } from './kernel.js';

/**
 * `k.call` from an English console (the `locale=en-US` cookie): for tests that check the English
 * wording of a refusal. With no locale the server answers in Chinese, the console's default.
 */
export function englishCall(k: TestKernel): TestKernel['call'] {
  return async (method, url, token, payload) => {
    const headers: Record<string, string> = { cookie: 'locale=en-US', ...(token ? { jwt: token } : {}) };
    const res = await k.app.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body };
  };
}
