import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// Large TBX imports go the same way as the memory's TMX: stored, read by a task with progress, and
// the terms land whole or not at all.

let k: TestKernel;
const ALL = ['term:view', 'term:library', 'term:add', 'term:edit', 'term:delete', 'term:review', 'term:import', 'term:export'];
let owner: { userId: number; token: string };
let other: { userId: number; token: string };
const en = { cookie: 'locale=en-US' };

async function call(method: string, url: string, token: string, payload?: unknown) {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { jwt: token, ...en }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.json() };
}

async function upload(token: string, fields: Record<string, string>, name: string, content: Buffer) {
  const boundary = '----termtask';
  const parts: Buffer[] = [];
  for (const [n, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), content, Buffer.from(`\r\n--${boundary}--\r\n`));
  const res = await k.app.inject({ method: 'POST', url: '/api/term/import', headers: { jwt: token, ...en, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}

/** A TBX-Basic of `n` concepts; every 1000th has no Spanish term. */
function tbx(n: number): Buffer {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n<martif type="TBX-Basic" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>generated</p></sourceDesc></fileDesc></martifHeader><text><body>\n'];
  for (let i = 1; i <= n; i++) {
    const es = i % 1000 === 3 ? '' : `<langSet xml:lang="es"><tig><term>término ${i}</term></tig></langSet>`;
    out.push(`<termEntry id="c${i}"><langSet xml:lang="en"><tig><term>term ${i}</term></tig></langSet>${es}</termEntry>\n`);
  }
  out.push('</body></text></martif>\n');
  return Buffer.from(out.join(''));
}

const entries = async (libraryId: number) => Number((await k.database.db.selectFrom('term_entries').select((eb) => eb.fn.countAll().as('n')).where('library_id', '=', libraryId).executeTakeFirstOrThrow()).n);

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['term'], options: { tasks: { progressEveryMs: 100 } } });
  const a = await createUserWithRole(k, 'term-importer', 'Importer-Passw0rd!', 'importers', ALL);
  const b = await createUserWithRole(k, 'term-other', 'Other-Passw0rd!', 'other importers', ALL);
  owner = { userId: a.userId, token: await k.login('term-importer', 'Importer-Passw0rd!') };
  other = { userId: b.userId, token: await k.login('term-other', 'Other-Passw0rd!') };
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
});

describe('TBX import through a task', () => {
  it('imports a large TBX in the background, with rejected concepts by number, seen by its owner alone', async () => {
    const created = await call('POST', '/api/term/library/add', owner.token, { name: 'Big terms', ownership: 'department', kind: 'shared', users: [], isDefault: false });
    const id: number = created.body.data.id;
    const file = tbx(30_000);
    expect(file.length).toBeGreaterThan(2 * 1024 * 1024);
    const started = Date.now();
    const res = await upload(owner.token, { libraryId: String(id), sourceLang: 'en', targetLang: 'es' }, 'big.tbx', file);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const taskId: string = res.body.data.taskId;
    expect((await call('GET', `/api/term/import/${taskId}`, other.token)).body.code).toBe(404);
    const progress: number[] = [];
    let view: any;
    await expect
      .poll(
        async () => {
          view = (await call('GET', `/api/term/import/${taskId}`, owner.token)).body.data;
          progress.push(view.progress.done);
          return view.state;
        },
        { timeout: 120_000, interval: 50 },
      )
      .toMatch(/completed|failed|cancelled/);
    expect(view.state, view.error).toBe('completed');
    console.log(`TBX import: 30,000 concepts (${(file.length / 1024 / 1024).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(view.result.imported).toBe(29_970);
    expect(view.result.rejected).toBe(30);
    expect(view.result.rejections.slice(0, 2)).toEqual([
      { file: 'big.tbx', row: 3, reason: 'the concept has no es term' },
      { file: 'big.tbx', row: 1003, reason: 'the concept has no es term' },
    ]);
    expect(await entries(id)).toBe(29_970);
    expect(progress.at(-1)).toBe(file.length);
  }, 180_000);

  it('refuses a background import into a term base the caller may not edit, and adds nothing', async () => {
    const created = await call('POST', '/api/term/library/add', owner.token, { name: 'Not yours', ownership: 'department', kind: 'shared', users: [], isDefault: false });
    const id: number = created.body.data.id;
    const res = await upload(other.token, { libraryId: String(id), sourceLang: 'en', targetLang: 'es', background: 'true' }, 'x.tbx', tbx(5));
    expect(res.body.code).toBe(403);
    expect(await entries(id)).toBe(0);
  });
});
