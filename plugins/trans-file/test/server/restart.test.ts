import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, encryptFor, openTestDatabase, startLibrePeer, useOnlyLibreEngine, type LibrePeer, type TestDatabase, type TestKernel } from '@linguaport/sdk/testing';
import { startServer, type RunningServer } from '../../../../scripts/lib/run-server.js';

// The real server in a child process, killed with SIGKILL while it translates a document, then
// started again on the same data: the accepted files and every batch finished before the kill
// survive, the translation completes after the restart, and no finished batch reaches the engine
// again. The engine (a LibreTranslate-compatible peer in this process) answers after 700 ms, so the
// kill lands in the middle of the work.

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
let peer: LibrePeer;
let t: TestDatabase;
let server: RunningServer | null = null;
let registry: string;

/** The calls the tests make, over HTTP, with the shape of the testing kit's `call`. */
function client(base: string) {
  return {
    async call(method: string, url: string, token?: string | null, payload?: unknown) {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { ...(token ? { jwt: token } : {}), ...(payload === undefined ? {} : { 'content-type': 'application/json' }), 'accept-language': 'en-US' },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      });
      const type = res.headers.get('content-type') ?? '';
      return { status: res.status, body: type.includes('json') ? await res.json() : await res.text() };
    },
  };
}

async function login(base: string): Promise<string> {
  const c = client(base);
  const key = (await c.call('GET', '/api/user/getOnePublicKey')).body.data;
  const res = await c.call('POST', '/api/login', null, { username: 'admin', password: encryptFor(key, ADMIN_PASSWORD), publicKey: key, symbol: '' });
  return res.body.data.token;
}

async function start(): Promise<RunningServer> {
  return startServer({ DATA_DIR: t.dataDir, REGISTRY_FILE: registry, ADMIN_PASSWORD, ...(t.databaseUrl ? { DATABASE_URL: t.databaseUrl } : {}) });
}

const paragraphs = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `Paragraph ${i + 1} of the ${tag} report.`).join('\n\n');

async function uploadOver(base: string, token: string, name: string, text: string) {
  const form = new FormData();
  form.set('sourceLang', 'en');
  form.set('targetLang', 'es');
  form.append('files', new Blob([text]), name);
  const res = await fetch(`${base}/api/transFile/upload`, { method: 'POST', headers: { jwt: token }, body: form });
  const body = await res.json();
  if (body.code !== 200) throw new Error(`upload refused: ${JSON.stringify(body)}`);
  return body.data[0] as { id: number; status: string };
}

beforeAll(async () => {
  peer = await startLibrePeer({ delayMs: 700 });
  t = await openTestDatabase();
  // The child servers own the storage (PGlite: one process at a time).
  await t.database.close();
  registry = join(t.dataDir, 'registry.json');
  writeFileSync(registry, JSON.stringify({ plugins: ['service', 'engine-libretranslate', 'trans-file'].map((id) => ({ id, path: join(ROOT, 'plugins', id), enabled: true })) }));
}, 60_000);

afterAll(async () => {
  server?.process.kill('SIGKILL');
  await peer?.close();
  await t?.cleanup().catch(() => undefined);
});

describe('a document across kill -9 of its server', () => {
  it('keeps the accepted files and every finished batch, and completes after the restart without resending them', async () => {
    server = await start();
    let base = server.url;
    let token = await login(base);
    await useOnlyLibreEngine(client(base) as unknown as TestKernel, token, peer.url, { source: 'en', target: 'es' });
    const big = await uploadOver(base, token, 'big.txt', paragraphs(1440, 'big'));
    const c = client(base);
    // Two batches of 60 done (checkpointed), many still to go.
    await expect.poll(async () => (await c.call('GET', `/api/transFile/get/${big.id}`, token)).body.data?.segmentsDone ?? 0, { timeout: 60_000, interval: 100 }).toBeGreaterThanOrEqual(120);
    // Accepted just before the kill: it waits in the queue behind the big one.
    const late = await uploadOver(base, token, 'late.txt', paragraphs(5, 'late'));
    expect(late.status).toBe('queued');
    server.process.kill('SIGKILL');
    await new Promise((r) => server!.process.once('exit', r));
    server = null;

    // What the killed server had made durable: its finished units.
    const db = await t.open();
    const finished = await db.db.selectFrom('trans_file_units').select(['source', 'target']).where('file_id', '=', big.id).where('target', 'is not', null).execute();
    const files = await db.db.selectFrom('trans_file_files').select(['id', 'status']).orderBy('id').execute();
    await db.close();
    expect(finished.length).toBeGreaterThanOrEqual(120);
    expect(finished.every((u) => u.target === `[es] ${u.source.split(' ').reverse().join(' ')}`)).toBe(true);
    expect(files).toEqual([
      { id: big.id, status: 'translating' },
      { id: late.id, status: 'queued' },
    ]);

    const mark = peer.requests.length;
    server = await start();
    base = server.url;
    token = await login(base);
    const c2 = client(base);
    // The task of the killed server is taken over at once on PGlite (one server at a time), once its
    // heartbeat is stale on PostgreSQL (30 s by default).
    await expect.poll(async () => (await c2.call('GET', `/api/transFile/get/${big.id}`, token)).body.data?.status, { timeout: 150_000, interval: 500 }).toBe('completed');
    await expect.poll(async () => (await c2.call('GET', `/api/transFile/get/${late.id}`, token)).body.data?.status, { timeout: 60_000, interval: 250 }).toBe('completed');

    const seen = new Set(finished.map((u) => u.source));
    const resent = peer.requests.slice(mark).flatMap((r) => (Array.isArray(r.body.q) ? (r.body.q as string[]) : typeof r.body.q === 'string' ? [r.body.q] : [])).filter((q) => seen.has(q));
    expect(resent).toEqual([]);
    const result = await fetch(`${base}/api/transFile/download/${big.id}`, { headers: { jwt: token } });
    const text = await result.text();
    const parts = text.split('\n\n');
    expect(parts).toHaveLength(1440);
    parts.forEach((p, i) => expect(p).toBe(`[es] report. big the of ${i + 1} Paragraph`));
  }, 300_000);
});
