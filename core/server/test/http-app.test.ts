// Database: none
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, type RouteDefinition } from '@linguaport/sdk/server';
import { userNameSchema, validationMessage, ValidationKeys } from '@linguaport/sdk/shared';
import { createApp, type KernelApp } from '../src/http/app.js';

// The HTTP layer on its own: nobody is signed in (no session store behind it), so these tests
// cover the envelope, validation, errors, bodies and the registration checks.

const owner = { pluginId: 'demo', declaredPermissions: new Set(['demo:view']) };
let kernel: KernelApp | null = null;
let logLines: string[] = [];

async function appWith(...routes: RouteDefinition[]): Promise<KernelApp> {
  logLines = [];
  kernel = await createApp({ logLevel: 'info', logStream: { write: (l) => void logLines.push(l) }, resolveCaller: async () => null });
  for (const r of routes) kernel.registerRoute(r, owner);
  await kernel.app.ready();
  return kernel;
}

afterEach(async () => {
  await kernel?.app.close();
  kernel = null;
});

/** A plugin may bundle its own copy of the SDK: the kernel must recognise its ApiError by shape. */
class ForeignApiError extends Error {
  constructor(public readonly code: number, message: string) {
    super(message);
    this.name = 'ApiError';
  }
}

function multipart(fields: Record<string, string>, file?: { name: string; filename: string; content: string }) {
  const boundary = '----linguaport-test';
  let body = '';
  for (const [k, v] of Object.entries(fields)) body += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  if (file) body += `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: text/plain\r\n\r\n${file.content}\r\n`;
  body += `--${boundary}--\r\n`;
  return { payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en-US' } };
}

describe('the envelope', () => {
  it('wraps returned data as {code: 200, msg, data}', async () => {
    const { app } = await appWith({ method: 'GET', url: '/echo', access: 'public', handler: ({ query }) => ({ got: query }) });
    const res = await app.inject({ method: 'GET', url: '/api/echo?a=1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, msg: 'success', data: { got: { a: '1' } } });
  });

  it('checks answers against a declared response schema when the tests ask for it, as the client reads them', async () => {
    expect(process.env.LINGUAPORT_CHECK_RESPONSES).toBe('1');
    const { app } = await appWith(
      { method: 'GET', url: '/typed', access: 'public', response: { data: z.object({ at: z.string(), n: z.number() }) }, handler: () => ({ at: new Date(0), n: 1 }) },
      { method: 'GET', url: '/lying', access: 'public', response: { data: z.object({ n: z.number() }) }, handler: () => ({ n: 'one' }) },
    );
    // A Date is read as its JSON text, so a string schema fits it.
    expect((await app.inject({ method: 'GET', url: '/api/typed' })).json().data).toEqual({ at: '1970-01-01T00:00:00.000Z', n: 1 });
    const lying = await app.inject({ method: 'GET', url: '/api/lying' });
    expect(lying.statusCode).toBe(500);
    expect(logLines.join('\n')).toContain('GET /api/lying does not match its declared response schema: n:');
  });

  it('answers null data when a handler returns nothing', async () => {
    const { app } = await appWith({ method: 'POST', url: '/nothing', access: 'public', handler: () => undefined });
    expect((await app.inject({ method: 'POST', url: '/api/nothing' })).json()).toEqual({ code: 200, msg: 'success', data: null });
  });

  it('reads the validation keys of a handler\'s own zod parse out in the request\'s language', async () => {
    // The handler parses by itself (not through the route schema): its ZodError reaches the error handler.
    const { app } = await appWith({ method: 'POST', url: '/own-parse', access: 'public', handler: ({ body }) => z.object({ username: userNameSchema }).parse(body) });
    const ask = async (headers: Record<string, string>) => (await app.inject({ method: 'POST', url: '/api/own-parse', headers, payload: { username: 'a' } })).json();
    expect(await ask({})).toEqual({ code: 400, msg: `请求无效：username: ${validationMessage(ValidationKeys.userNameLength, 'zh-CN')}`, data: null });
    expect(await ask({ cookie: 'locale=en-US' })).toEqual({ code: 400, msg: `Invalid request: username: ${validationMessage(ValidationKeys.userNameLength, 'en-US')}`, data: null });
    expect(JSON.stringify(await ask({ 'accept-language': 'en-US' }))).not.toContain('validation.');
  });

  it('answers a thrown ApiError with its code, message and HTTP status', async () => {
    const { app } = await appWith(
      { method: 'GET', url: '/conflict', access: 'public', handler: () => { throw new ApiError(409, 'Name already taken', { field: 'name' }); } },
      { method: 'GET', url: '/auth', access: 'public', handler: () => { throw new ApiError(304, 'Bad credentials'); } },
    );
    const conflict = await app.inject({ method: 'GET', url: '/api/conflict' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toEqual({ code: 409, msg: 'Name already taken', data: { field: 'name' } });
    const auth = await app.inject({ method: 'GET', url: '/api/auth' });
    expect(auth.statusCode).toBe(200);
    expect(auth.json()).toMatchObject({ code: 304, msg: 'Bad credentials' });
  });

  it("recognises a plugin's own copy of ApiError by its name and code", async () => {
    const { app } = await appWith({ method: 'GET', url: '/foreign', access: 'public', handler: () => { throw new ForeignApiError(429, 'Slow down'); } });
    const res = await app.inject({ method: 'GET', url: '/api/foreign' });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ code: 429, msg: 'Slow down', data: null });
  });

  it('answers an unknown API path with a 404 envelope', async () => {
    const { app } = await appWith({ method: 'GET', url: '/known', access: 'public', handler: () => 1 });
    for (const [method, url] of [['GET', '/api/unknown'], ['DELETE', '/api/known']] as const) {
      const res = await app.inject({ method, url, headers: { cookie: 'locale=en-US' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 404, msg: `No such API: ${method} ${url}`, data: null });
      expect((await app.inject({ method, url })).json()).toEqual({ code: 404, msg: `没有此接口：${method} ${url}`, data: null });
    }
  });

  it('hides an unexpected error behind a 500 and logs its stack', async () => {
    const { app } = await appWith({ method: 'GET', url: '/boom', access: 'public', handler: () => { throw new Error('secret detail at db.ts:42'); } });
    const res = await app.inject({ method: 'GET', url: '/api/boom', headers: { 'accept-language': 'en-US' } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 500, msg: 'Internal server error', data: null });
    expect((await app.inject({ method: 'GET', url: '/api/boom' })).json()).toEqual({ code: 500, msg: '服务器内部错误', data: null });
    expect(res.body).not.toContain('secret detail');
    expect(res.body).not.toContain('at ');
    expect(logLines.join('')).toContain('secret detail at db.ts:42');
    expect(logLines.join('')).toMatch(/"stack":"Error: secret detail/);
  });
});

describe('validation', () => {
  const route: RouteDefinition = {
    method: 'POST',
    url: '/items/:group',
    access: 'public',
    schema: {
      params: z.object({ group: z.enum(['a', 'b']) }),
      query: z.object({ page: z.coerce.number().int().positive() }),
      body: z.object({ name: z.string().min(2), size: z.number() }),
    },
    handler: ({ params, query, body }) => ({ params, query, body }),
  };

  it('passes parsed params, query and body to the handler', async () => {
    const { app } = await appWith(route);
    const res = await app.inject({ method: 'POST', url: '/api/items/a?page=2', payload: { name: 'ok', size: 3 } });
    expect(res.json().data).toEqual({ params: { group: 'a' }, query: { page: 2 }, body: { name: 'ok', size: 3 } });
  });

  it('refuses bad input with 400 and a message naming each bad field', async () => {
    const { app } = await appWith(route);
    const res = await app.inject({ method: 'POST', url: '/api/items/a?page=0', payload: { name: 'x' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe(400);
    expect(body.msg).toContain('query.page');
    expect(body.msg).toContain('body.name');
    expect(body.msg).toContain('body.size');
    const params = await app.inject({ method: 'POST', url: '/api/items/z?page=1', payload: { name: 'ok', size: 1 } });
    expect(params.json().msg).toContain('params.group');
  });

  it('answers malformed JSON with a 400 envelope', async () => {
    const { app } = await appWith(route);
    const res = await app.inject({ method: 'POST', url: '/api/items/a?page=1', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(400);
  });

  it('turns a ZodError thrown inside a handler into a 400', async () => {
    const { app } = await appWith({ method: 'GET', url: '/inner', access: 'public', handler: () => z.object({ lang: z.string() }).parse({}) });
    const res = await app.inject({ method: 'GET', url: '/api/inner' });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('lang');
  });
});

describe('request bodies and raw replies', () => {
  const form: RouteDefinition = {
    method: 'POST',
    url: '/form',
    access: 'public',
    upload: { maxBytes: 1024 },
    schema: { body: z.object({ username: z.string(), note: z.string().optional(), doc: z.any().optional() }) },
    handler: ({ body }) => ({ username: body.username, note: body.note, doc: body.doc ? { filename: body.doc.filename, text: body.doc.data.toString() } : null }),
  };

  it('reads urlencoded form bodies', async () => {
    const { app } = await appWith({ ...form, upload: undefined });
    const res = await app.inject({ method: 'POST', url: '/api/form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'username=ann&note=a+b%2Bc' });
    expect(res.json().data).toEqual({ username: 'ann', note: 'a b+c', doc: null });
  });

  it('takes only multipart on a route that takes files (415 for a form or JSON body), in the caller\'s language', async () => {
    const { app } = await appWith(form);
    const urlencoded = await app.inject({ method: 'POST', url: '/api/form', headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en-US' }, payload: 'username=ann' });
    expect(urlencoded.statusCode).toBe(415);
    expect(urlencoded.json()).toMatchObject({ code: 400, msg: expect.stringContaining('multipart/form-data'), data: null });
    const json = await app.inject({ method: 'POST', url: '/api/form', headers: { 'accept-language': 'zh-CN' }, payload: { username: 'ann', doc: { filename: 'a', path: '/etc/passwd' } } });
    expect(json.statusCode).toBe(415);
    expect(json.json().msg).toContain('multipart/form-data');
  });

  it('reads multipart form fields and files for a route with a body schema', async () => {
    const { app } = await appWith(form);
    const res = await app.inject({ method: 'POST', url: '/api/form', ...multipart({ username: 'bob' }, { name: 'doc', filename: 'a.txt', content: 'hello file' }) });
    expect(res.json().data).toEqual({ username: 'bob', doc: { filename: 'a.txt', text: 'hello file' } });
  });

  it('refuses a file part on a route that declares no upload, and still reads its fields', async () => {
    const { app } = await appWith({ method: 'POST', url: '/signIn', access: 'public', handler: ({ body }) => body });
    const fields = await app.inject({ method: 'POST', url: '/api/signIn', ...multipart({ username: 'bob', password: 'x' }) });
    expect(fields.json()).toEqual({ code: 200, msg: 'success', data: { username: 'bob', password: 'x' } });
    const withFile = await app.inject({ method: 'POST', url: '/api/signIn', ...multipart({ username: 'bob' }, { name: 'doc', filename: 'a.txt', content: 'x' }) });
    expect(withFile.statusCode).toBe(400);
    expect(withFile.json()).toMatchObject({ code: 400, msg: 'This call takes no files', data: null });
  });

  it('answers 413 to a large multipart body on a route without files before reading it, in the caller\'s language', async () => {
    let called = false;
    const { app } = await appWith({ method: 'POST', url: '/signIn', access: 'public', handler: () => void (called = true) });
    const big = multipart({ username: 'bob' }, { name: 'doc', filename: 'big.bin', content: 'x'.repeat(5 * 1024 * 1024) });
    const res = await app.inject({ method: 'POST', url: '/api/signIn', ...big });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 400, msg: 'Request too large: this call takes at most 1 MB' });
    const zh = await app.inject({ method: 'POST', url: '/api/signIn', payload: big.payload, headers: { ...big.headers, 'accept-language': 'zh-CN' } });
    expect(zh.json().msg).toBe('请求内容过大：此接口最多接收 1 MB');
    // A field over its limit with no declared length (chunked) is refused while reading.
    const longField = multipart({ username: 'x'.repeat(100 * 1024) });
    const chunked = await app.inject({ method: 'POST', url: '/api/signIn', headers: { ...longField.headers, 'transfer-encoding': 'chunked' }, payload: Readable.from([Buffer.from(longField.payload)]) });
    expect(chunked.statusCode).toBe(413);
    expect(called).toBe(false);
  });

  it('answers 4xx to multipart without a boundary or with a broken body', async () => {
    const { app } = await appWith({ method: 'POST', url: '/signIn', access: 'public', schema: { body: z.object({ username: z.string() }) }, handler: ({ body }) => body });
    for (const [type, payload] of [
      ['multipart/form-data', 'username=bob'],
      ['multipart/form-data; charset=utf-8', '--x\r\nContent-Disposition: form-data; name="username"\r\n\r\nbob\r\n--x--\r\n'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="username"\r\n\r\nbob'],
      ['multipart/form-data; boundary=x', '--x\r\nnot a header line\r\n\r\n'],
    ] as const) {
      const res = await app.inject({ method: 'POST', url: '/api/signIn', headers: { 'content-type': type }, payload });
      expect(res.statusCode, `${type} ${payload}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${type} ${payload}`).toBeLessThan(500);
      expect(res.json().code, `${type} ${payload}`).toBe(400);
    }
  });

  describe('a route that declares an upload', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'lp-upload-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    async function uploadApp(seen: { path?: string; onDisk?: boolean; text?: string }) {
      logLines = [];
      kernel = await createApp({ logLevel: 'info', logStream: { write: (l) => void logLines.push(l) }, resolveCaller: async () => null, uploadDir: dir });
      kernel.registerRoute({
        method: 'POST',
        url: '/put',
        access: 'public',
        upload: { maxBytes: 1000 },
        handler: ({ body }) => {
          seen.path = body.doc.path;
          seen.onDisk = existsSync(body.doc.path);
          seen.text = body.doc.data.toString();
          return { size: body.doc.size, name: body.name };
        },
      }, owner);
      await kernel.app.ready();
      return kernel.app;
    }

    it('streams the file to disk for the handler and removes it when the call ends', async () => {
      const seen: { path?: string; onDisk?: boolean; text?: string } = {};
      const app = await uploadApp(seen);
      const res = await app.inject({ method: 'POST', url: '/api/put', ...multipart({ name: 'n' }, { name: 'doc', filename: 'a.txt', content: 'y'.repeat(600) }) });
      expect(res.json()).toEqual({ code: 200, msg: 'success', data: { size: 600, name: 'n' } });
      expect(seen).toMatchObject({ onDisk: true, text: 'y'.repeat(600) });
      expect(seen.path!.startsWith(dir)).toBe(true);
      await expect.poll(() => readdirSync(dir)).toEqual([]);
    });

    it('answers 413 to files over its limit, counted while reading, and leaves no partial file', async () => {
      const seen: { path?: string } = {};
      const app = await uploadApp(seen);
      const over = multipart({}, { name: 'doc', filename: 'a.txt', content: 'z'.repeat(5000) });
      // Chunked, so only counting the bytes as they arrive can catch it.
      const res = await app.inject({ method: 'POST', url: '/api/put', headers: { ...over.headers, 'transfer-encoding': 'chunked' }, payload: Readable.from([Buffer.from(over.payload)]) });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ code: 400, msg: 'Request too large: this call takes at most 1000 B' });
      expect(seen.path).toBeUndefined();
      expect(readdirSync(dir)).toEqual([]);
      // Two files under the limit each but over it together.
      const boundary = 'two';
      const part = (n: string) => `--${boundary}\r\nContent-Disposition: form-data; name="doc"; filename="${n}"\r\n\r\n${'q'.repeat(600)}\r\n`;
      const two = await app.inject({ method: 'POST', url: '/api/put', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en-US' }, payload: part('a') + part('b') + `--${boundary}--\r\n` });
      expect(two.statusCode).toBe(413);
      expect(readdirSync(dir)).toEqual([]);
    });
  });

  it('sends a RawReply as bytes with its type and headers', async () => {
    const { app } = await appWith({
      method: 'GET',
      url: '/download',
      access: 'public',
      handler: () => ({ raw: true, contentType: 'text/csv', headers: { 'content-disposition': 'attachment; filename="x.csv"' }, body: Buffer.from('a,b\n1,2') }),
    });
    const res = await app.inject({ method: 'GET', url: '/api/download' });
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="x.csv"');
    expect(res.body).toBe('a,b\n1,2');
  });
});

describe('access', () => {
  it('answers a signed-in route without a valid token with HTTP 200 and code 601', async () => {
    const { app } = await appWith({ method: 'GET', url: '/mine', access: 'signed-in', handler: () => 'secret' }, { method: 'GET', url: '/guarded', access: { permission: 'demo:view' }, handler: () => 'secret' });
    for (const url of ['/api/mine', '/api/guarded']) {
      for (const headers of [{}, { jwt: 'not-a-session' }]) {
        const res = await app.inject({ method: 'GET', url, headers });
        expect(res.statusCode).toBe(200);
        // No locale cookie or Accept-Language: the console's default language, Chinese.
        expect(res.json()).toEqual({ code: 601, msg: '登录已过期，请重新登录', data: null });
      }
    }
  });
});

describe('the session cookie', () => {
  it('stands in for the Jwt header only on GET routes that declare sessionCookie (a player reading a file)', async () => {
    const caller = { userId: 7, username: 'u', departmentId: 1, isSuperAdmin: false, permissions: new Set(['demo:view']), via: 'session' as const };
    kernel = await createApp({ logLevel: 'silent', resolveCaller: async (token) => (token === 'good' ? caller : null) });
    kernel.registerRoute({ method: 'GET', url: '/media', access: { permission: 'demo:view' }, sessionCookie: true, handler: ({ caller: c }) => ({ user: c?.userId }) }, owner);
    kernel.registerRoute({ method: 'GET', url: '/plain', access: { permission: 'demo:view' }, handler: ({ caller: c }) => ({ user: c?.userId }) }, owner);
    await kernel.app.ready();
    const cookie = { cookie: 'lp_token=good' };
    expect((await kernel.app.inject({ method: 'GET', url: '/api/media', headers: cookie })).json().data).toEqual({ user: 7 });
    expect((await kernel.app.inject({ method: 'HEAD', url: '/api/media', headers: cookie })).statusCode).toBe(200);
    expect((await kernel.app.inject({ method: 'GET', url: '/api/media', headers: { cookie: 'lp_token=bad' } })).json().code).toBe(601);
    expect((await kernel.app.inject({ method: 'GET', url: '/api/media' })).json().code).toBe(601);
    // Every other route still wants the header: a page elsewhere cannot ride on the cookie.
    expect((await kernel.app.inject({ method: 'GET', url: '/api/plain', headers: cookie })).json().code).toBe(601);
    expect((await kernel.app.inject({ method: 'GET', url: '/api/plain', headers: { jwt: 'good' } })).json().data).toEqual({ user: 7 });
  });

  it('is refused on a route that is not a GET', async () => {
    kernel = await createApp({ logLevel: 'silent', resolveCaller: async () => null });
    expect(() => kernel!.registerRoute({ method: 'POST', url: '/m', access: 'signed-in', sessionCookie: true, handler: () => null }, owner)).toThrow(/sessionCookie is for GET routes only/);
  });
});

describe('route registration', () => {
  async function fresh() {
    kernel = await createApp({ logLevel: 'silent', resolveCaller: async () => null });
    return kernel;
  }

  it('refuses a route without an access declaration, naming plugin and route', async () => {
    const k = await fresh();
    const bad = { method: 'GET', url: '/open', handler: () => 1 } as unknown as RouteDefinition;
    expect(() => k.registerRoute(bad, owner)).toThrow(/plugin demo route GET \/open has no access declaration/);
  });

  it('refuses a malformed access value', async () => {
    const k = await fresh();
    const bad = { method: 'GET', url: '/odd', access: { anyPermission: [] }, handler: () => 1 } as unknown as RouteDefinition;
    expect(() => k.registerRoute(bad, owner)).toThrow(/plugin demo route GET \/odd: access must be/);
  });

  it('refuses a permission key the plugin did not declare, naming plugin, route and key', async () => {
    const k = await fresh();
    expect(() => k.registerRoute({ method: 'POST', url: '/x', access: { permission: 'demo:delete' }, handler: () => 1 }, owner)).toThrow(
      'plugin demo route POST /x needs permission demo:delete, which the plugin\'s manifest does not declare',
    );
    expect(() => k.registerRoute({ method: 'POST', url: '/y', access: { anyPermission: ['demo:view', 'other:edit'] }, handler: () => 1 }, owner)).toThrow(/other:edit/);
  });

  it('refuses two owners of one method and url, naming both', async () => {
    const k = await fresh();
    k.registerRoute({ method: 'GET', url: '/shared', access: 'public', handler: () => 1 }, owner);
    expect(() => k.registerRoute({ method: 'GET', url: '/shared', access: 'public', handler: () => 2 }, { pluginId: 'intruder', declaredPermissions: new Set() })).toThrow(
      'route GET /shared is registered twice: by demo and by intruder',
    );
  });
});

describe('routes added after the app is ready (late routes)', () => {
  it('serves them with path parameters, validation, raw replies, errors and access checks, and drops them', async () => {
    const k = await appWith();
    k.registerRoute({ method: 'POST', url: '/late/:id/items', access: 'public', schema: { body: z.object({ n: z.number().int() }) }, handler: ({ params, body }) => ({ params, body }) }, owner);
    k.registerRoute({ method: 'GET', url: '/late/file', access: 'public', handler: () => ({ raw: true, status: 201, contentType: 'text/plain', body: 'x' }) }, owner);
    k.registerRoute({ method: 'GET', url: '/late/boom', access: 'public', handler: () => { throw new ApiError(409, 'taken') } }, owner);
    k.registerRoute({ method: 'GET', url: '/late/private', access: 'signed-in', handler: () => 1 }, owner);
    const ok = await k.app.inject({ method: 'POST', url: '/api/late/a%20b/items', payload: { n: 2 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ code: 200, msg: 'success', data: { params: { id: 'a b' }, body: { n: 2 } } });
    expect((await k.app.inject({ method: 'POST', url: '/api/late/a/items', payload: { n: 'x' } })).json()).toMatchObject({ code: 400, msg: expect.stringContaining('n') });
    const raw = await k.app.inject({ method: 'GET', url: '/api/late/file' });
    expect([raw.statusCode, raw.body]).toEqual([201, 'x']);
    expect((await k.app.inject({ method: 'GET', url: '/api/late/boom' })).json()).toMatchObject({ code: 409, msg: 'taken' });
    expect((await k.app.inject({ method: 'GET', url: '/api/late/private' })).json()).toMatchObject({ code: 601 });
    // The method counts, and the same route cannot be added twice.
    expect((await k.app.inject({ method: 'GET', url: '/api/late/a/items' })).statusCode).toBe(404);
    expect(() => k.registerRoute({ method: 'GET', url: '/late/file', access: 'public', handler: () => 2 }, owner)).toThrow(/registered twice/);
    k.dropLateRoutes('demo');
    expect((await k.app.inject({ method: 'GET', url: '/api/late/file' })).statusCode).toBe(404);
    // Dropped routes may come back (a new version of the plugin).
    k.registerRoute({ method: 'GET', url: '/late/file', access: 'public', handler: () => 'v2' }, owner);
    expect((await k.app.inject({ method: 'GET', url: '/api/late/file' })).json()).toMatchObject({ data: 'v2' });
  });
});

describe('the client address behind a reverse proxy', () => {
  const ipRoute: RouteDefinition = { method: 'GET', url: '/ip', access: 'public', handler: ({ ip }) => ip };
  async function ipWith(trustProxy: boolean | number | string | undefined, forwarded: string) {
    const k = await createApp({ logLevel: 'silent', resolveCaller: async () => null, trustProxy });
    k.registerRoute(ipRoute, owner);
    await k.app.ready();
    try {
      return (await k.app.inject({ method: 'GET', url: '/api/ip', headers: { 'x-forwarded-for': forwarded } })).json().data;
    } finally {
      await k.app.close();
    }
  }

  it('is the peer by default, and the forwarded client once the proxy is trusted (any, by hops, or by address)', async () => {
    expect(await ipWith(undefined, '203.0.113.7')).toBe('127.0.0.1');
    expect(await ipWith(true, '198.51.100.1, 203.0.113.7')).toBe('198.51.100.1');
    expect(await ipWith(1, '198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
    expect(await ipWith('127.0.0.1', '203.0.113.7')).toBe('203.0.113.7');
    expect(await ipWith('10.0.0.0/8', '203.0.113.7')).toBe('127.0.0.1');
  });
});
