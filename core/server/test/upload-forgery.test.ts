import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startKernel, type TestKernel } from './support/kernel.js';
import { tableDigests } from './support/route-walk.js';

// A route that takes files gets them only from the kernel's multipart reader. A JSON (or form) body
// shaped like an uploaded file — `{filename, size, path}` naming a file of the server — is refused
// on every such route of the whole deployment, by every kind of caller, and nothing is stored: no
// row changes and no file appears under the data directory.

const REGISTRY = join(import.meta.dirname, '..', '..', '..', 'registry.json');

let k: TestKernel;
let admin: string;
let plain: string;
let apiKey: string;

beforeAll(async () => {
  k = await startKernel({ registryFile: REGISTRY });
  admin = await k.login('admin', ADMIN_PASSWORD);
  await createUserWithRole(k, 'forger', 'Forger-pass-1', 'Forger role', ['menu:/transFile', 'transFile:use']);
  plain = await k.login('forger', 'Forger-pass-1');
  apiKey = (await k.call('GET', '/api/user/getApiKey', plain)).body.data?.apiKey ?? '';
}, 180_000);
afterAll(async () => {
  await k?.shutdown();
});

const concrete = (url: string) => url.replace(/:[A-Za-z0-9_]+/g, '1').replace(/\*$/, 'x');

const tables = () => tableDigests(k.database);

/** Every file under the data directory but the database's own, with its size. */
function files(dir = k.config.dataDir, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (p === join(k.config.dataDir, 'db')) continue;
      files(p, out);
    } else out.push(`${relative(k.config.dataDir, p)} ${statSync(p).size}`);
  }
  return out.sort();
}

/** What an attacker sends: every usual file field, each a server file by its path. */
function forged(): Record<string, unknown> {
  const secret = join(k.config.dataDir, 'secret.key');
  const file = { filename: 'secret.txt', mimetype: 'text/plain', size: statSync(secret).size, path: secret, data: readFileSync(secret, 'utf8') };
  const body: Record<string, unknown> = { sourceLang: 'en', targetLang: 'es', direction: 'pdf2docx', name: 'forged', speakerId: 1, corpusId: 1, libraryId: 1, engineId: 1, configKey: 'LOGO' };
  for (const field of ['file', 'files', 'archive', 'logo', 'package', 'screenshot', 'picture', 'recording']) body[field] = [file, { ...file, path: '/proc/self/environ' }];
  return body;
}

describe('routes that take files', () => {
  it('are known: every area that takes files declares an upload', () => {
    const uploads = k.routes.filter((r) => r.upload).map((r) => `${r.method} ${r.url}`);
    expect(uploads).toEqual(expect.arrayContaining(['POST /api/transFile/upload', 'POST /api/lt/translate_file', 'POST /api/video/upload', 'POST /api/voiceprint/speaker/enrol']));
    expect(uploads.length).toBeGreaterThan(12);
  });

  it('refuse a JSON or form body shaped like a file (415), for any caller, and store nothing', async () => {
    const routes = k.routes.filter((r) => r.upload);
    const beforeRows = await tables();
    const beforeFiles = files();
    const wrong: string[] = [];
    for (const r of routes) {
      const url = concrete(r.url);
      const attempts: Array<{ who: string; headers: Record<string, string>; payload: string }> = [
        { who: 'admin, JSON', headers: { jwt: admin, 'content-type': 'application/json', 'accept-language': 'en-US' }, payload: JSON.stringify(forged()) },
        { who: 'user, JSON', headers: { jwt: plain, 'content-type': 'application/json' }, payload: JSON.stringify(forged()) },
        { who: 'API key, JSON', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, payload: JSON.stringify({ ...forged(), api_key: apiKey, source: 'en', target: 'es' }) },
        { who: 'admin, form', headers: { jwt: admin, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ 'file[path]': '/etc/passwd', file: join(k.config.dataDir, 'secret.key'), source: 'en', target: 'es' }).toString() },
      ];
      for (const a of attempts) {
        const res = await k.app.inject({ method: r.method as 'POST', url, headers: a.headers, payload: a.payload });
        // An API key or user the route does not admit may be refused earlier (403/601): any refusal but a 5xx is fine,
        // and a caller the route admits must meet the multipart rule (415).
        const status = res.statusCode;
        const code = (() => {
          try {
            return (res.json() as { code?: number }).code;
          } catch {
            return undefined;
          }
        })();
        const refusedEarlier = status === 403 || code === 601 || code === 304;
        if (!(status === 415 || (a.who !== 'admin, JSON' && a.who !== 'admin, form' && refusedEarlier))) wrong.push(`${r.method} ${r.url} as ${a.who}: HTTP ${status} ${res.body.slice(0, 160)}`);
        if (res.body.includes(readFileSync(join(k.config.dataDir, 'secret.key'), 'utf8').trim())) wrong.push(`${r.method} ${r.url} as ${a.who}: answer holds the secret`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await tables()).toEqual(beforeRows);
    expect(files()).toEqual(beforeFiles);
  });

  it('say why, in the caller\'s language', async () => {
    const en = await k.app.inject({ method: 'POST', url: '/api/transFile/upload', headers: { jwt: plain, 'accept-language': 'en-US' }, payload: forged() });
    expect(en.statusCode).toBe(415);
    expect(en.json()).toMatchObject({ code: 400, msg: expect.stringContaining('multipart/form-data') });
    const zh = await k.app.inject({ method: 'POST', url: '/api/transFile/upload', headers: { jwt: plain, 'accept-language': 'zh-CN' }, payload: forged() });
    expect(zh.json().msg).toContain('请以 multipart/form-data 上传');
    // The LibreTranslate API answers in its own shape.
    const lt = await k.app.inject({ method: 'POST', url: '/api/lt/translate_file', headers: { 'content-type': 'application/json' }, payload: { ...forged(), api_key: apiKey, source: 'en', target: 'es' } });
    expect(lt.statusCode).toBe(415);
    expect(Object.keys(lt.json())).toEqual(['error']);
  });

  it('refuse a multipart field that only names a file (no file part): the schema wants an upload', async () => {
    const boundary = 'forgedboundary';
    const secret = join(k.config.dataDir, 'secret.key');
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const payload = part('sourceLang', 'en') + part('targetLang', 'es') + part('files', JSON.stringify({ filename: 's.txt', size: 44, path: secret })) + part('files[path]', secret) + `--${boundary}--\r\n`;
    const before = files();
    const res = await k.app.inject({ method: 'POST', url: '/api/transFile/upload', headers: { jwt: plain, 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en-US' }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toMatch(/uploaded as multipart\/form-data|choose the files/);
    expect(files()).toEqual(before);
  });

  it('still take a real multipart upload, whose temporary file is gone after the call', async () => {
    const boundary = 'realboundary';
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="sourceLang"\r\n\r\nen\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="targetLang"\r\n\r\nes\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="hello.txt"\r\nContent-Type: text/plain\r\n\r\nHello world.\r\n` +
      `--${boundary}--\r\n`;
    const res = await k.app.inject({ method: 'POST', url: '/api/transFile/upload', headers: { jwt: plain, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(res.json()).toMatchObject({ code: 200 });
    const uploads = join(k.config.dataDir, 'tmp', 'uploads');
    await expect.poll(() => files().filter((f) => f.startsWith(relative(k.config.dataDir, uploads))), { timeout: 10_000 }).toEqual([]);
  });
});
