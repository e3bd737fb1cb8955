import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, docxOfRepeats, encryptFor, openTestDatabase, startLibrePeer, useOnlyLibreEngine, type LibrePeer, type TestDatabase, type TestKernel } from '@linguaport/sdk/testing';
import { startServer, type RunningServer } from '../../../../scripts/lib/run-server.js';

// The real server under `npm start`'s supervising parent (issue 21, "done means"): documents are being
// translated when the server is killed with SIGKILL; the supervisor starts it again on the same data
// (the embedded database's lock of the killed server is taken over), a docx of 300 MB of paragraphs
// (1 MB packed) uploaded next fails alone, and every other document finishes.

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const MB = 1024 * 1024;
let peer: LibrePeer;
let t: TestDatabase;
let server: RunningServer | null = null;
let stderr = '';

async function call(base: string, method: string, url: string, token?: string | null, payload?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...(token ? { jwt: token } : {}), ...(payload === undefined ? {} : { 'content-type': 'application/json' }), 'accept-language': 'en-US' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: res.status, body: (res.headers.get('content-type') ?? '').includes('json') ? await res.json() : await res.text() };
}

async function login(base: string): Promise<string> {
  const key = (await call(base, 'GET', '/api/user/getOnePublicKey')).body.data;
  return (await call(base, 'POST', '/api/login', null, { username: 'admin', password: encryptFor(key, ADMIN_PASSWORD), publicKey: key, symbol: '' })).body.data.token;
}

async function uploadOver(base: string, token: string, name: string, content: string | Buffer) {
  const form = new FormData();
  form.set('sourceLang', 'en');
  form.set('targetLang', 'es');
  form.append('files', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  const res = await fetch(`${base}/api/transFile/upload`, { method: 'POST', headers: { jwt: token }, body: form });
  const body = await res.json();
  if (body.code !== 200) throw new Error(`upload refused: ${JSON.stringify(body)}`);
  return body.data[0] as { id: number; status: string };
}

const paragraphs = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `Paragraph ${i + 1} of the ${tag} report.`).join('\n\n');

beforeAll(async () => {
  peer = await startLibrePeer({ delayMs: 300 });
  t = await openTestDatabase();
  // The child server owns the storage (PGlite: one process at a time).
  await t.database.close();
  const registry = join(t.dataDir, 'registry.json');
  writeFileSync(registry, JSON.stringify({ plugins: ['service', 'engine-libretranslate', 'formats-office', 'trans-file'].map((id) => ({ id, path: join(ROOT, 'plugins', id), enabled: true })) }));
  server = await startServer({ DATA_DIR: t.dataDir, REGISTRY_FILE: registry, ADMIN_PASSWORD, ...(t.databaseUrl ? { DATABASE_URL: t.databaseUrl } : {}) }, { supervised: ['--first-delay', '200'] });
  server.process.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
}, 120_000);

afterAll(async () => {
  if (server) {
    const pid = server.serverPid();
    await server.stop();
    if (pid) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
  await peer?.close();
  await t?.cleanup().catch(() => undefined);
});

describe('a supervised server killed with SIGKILL while it translates, then fed a zip bomb', () => {
  it('comes back by itself, fails the bomb alone and finishes every other document', async () => {
    const base = server!.url;
    let token = await login(base);
    await useOnlyLibreEngine({ call: (method: string, url: string, tk?: string | null, payload?: unknown) => call(base, method, url, tk, payload) } as unknown as TestKernel, token, peer.url, { source: 'en', target: 'es' });
    const docs: Array<{ id: number; status: string }> = [];
    for (const tag of ['first', 'second', 'third']) docs.push(await uploadOver(base, token, `${tag}.txt`, paragraphs(300, tag)));
    // Some batches done, most still to go.
    await expect.poll(async () => (await call(base, 'GET', `/api/transFile/get/${docs[0]!.id}`, token)).body.data?.segmentsDone ?? 0, { timeout: 60_000, interval: 100 }).toBeGreaterThanOrEqual(60);

    const killed = server!.serverPid();
    expect(killed).toBeGreaterThan(0);
    process.kill(killed!, 'SIGKILL');
    // The supervisor starts another server on the same port and data.
    await expect
      .poll(
        async () => {
          const pid = server!.serverPid();
          if (!pid || pid === killed) return false;
          return (await fetch(`${base}/api/health`).catch(() => null))?.ok ?? false;
        },
        { timeout: 90_000, interval: 250 },
      )
      .toBe(true);
    expect(stderr).toContain('was killed by SIGKILL; starting it again');
    const restarted = server!.serverPid();
    token = await login(base);

    const bomb = await uploadOver(base, token, 'bomb.docx', await docxOfRepeats('<w:p><w:r><w:t>Hello there</w:t></w:r></w:p>', Math.ceil((300 * MB) / 45)));
    const settled = async (id: number) => (await call(base, 'GET', `/api/transFile/get/${id}`, token)).body.data?.status;
    await expect.poll(() => settled(bomb.id), { timeout: 60_000, interval: 250 }).toMatch(/^(parseFailed|failed)$/);
    for (const doc of docs) await expect.poll(() => settled(doc.id), { timeout: 150_000, interval: 500 }).toBe('completed');
    const result = await fetch(`${base}/api/transFile/download/${docs[2]!.id}`, { headers: { jwt: token } });
    const parts = (await result.text()).split('\n\n');
    expect(parts).toHaveLength(300);
    expect(parts[299]).toBe('[es] report. third the of 300 Paragraph');
    // No other death: the server that came back is the one that finished the work.
    expect(server!.serverPid()).toBe(restarted);
    expect(stderr.match(/starting it again/g)).toHaveLength(1);

    // SIGTERM to the supervisor stops both.
    const exited = new Promise<number | null>((resolve) => server!.process.once('exit', (code) => resolve(code)));
    server!.process.kill('SIGTERM');
    expect(await exited).toBe(0);
    let alive = true;
    try {
      process.kill(restarted!, 0);
    } catch {
      alive = false;
    }
    expect(alive).toBe(false);
    server = null;
  }, 400_000);
});
