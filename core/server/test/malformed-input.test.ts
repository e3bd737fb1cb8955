import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startKernel, type TestKernel } from './support/kernel.js';
import { address, routeOperations, type Json, type Operation } from './support/route-walk.js';

// Bad input is the caller's fault: every route of the whole deployment, called by the super
// administrator (so every check passes and the handler is reached), answers malformed ids,
// strings and types with a 4xx envelope, never a 5xx. The route list and each route's fields come
// from the running server itself (its routes and its OpenAPI document), so a new route is covered
// without editing this test.

const REGISTRY = join(import.meta.dirname, '..', '..', '..', 'registry.json');
/** Beyond PostgreSQL's integer (2^31-1) but still a safe JavaScript integer. */
const HUGE = 3_000_000_000;
const NUL = 'a\u0000b';
/** Values that are wrong for almost any field: too large, NUL, negative, fractional, wrong type, a list for a scalar. */
const MALFORMED: unknown[] = [HUGE, NUL, -1, 1.5, 'abc', { nested: true }, ['1', '2'], true];
/** Calls that would end the caller's own session; they are not what this test is about. */
const SKIP = new Set(['POST /api/logout', 'POST /api/user/switchDepartment']);


let k: TestKernel;
let token: string;
let doc: Json;

beforeAll(async () => {
  k = await startKernel({ registryFile: REGISTRY, logLevel: 'fatal' });
  token = await k.login('admin', ADMIN_PASSWORD);
  doc = (await k.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { jwt: token } })).json();
}, 180_000);
afterAll(async () => {
  await k?.shutdown();
});

const operations = () => routeOperations(k.routes, doc, SKIP);

async function send(op: Operation, path: string, query: Json, body: unknown) {
  const hasBody = op.method !== 'GET' && op.method !== 'OPTIONS' && op.method !== 'HEAD';
  const res = await k.app.inject({
    method: op.method as 'GET',
    url: path,
    query,
    headers: { jwt: token },
    ...(hasBody && body !== undefined ? { payload: JSON.stringify(body), headers: { jwt: token, 'content-type': 'application/json' } } : {}),
  });
  return { status: res.statusCode, text: res.body.slice(0, 160) };
}

describe('malformed input on every route', () => {
  it('answers an id beyond the database column and a NUL in a path parameter with 4xx', async () => {
    const withParams = operations().filter((op) => op.pathParams.length > 0);
    expect(withParams.length).toBeGreaterThan(5);
    const wrong: string[] = [];
    for (const op of withParams) {
      for (const value of [String(HUGE), NUL, '-1', '1.5']) {
        const res = await send(op, address(op.url, () => value), op.query, op.body);
        if (res.status >= 500) wrong.push(`${op.method} ${op.url} with ${JSON.stringify(value)}: HTTP ${res.status} ${res.text}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it('answers huge ids, NUL, negatives, wrong types and lists for scalars in any query or body field with 4xx, never 5xx', async () => {
    const wrong: string[] = [];
    let requests = 0;
    for (const op of operations()) {
      const path = address(op.url, () => '1');
      const variants: Array<{ what: string; query: Json; body: unknown }> = [];
      for (const value of MALFORMED) {
        for (const name of Object.keys(op.query)) {
          const v = Array.isArray(value) ? value.map(String) : typeof value === 'object' ? '[object Object]' : String(value);
          variants.push({ what: `query.${name}=${JSON.stringify(value)}`, query: { ...op.query, [name]: v }, body: op.body });
        }
        for (const name of op.bodyFields) {
          variants.push({ what: `body.${name}=${JSON.stringify(value)}`, query: op.query, body: { ...(op.body as Json), [name]: value } });
        }
        if (op.method !== 'GET' && op.method !== 'OPTIONS') variants.push({ what: `body=${JSON.stringify(value)}`, query: op.query, body: value });
      }
      for (const v of variants) {
        requests++;
        const res = await send(op, path, v.query, v.body);
        if (res.status >= 500) wrong.push(`${op.method} ${op.url} ${v.what}: HTTP ${res.status} ${res.text}`);
      }
    }
    expect(requests).toBeGreaterThan(500);
    expect(wrong).toEqual([]);
    // The walk ran signed in throughout: nothing above ended the session.
    expect((await k.call('GET', '/api/user/getUserInfoByToken', token)).body.code).toBe(200);
  }, 600_000);
});
