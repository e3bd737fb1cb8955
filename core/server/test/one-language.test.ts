import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startKernel, type TestKernel } from './support/kernel.js';
import { address, routeOperations, type Json, type Operation } from './support/route-walk.js';

// One language at a time: every route of the whole deployment, given a wrong value, refuses it in the
// request's language (the locale cookie): no Chinese in an English console's messages and none of
// English's own words in a Chinese one's. The LibreTranslate-compatible API answers in English, as
// LibreTranslate does. Field paths and values quoted back (body.name, 1.5) are the same in both.

const REGISTRY = join(import.meta.dirname, '..', '..', '..', 'registry.json');
const SKIP = new Set(['POST /api/logout', 'POST /api/user/switchDepartment']);
const CJK = /[\u3400-\u9fff]/;

let k: TestKernel;
let token: string;
let doc: Json;

beforeAll(async () => {
  k = await startKernel({ registryFile: REGISTRY, logLevel: 'fatal' });
  token = await k.login('admin', ADMIN_PASSWORD);
  doc = (await k.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
}, 180_000);
afterAll(async () => {
  await k?.shutdown();
});

/** One request with one wrong value: the first body field, else the first query field, a list where one value belongs. */
function wrongOnce(op: Operation): { query: Json; body: unknown } | null {
  if (op.bodyFields.length) return { query: op.query, body: { ...(op.body as Json), [op.bodyFields[0]!]: [[1.5]] } };
  const names = Object.keys(op.query);
  if (names.length) return { query: { ...op.query, [names[0]!]: ['a', 'b'] }, body: op.body };
  return null;
}

async function refusal(op: Operation, locale: string, query: Json, body: unknown, pathValue = '1') {
  const hasBody = op.method !== 'GET' && op.method !== 'OPTIONS';
  const headers: Record<string, string> = { jwt: token, cookie: `locale=${locale}` };
  if (hasBody) headers['content-type'] = 'application/json';
  const res = await k.app.inject({ method: op.method as 'GET', url: address(op.url, () => pathValue), query, headers, ...(hasBody ? { payload: JSON.stringify(body) } : {}) });
  const json = String(res.headers['content-type'] ?? '').includes('json') ? res.json() : null;
  return { status: res.statusCode, msg: typeof json?.msg === 'string' ? (json.msg as string) : null };
}

describe('messages in the request\'s language', () => {
  it('refuses a wrong value on every route in English for an English console and in Chinese for a Chinese one', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const op of routeOperations(k.routes, doc, SKIP)) {
      if (op.url.startsWith('/api/lt/')) continue;
      const request = wrongOnce(op);
      if (!request) continue;
      const en = await refusal(op, 'en-US', request.query, request.body);
      const zh = await refusal(op, 'zh-CN', request.query, request.body);
      if (en.status < 400 || en.status >= 500 || !en.msg || !zh.msg) continue;
      checked++;
      if (CJK.test(en.msg)) wrong.push(`${op.method} ${op.url} en-US: ${en.msg.slice(0, 120)}`);
      if (!CJK.test(zh.msg)) wrong.push(`${op.method} ${op.url} zh-CN: ${zh.msg.slice(0, 120)}`);
    }
    expect(checked).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  }, 600_000);

  it('says what it did not find, or why it refused, in the request\'s language', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const op of routeOperations(k.routes, doc, SKIP)) {
      if (op.url.startsWith('/api/lt/') || op.pathParams.length === 0) continue;
      const en = await refusal(op, 'en-US', op.query, op.body, '999999');
      const zh = await refusal(op, 'zh-CN', op.query, op.body, '999999');
      if (en.status < 400 || en.status >= 500 || !en.msg || !zh.msg) continue;
      checked++;
      if (CJK.test(en.msg)) wrong.push(`${op.method} ${op.url} en-US: ${en.msg.slice(0, 120)}`);
      if (!CJK.test(zh.msg)) wrong.push(`${op.method} ${op.url} zh-CN: ${zh.msg.slice(0, 120)}`);
    }
    expect(checked).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  }, 600_000);
});
