import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// Large TMX imports through the kernel's task service: the file streams to storage, a task reads it
// with progress, and the entries land whole or not at all.

let k: TestKernel;
const ALL = ['tm:view', 'tm:library', 'tm:add', 'tm:edit', 'tm:delete', 'tm:review', 'tm:import', 'tm:export'];
let owner: { userId: number; token: string };
let other: { userId: number; token: string };
const en = { cookie: 'locale=en-US' };

async function call(method: string, url: string, token: string, payload?: unknown) {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { jwt: token, ...en }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.json() };
}

async function upload(token: string, fields: Record<string, string>, name: string, content: Buffer) {
  const boundary = '----tmtask';
  const parts: Buffer[] = [];
  for (const [n, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), content, Buffer.from(`\r\n--${boundary}--\r\n`));
  const res = await k.app.inject({ method: 'POST', url: '/api/TM/import', headers: { jwt: token, ...en, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}

/** A TMX of `n` units; `bad(i)` makes unit i one to reject (no Spanish side, or a source of digits). */
function tmx(n: number, bad: (i: number) => 'noTarget' | 'digits' | null = () => null): Buffer {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header creationtool="t" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" srclang="en" datatype="plaintext"/>\n<body>\n'];
  for (let i = 1; i <= n; i++) {
    const kind = bad(i);
    const source = kind === 'digits' ? `${i}` : `Sentence number ${i} of the generated memory.`;
    const target = kind === 'noTarget' ? '' : `<tuv xml:lang="es"><seg>Frase número ${i} de la memoria generada.</seg></tuv>`;
    out.push(`<tu><tuv xml:lang="en"><seg>${source}</seg></tuv>${target}</tu>\n`);
  }
  out.push('</body></tmx>\n');
  return Buffer.from(out.join(''));
}

async function memory(name: string): Promise<number> {
  const created = await call('POST', '/api/TM/library/add', owner.token, { name, ownership: 'department', kind: 'shared', users: [], isDefault: false });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.data.id;
}

const entries = async (libraryId: number) => Number((await k.database.db.selectFrom('tm_entries').select((eb) => eb.fn.countAll().as('n')).where('library_id', '=', libraryId).executeTakeFirstOrThrow()).n);

async function settled(taskId: string, token = owner.token) {
  let view: any;
  await expect
    .poll(
      async () => {
        view = (await call('GET', `/api/TM/import/${taskId}`, token)).body.data;
        return view?.state;
      },
      { timeout: 120_000, interval: 100 },
    )
    .toMatch(/completed|failed|cancelled/);
  return view;
}

async function socket(token: string) {
  if (!k.app.server.address()) await k.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = k.app.server.address() as { port: number };
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/ws?token=${encodeURIComponent(token)}`);
  const messages: Array<{ type: string; payload: any }> = [];
  await new Promise<void>((ready) =>
    ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      if (m.type === 'ws.ready') ready();
      else messages.push(m);
    }),
  );
  return { messages, close: () => ws.close() };
}

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['tm'], options: { tasks: { sweepMs: 200, staleAfterMs: 1_000, progressEveryMs: 100 } } });
  const a = await createUserWithRole(k, 'tm-importer', 'Importer-Passw0rd!', 'importers', ALL);
  const b = await createUserWithRole(k, 'tm-other', 'Other-Passw0rd!', 'other importers', ALL);
  owner = { userId: a.userId, token: await k.login('tm-importer', 'Importer-Passw0rd!') };
  other = { userId: b.userId, token: await k.login('tm-other', 'Other-Passw0rd!') };
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
});

describe('TMX import through a task', () => {
  it('imports 50,000 units in the background with live progress, and only its owner sees the task', async () => {
    const id = await memory('Big EN-ES');
    const file = tmx(50_000);
    expect(file.length).toBeGreaterThan(2 * 1024 * 1024);
    const live = await socket(owner.token);
    const started = Date.now();
    const res = await upload(owner.token, { libraryId: String(id), sourceLang: 'en', targetLang: 'es' }, 'big.tmx', file);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const taskId: string = res.body.data.taskId;
    expect(res.body.data.task).toMatchObject({ id: taskId, title: 'big.tmx', state: 'queued' });

    // Someone else, even with the same permissions, learns nothing of it.
    expect((await call('GET', `/api/TM/import/${taskId}`, other.token)).body.code).toBe(404);
    expect((await call('GET', `/api/tasks/${taskId}`, other.token)).body.code).toBe(404);

    const view = await settled(taskId);
    const seconds = (Date.now() - started) / 1000;
    expect(view.state, view.error).toBe('completed');
    expect(view.result).toEqual({ imported: 50_000, rejected: 0, rejections: [] });
    expect(await entries(id)).toBe(50_000);
    console.log(`TMX import: 50,000 units (${(file.length / 1024 / 1024).toFixed(1)} MB) in ${seconds.toFixed(1)} s, ${Math.round(50_000 / seconds)} units/s`);

    // The owner's console heard the progress (bytes read of the total, and the units read) and the end,
    // which the socket may deliver a moment after the task's state reads completed.
    const heard = () => live.messages.filter((m) => m.type === 'task.changed' && m.payload.id === taskId);
    await expect.poll(() => heard().at(-1)?.payload.state, { timeout: 15_000 }).toBe('completed');
    const mine = heard();
    live.close();
    const partial = mine.filter((m) => m.payload.state === 'running' && m.payload.progress.done > 0 && m.payload.progress.done < m.payload.progress.total);
    expect(partial.length, JSON.stringify(mine.map((m) => m.payload.progress))).toBeGreaterThan(0);
    expect(partial[0]!.payload.progress.total).toBe(file.length);
    expect(partial[0]!.payload.progress.message).toMatch(/^\d+ units read$/);
    expect(mine.at(-1)!.payload.state).toBe('completed');
  }, 180_000);

  it('reports bad units with their numbers and imports the rest', async () => {
    const id = await memory('Some bad units');
    const file = tmx(3_000, (i) => (i % 1000 === 7 ? 'noTarget' : i % 1000 === 500 ? 'digits' : null));
    const res = await upload(owner.token, { libraryId: String(id), sourceLang: 'en', targetLang: 'es', background: 'true' }, 'bad.tmx', file);
    const view = await settled(res.body.data.taskId);
    expect(view.state, view.error).toBe('completed');
    expect(view.result.imported).toBe(2_994);
    expect(view.result.rejected).toBe(6);
    expect(view.result.rejections.map((r: { row: number }) => r.row)).toEqual([7, 500, 1007, 1500, 2007, 2500]);
    expect(view.result.rejections[0]).toEqual({ file: 'bad.tmx', row: 7, reason: 'the unit has no es text' });
    expect(view.result.rejections[1].reason).toMatch(/only special characters, digits/);
    expect(await entries(id)).toBe(2_994);
  }, 60_000);

  it('leaves nothing behind when cancelled mid-way', async () => {
    const id = await memory('Cancelled');
    const res = await upload(owner.token, { libraryId: String(id), sourceLang: 'en', targetLang: 'es' }, 'cancel.tmx', tmx(200_000));
    const taskId: string = res.body.data.taskId;
    await expect.poll(async () => (await call('GET', `/api/TM/import/${taskId}`, owner.token)).body.data.progress.done, { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);
    const cancelled = await call('POST', `/api/tasks/${taskId}/cancel`, owner.token);
    expect(cancelled.body.data.state).toBe('cancelled');
    expect((await settled(taskId)).state).toBe('cancelled');
    expect(await entries(id)).toBe(0);
  }, 120_000);

  it('commits a long import in batches, so other requests are answered while it writes', async () => {
    const id = await memory('Batches');
    const n = 40_000;
    const res = await upload(owner.token, { libraryId: String(id), sourceLang: 'en', targetLang: 'es', background: 'true' }, 'batches.tmx', tmx(n));
    const taskId: string = res.body.data.taskId;
    // One transaction for the whole import would show 0 and then n, and hold /api/health meanwhile.
    let seen = 0;
    let slowest = 0;
    await expect
      .poll(
        async () => {
          const t0 = performance.now();
          expect((await k.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
          const count = await entries(id);
          if (count > 0 && count < n) {
            seen = count;
            slowest = Math.max(slowest, performance.now() - t0);
          }
          return seen;
        },
        { timeout: 60_000, interval: 20 },
      )
      .toBeGreaterThan(0);
    expect((await settled(taskId)).result.imported).toBe(n);
    expect(await entries(id)).toBe(n);
    console.log(`entries seen part-way: ${seen} of ${n}; slowest health + count while writing: ${slowest.toFixed(0)} ms`);
  }, 120_000);

  it('refuses a background import into a memory the caller may not edit', async () => {
    const id = await memory('Not yours');
    const res = await upload(other.token, { libraryId: String(id), sourceLang: 'en', targetLang: 'es', background: 'true' }, 'x.tmx', tmx(10));
    expect(res.body.code).toBe(403);
    expect(await entries(id)).toBe(0);
  });

  it('adds nothing twice when the server died after the commit and the task runs again', async () => {
    const id = await memory('Killed');
    const file = tmx(2_000);
    const res = await upload(owner.token, { libraryId: String(id), sourceLang: 'en', targetLang: 'es', background: 'true' }, 'again.tmx', file);
    const taskId: string = res.body.data.taskId;
    expect((await settled(taskId)).result.imported).toBe(2_000);
    // As if killed between the commit and the checkpoint: the stored file still there, the task running
    // on a server that no longer beats. The service runs it again.
    const db = k.database.db as any;
    const row = await db.selectFrom('tasks').select(['input', 'attempt']).where('id', '=', taskId).executeTakeFirstOrThrow();
    const input = typeof row.input === 'string' ? JSON.parse(row.input) : row.input;
    const stored = join(k.config.dataDir, 'files', 'tm', input.files[0].key);
    mkdirSync(dirname(stored), { recursive: true });
    writeFileSync(stored, file);
    await db.updateTable('tasks').set({ state: 'running', checkpoint: null, output: null, finished_at: null, instance: null, heartbeat_at: new Date(Date.now() - 3_600_000) }).where('id', '=', taskId).execute();
    await expect.poll(async () => (await call('GET', `/api/tasks/${taskId}`, owner.token)).body.data, { timeout: 30_000, interval: 100 }).toMatchObject({ state: 'completed', attempt: row.attempt + 1 });
    expect((await call('GET', `/api/TM/import/${taskId}`, owner.token)).body.data.result.imported).toBe(2_000);
    expect(await entries(id)).toBe(2_000);
  }, 60_000);
});
