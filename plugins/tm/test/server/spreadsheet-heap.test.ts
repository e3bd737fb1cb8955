import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole, sheetXlsx, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// A sheet within every byte, row and cell limit can still need more memory than the parsing worker
// has. The worker is a process: reaching its heap limit fails that import alone (a worker thread
// could abort the whole server, nodejs/node#47224), and the server answers meanwhile. The heap is set
// to 32 MB here (DATA_DIR/config/tm.json, `spreadsheet.maxHeapMb`) so a sheet of a few MB exhausts it.

let k: TestKernel;
let token: string;

async function upload(name: string, content: Buffer, locale: 'en-US' | 'zh-CN', libraryId: number) {
  const boundary = '----tmheap';
  const fields = { libraryId: String(libraryId), sourceLang: 'en', targetLang: 'es' };
  const parts: Buffer[] = [];
  for (const [n, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), content, Buffer.from(`\r\n--${boundary}--\r\n`));
  const res = await k.app.inject({ method: 'POST', url: '/api/TM/import', headers: { jwt: token, cookie: `locale=${locale}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}

const entries = async (libraryId: number) => Number((await k.database.db.selectFrom('tm_entries').select((eb) => eb.fn.countAll().as('n')).where('library_id', '=', libraryId).executeTakeFirstOrThrow()).n);
const pair = (i: number) => [`Sentence number ${i} of the sheet, a little longer than most.`, `Frase número ${i} de la hoja.`];

beforeAll(async () => {
  k = await startTestKernel({
    plugins: ['tm'],
    prepare: (config) => {
      mkdirSync(join(config.dataDir, 'config'), { recursive: true });
      writeFileSync(join(config.dataDir, 'config', 'tm.json'), JSON.stringify({ spreadsheet: { maxHeapMb: 32 } }));
    },
  });
  await createUserWithRole(k, 'tm-heap', 'Heap-Passw0rd!', 'sheet importers', ['tm:view', 'tm:library', 'tm:import']);
  token = await k.login('tm-heap', 'Heap-Passw0rd!');
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
});

async function memory(name: string): Promise<number> {
  const res = await k.app.inject({ method: 'POST', url: '/api/TM/library/add', headers: { jwt: token }, payload: { name, ownership: 'department', kind: 'shared', users: [], isDefault: false } });
  return res.json().data.id;
}

async function healthy(): Promise<void> {
  const started = Date.now();
  const res = await k.app.inject({ method: 'GET', url: '/api/health' });
  expect(res.statusCode).toBe(200);
  expect(Date.now() - started).toBeLessThan(2000);
}

describe('a spreadsheet that exhausts the parsing worker', () => {
  it('fails its own import with the heap reason in both languages; health and a small import beside it are answered', async () => {
    const heavyId = await memory('Heavy');
    const smallId = await memory('Small');
    // About 9 MB of sheet (60,000 rows): within the 64 MB, 100,000-row and 1,000,000-cell limits.
    const heavy = sheetXlsx(60_000, pair);
    const heavyEn = upload('heavy.xlsx', heavy, 'en-US', heavyId);
    const small = upload('small.xlsx', sheetXlsx(10, pair), 'en-US', smallId);
    await healthy();
    const [en, ok] = await Promise.all([heavyEn, small]);
    expect(en.body.code, JSON.stringify(en.body)).toBe(400);
    expect(en.body.msg).toBe('heavy.xlsx: the spreadsheet is too large to read within the memory and time limits; nothing was imported');
    expect(ok.body.data, JSON.stringify(ok.body)).toEqual({ imported: 10, rejected: 0, rejections: [] });
    await healthy();
    const zh = await upload('heavy.xlsx', heavy, 'zh-CN', heavyId);
    expect(zh.body.code).toBe(400);
    expect(zh.body.msg).toBe('heavy.xlsx：电子表格过大，无法在限定的内存和时间内读取，未导入任何内容');
    expect(await entries(heavyId)).toBe(0);
    expect(await entries(smallId)).toBe(10);
    await healthy();
  }, 120_000);
});
