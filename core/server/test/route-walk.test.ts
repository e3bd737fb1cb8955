import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole, startKernel, type TestKernel } from './support/kernel.js';
import { tableDigests } from './support/route-walk.js';

// Server-side enforcement over the whole deployment: the kernel with every enabled product plugin
// of the repository's registry.json, and every route it registered, called by a signed-in user
// who holds no permission at all. Each route guarded by a permission key must answer HTTP 403 and
// leave every table as it was; without a token, every non-public route answers 601.

const REGISTRY = join(import.meta.dirname, '..', '..', '..', 'registry.json');

let k: TestKernel;
let token: string;

beforeAll(async () => {
  k = await startKernel({ registryFile: REGISTRY });
  await createUserWithRole(k, 'walker', 'Walker-pass-1', 'Holds nothing', []);
  token = await k.login('walker', 'Walker-pass-1');
}, 180_000);
afterAll(async () => {
  await k?.shutdown();
});

/** A concrete address for a route pattern: every `:param` becomes 1. */
const concrete = (url: string) => url.replace(/:[A-Za-z0-9_]+/g, '1').replace(/\*$/, 'x');

const guarded = () => k.routes.filter((r) => r.access !== 'public' && r.access !== 'signed-in' && r.access !== 'member');

const snapshot = () => tableDigests(k.database);

async function call(method: string, url: string, withToken: boolean) {
  const res = await k.app.inject({
    method: method as 'GET',
    url,
    headers: withToken ? { jwt: token } : {},
    ...(method === 'GET' || method === 'OPTIONS' ? {} : { payload: {} }),
  });
  let body: { code?: number; msg?: string } = {};
  try {
    body = res.json();
  } catch {
    // A non-JSON answer is reported below with its status.
  }
  return { status: res.statusCode, code: body.code, msg: body.msg ?? res.body.slice(0, 120) };
}

describe('every registered route', () => {
  it('includes the product plugins and the kernel admin routes', () => {
    const owners = new Set(k.routes.map((r) => r.pluginId));
    expect(owners.has('core')).toBe(true);
    expect(owners.size).toBeGreaterThan(1);
    expect(k.routes.map((r) => `${r.method} ${r.url}`)).toEqual(expect.arrayContaining(['DELETE /api/permissionMenu/deleteBatch', 'PUT /api/systemConfig/updateConfig', 'PUT /api/role/permissions/:roleId']));
  });

  it('has every operation declare its answer (response.data, or a file), so the API document is typed', () => {
    expect(k.routes.filter((r) => !r.typed).map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('answers 403 to a signed-in user without the permission and changes nothing', async () => {
    const routes = guarded();
    expect(routes.length).toBeGreaterThan(10);
    const before = await snapshot();
    const wrong: string[] = [];
    for (const r of routes) {
      const res = await call(r.method, concrete(r.url), true);
      if (res.status !== 403 || res.code !== 403) wrong.push(`${r.method} ${r.url} (${r.pluginId}): HTTP ${res.status} code ${res.code} ${res.msg}`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 601 without a token on every route that is not public, and changes nothing', async () => {
    const before = await snapshot();
    const wrong: string[] = [];
    for (const r of k.routes.filter((x) => x.access !== 'public')) {
      const res = await call(r.method, concrete(r.url), false);
      if (res.code !== 601) wrong.push(`${r.method} ${r.url} (${r.pluginId}): HTTP ${res.status} code ${res.code} ${res.msg}`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});

describe("the README's list of what API keys can reach", () => {
  /** `scope -> METHOD /api/path` from the section's bullets (the LibreTranslate API, `/api/lt/*`, authenticates keys itself). */
  const readmeList = () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');
    const section = readme.split('## What API keys can reach')[1]!.split('\n## ')[0]!;
    const out: string[] = [];
    for (const bullet of section.split('\n\n').find((p) => p.startsWith('- '))!.slice(2).split('\n- ')) {
      const scope = /^`([A-Za-z]+)`/.exec(bullet)?.[1];
      for (const [, route] of bullet.matchAll(/`((?:GET|POST|PUT|DELETE|PATCH) \/api\/[^`]+)`/g)) out.push(`${scope} ${route}`);
    }
    return out.sort();
  };

  it('names every route a key reaches, with its scope, and nothing else', async () => {
    const doc = (await k.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, { 'x-api-key-scope'?: string }>> };
    const served: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (op['x-api-key-scope']) served.push(`${op['x-api-key-scope']} ${method.toUpperCase()} /api${path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1')}`);
      }
    }
    expect(served.length).toBeGreaterThan(5);
    expect(readmeList()).toEqual(served.sort());
  });
});
