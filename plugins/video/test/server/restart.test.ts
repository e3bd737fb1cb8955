import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, encryptFor, openTestDatabase, type TestDatabase } from '@linguaport/sdk/testing';
import { startServer, type RunningServer } from '../../../../scripts/lib/run-server.js';

// The real server in a child process, killed with SIGKILL while ffmpeg converts a five-minute video:
// the job and its upload survive, no ffmpeg is left running, and after a restart the task service
// runs the job again to a complete result.

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
let t: TestDatabase;
let server: RunningServer | null = null;
let registry: string;
let dir: string;

async function call(base: string, method: string, url: string, token?: string | null, payload?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...(token ? { jwt: token } : {}), ...(payload === undefined ? {} : { 'content-type': 'application/json' }), 'accept-language': 'en-US' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, body: type.includes('json') ? await res.json() : Buffer.from(await res.arrayBuffer()) };
}

async function login(base: string): Promise<string> {
  const key = (await call(base, 'GET', '/api/user/getOnePublicKey')).body.data;
  return (await call(base, 'POST', '/api/login', null, { username: 'admin', password: encryptFor(key, ADMIN_PASSWORD), publicKey: key, symbol: '' })).body.data.token;
}

const start = () => startServer({ DATA_DIR: t.dataDir, REGISTRY_FILE: registry, ADMIN_PASSWORD, ...(t.databaseUrl ? { DATABASE_URL: t.databaseUrl } : {}) });
const ffmpegsOf = (id: number) => execFileSync('ps', ['-eo', 'args']).toString().split('\n').filter((l) => l.startsWith('ffmpeg') && l.includes(t.dataDir) && l.includes(`jobs/${id}/`));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'video-restart-'));
  execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=green:size=160x120:duration=300:rate=10', '-f', 'lavfi', '-i', 'sine=frequency=200:duration=300:sample_rate=22050', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '32k', '-shortest', join(dir, 'long.mp4')]);
  t = await openTestDatabase();
  // The child servers own the storage (PGlite: one process at a time).
  await t.database.close();
  registry = join(t.dataDir, 'registry.json');
  writeFileSync(registry, JSON.stringify({ plugins: [{ id: 'video', path: join(ROOT, 'plugins', 'video'), enabled: true }] }));
}, 60_000);

afterAll(async () => {
  server?.process.kill('SIGKILL');
  await t?.cleanup().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

describe('a job across kill -9 of its server', () => {
  it('keeps the job and its upload, leaves no ffmpeg running, and completes after the restart', async () => {
    server = await start();
    let base = server.url;
    let token = await login(base);
    const form = new FormData();
    form.set('operation', 'convert');
    form.set('to', 'webm');
    form.append('files', new Blob([readFileSync(join(dir, 'long.mp4'))]), 'long.mp4');
    const uploaded = await (await fetch(`${base}/api/video/upload`, { method: 'POST', headers: { jwt: token }, body: form })).json();
    expect(uploaded.code, JSON.stringify(uploaded)).toBe(200);
    const id = uploaded.data[0].id as number;
    await expect.poll(async () => (await call(base, 'GET', `/api/video/get/${id}`, token)).body.data.progress, { timeout: 60_000, interval: 100 }).toBeGreaterThan(0);
    expect(ffmpegsOf(id)).toHaveLength(1);
    server.process.kill('SIGKILL');
    await new Promise((r) => server!.process.once('exit', r));
    server = null;
    // ffmpeg goes with its server rather than converting on for nobody.
    await expect.poll(() => ffmpegsOf(id), { timeout: 5_000, interval: 50 }).toEqual([]);

    const db = await t.open();
    const row = await db.db.selectFrom('video_jobs').select(['status', 'source_key', 'result_key']).where('id', '=', id).executeTakeFirstOrThrow();
    await db.close();
    expect(row).toMatchObject({ status: 'running', source_key: `jobs/${id}/source.mp4`, result_key: null });

    server = await start();
    base = server.url;
    token = await login(base);
    // The task of the killed server is taken over at once on PGlite (one server at a time), once its
    // heartbeat is stale on PostgreSQL (30 s by default).
    await expect.poll(async () => (await call(base, 'GET', `/api/video/get/${id}`, token)).body.data.status, { timeout: 150_000, interval: 500 }).toBe('completed');
    const job = (await call(base, 'GET', `/api/video/get/${id}`, token)).body.data;
    expect((await call(base, 'GET', `/api/tasks/${job.taskId}`, token)).body.data.attempt).toBe(2);
    const result = await call(base, 'GET', `/api/video/download/${id}`, token);
    expect(result.status).toBe(200);
    const out = join(dir, 'result.webm');
    writeFileSync(out, result.body as Buffer);
    const read = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', out]).toString());
    expect(Math.abs(Number(read.format.duration) - 300)).toBeLessThan(1);
    expect(read.streams.map((s: { codec_name: string }) => s.codec_name).sort()).toEqual(['opus', 'vp8']);
  }, 300_000);
});
