import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startKernel, type TestKernel } from './support/kernel.js';

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

type Json = Record<string, any>;

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

/** A plausible value for a JSON schema, so that one malformed field is the only thing wrong. */
function example(s: Json | undefined, depth = 0): unknown {
  if (!s || depth > 4) return 'x';
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const alternatives = s.anyOf ?? s.oneOf ?? s.allOf;
  if (Array.isArray(alternatives)) return example(alternatives.find((a: Json) => a.type !== 'null') ?? alternatives[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => example(s.items, depth + 1));
    case 'object':
      return Object.fromEntries(Object.entries((s.properties ?? {}) as Record<string, Json>).map(([n, p]) => [n, example(p, depth + 1)]));
    case 'null':
      return null;
    default:
      return s.format === 'email' ? 'a@b.cn' : 'x';
  }
}

interface Operation {
  method: string;
  /** fastify form: /api/user/:id */
  url: string;
  pathParams: string[];
  query: Json;
  body: unknown;
  bodyFields: string[];
}

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const route of k.routes) {
    if (SKIP.has(`${route.method} ${route.url}`)) continue;
    const op = doc.paths?.[route.url.slice(4).replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[route.method.toLowerCase()] as Json | undefined;
    const params = (op?.parameters ?? []) as Json[];
    const bodySchema = op?.requestBody?.content?.['application/json']?.schema as Json | undefined;
    const body = bodySchema ? example(bodySchema) : undefined;
    out.push({
      method: route.method,
      url: route.url,
      pathParams: [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!),
      query: Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, String(example(p.schema))])),
      body,
      bodyFields: body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [],
    });
  }
  return out;
}

const address = (url: string, fill: (name: string) => string) => url.replace(/:([A-Za-z0-9_]+)/g, (_, n: string) => encodeURIComponent(fill(n)));

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
