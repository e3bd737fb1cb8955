import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeZip } from '@linguaport/sdk/interchange';
import { call, multipart, startDocKernel, upload, userWith, EN, ZH, type DocKernel } from './support.js';

// Memories and term bases chosen for a document are checked when it is uploaded: one the uploader may
// not use (another department's, another user's) is refused then, in both languages, with nothing
// stored; not accepted and left to fail when the translation runs.

let d: DocKernel;
let alice: { userId: number; token: string };
let privateMemory: number;
let otherDepartmentMemory: number;
let privateTermBase: number;
let openMemory: number;

const OPTIONS = { sourceLang: 'en', targetLang: 'es' };
const FILE = [{ name: 'notes.txt', content: 'The red car is fast.\n' }];

beforeAll(async () => {
  d = await startDocKernel({ plugins: ['tm', 'term'] });
  const owner = await userWith(d.kernel, 'lib-owner', ['tm:view', 'tm:library', 'term:view', 'term:library']);
  alice = await userWith(d.kernel, 'alice', ['transFile:use', 'transFileDog:use', 'tm:view', 'term:view']);
  const db = d.kernel.database.db;
  // Alice works in another department than the owner.
  const other = await db.insertInto('departments').values({ name: 'Sales', code: 'sales' }).returning('id').executeTakeFirstOrThrow();
  await db.updateTable('user_department_roles').set({ department_id: other.id }).where('user_id', '=', alice.userId).execute();
  alice = { ...alice, token: await d.kernel.login('alice', 'alice-Passw0rd') };
  const add = async (url: string, body: object) => {
    const res = await call(d.kernel, 'POST', url, owner.token, { kind: 'shared', users: [], ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.id as number;
  };
  privateMemory = await add('/api/TM/library/add', { name: 'Mine', ownership: 'custom', users: [{ userId: owner.userId, use: true, edit: true }] });
  otherDepartmentMemory = await add('/api/TM/library/add', { name: 'Legal', ownership: 'department' });
  openMemory = await add('/api/TM/library/add', { name: 'For all', ownership: 'all' });
  privateTermBase = await add('/api/term/library/add', { name: 'Terms', ownership: 'department' });
}, 120_000);
afterAll(() => d?.close());

const stored = async () => {
  const dir = join(d.kernel.config.dataDir, 'files', 'trans-file');
  const files = existsSync(dir) ? readdirSync(dir, { recursive: true }).length : 0;
  const rows = await d.kernel.database.db.selectFrom('trans_file_files').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const jobs = await d.kernel.database.db.selectFrom('trans_file_jobs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return { files, rows: Number(rows.n), jobs: Number(jobs.n) };
};

describe('resources chosen at upload', () => {
  it("refuses another department's or another user's memory and term base at upload, storing nothing", async () => {
    const before = await stored();
    const cases: Array<{ fields: Record<string, string>; en: string; zh: string }> = [
      { fields: { memories: String(privateMemory) }, en: `Insufficient permission: you may not use memory ${privateMemory}`, zh: `权限不足：您不能使用记忆库 ${privateMemory}` },
      { fields: { memories: `${openMemory},${otherDepartmentMemory}` }, en: `Insufficient permission: you may not use memory ${otherDepartmentMemory}`, zh: `权限不足：您不能使用记忆库 ${otherDepartmentMemory}` },
      { fields: { termBases: String(privateTermBase) }, en: `Insufficient permission: you may not use term base ${privateTermBase}`, zh: `权限不足：您不能使用术语库 ${privateTermBase}` },
    ];
    for (const c of cases) {
      const en = await upload(d.kernel, alice.token, { ...OPTIONS, ...c.fields }, FILE, EN);
      expect(en.status, JSON.stringify(en.body)).toBe(403);
      expect(en.body.msg).toBe(c.en);
      const zh = await upload(d.kernel, alice.token, { ...OPTIONS, ...c.fields }, FILE, ZH);
      expect(zh.body.msg).toBe(c.zh);
    }
    const unknown = await upload(d.kernel, alice.token, { ...OPTIONS, memories: '999999' }, FILE, EN);
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toBe('Memory 999999 does not exist');

    // A whole archive likewise: no job, no file.
    const zip = multipart({ ...OPTIONS, memories: String(privateMemory) }, [{ name: 'docs.zip', content: writeZip([{ name: 'a.txt', data: Buffer.from('Hello there.\n') }]) }], 'archive');
    const archive = await d.kernel.app.inject({ method: 'POST', url: '/api/transFileDog/upload', headers: { jwt: alice.token, 'content-type': zip.contentType, ...EN }, payload: zip.payload });
    expect(archive.statusCode).toBe(403);
    expect(archive.json().msg).toBe(`Insufficient permission: you may not use memory ${privateMemory}`);
    expect(await stored()).toEqual(before);
  });

  it('accepts a memory the uploader may use', async () => {
    const res = await upload(d.kernel, alice.token, { ...OPTIONS, memories: String(openMemory) }, FILE, EN);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data[0].memories).toEqual([openMemory]);
  });
});
