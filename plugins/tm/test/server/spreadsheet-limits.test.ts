import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole, sheetXlsx, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// Spreadsheets inflate: a few KB of xlsx can hold a sheet of many MB. The import refuses them on the
// zip's declared sizes before SheetJS reads anything, refuses a sheet over the row limit whole, and
// writes nothing either way. Limits from DATA_DIR/config/tm.json (`spreadsheet`), small here.

let k: TestKernel;
let token: string;

async function upload(name: string, content: Buffer, locale: 'en-US' | 'zh-CN', libraryId: number) {
  const boundary = '----tmsheet';
  const fields = { libraryId: String(libraryId), sourceLang: 'en', targetLang: 'es' };
  const parts: Buffer[] = [];
  for (const [n, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), content, Buffer.from(`\r\n--${boundary}--\r\n`));
  const res = await k.app.inject({ method: 'POST', url: '/api/TM/import', headers: { jwt: token, cookie: `locale=${locale}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}

const entries = async (libraryId: number) => Number((await k.database.db.selectFrom('tm_entries').select((eb) => eb.fn.countAll().as('n')).where('library_id', '=', libraryId).executeTakeFirstOrThrow()).n);
const pair = (i: number) => [`Sentence number ${i} of the sheet.`, `Frase número ${i} de la hoja.`];

beforeAll(async () => {
  k = await startTestKernel({
    plugins: ['tm'],
    prepare: (config) => {
      mkdirSync(join(config.dataDir, 'config'), { recursive: true });
      writeFileSync(join(config.dataDir, 'config', 'tm.json'), JSON.stringify({ spreadsheet: { maxUnpackedMb: 1, maxRows: 100 } }));
    },
  });
  await createUserWithRole(k, 'tm-sheets', 'Sheets-Passw0rd!', 'sheet importers', ['tm:view', 'tm:library', 'tm:import']);
  token = await k.login('tm-sheets', 'Sheets-Passw0rd!');
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
});

async function memory(name: string): Promise<number> {
  const res = await k.app.inject({ method: 'POST', url: '/api/TM/library/add', headers: { jwt: token }, payload: { name, ownership: 'department', kind: 'shared', users: [], isDefault: false } });
  return res.json().data.id;
}

describe('spreadsheet imports within limits', () => {
  it('refuses an xlsx whose sheet unpacks past the limit, in both languages, and writes nothing', async () => {
    const id = await memory('Bomb');
    // About 8 MB of sheet in a few hundred KB.
    const bomb = sheetXlsx(60_000, () => ['The same sentence again and again.', 'La misma frase una y otra vez.']);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const en = await upload('bomb.xlsx', bomb, 'en-US', id);
    expect(en.body.code, JSON.stringify(en.body)).toBe(400);
    expect(en.body.msg).toBe('bomb.xlsx: the spreadsheet unpacks to more than 1 MB; nothing was imported');
    const zh = await upload('bomb.xlsx', bomb, 'zh-CN', id);
    expect(zh.body.code).toBe(400);
    expect(zh.body.msg).toBe('bomb.xlsx：电子表格解压后超过 1 MB，未导入任何内容');
    expect(await entries(id)).toBe(0);
  }, 60_000);

  it('refuses a sheet over the row limit whole, and imports one within it', async () => {
    const id = await memory('Rows');
    const over = await upload('rows.xlsx', sheetXlsx(101, pair), 'en-US', id);
    expect(over.body.code, JSON.stringify(over.body)).toBe(400);
    expect(over.body.msg).toBe('rows.xlsx: the sheet has more than 100 rows; split the file and import the parts (nothing was imported)');
    expect((await upload('rows.xlsx', sheetXlsx(101, pair), 'zh-CN', id)).body.msg).toBe('rows.xlsx：工作表超过 100 行，请拆分文件后再导入（未导入任何内容）');
    expect(await entries(id)).toBe(0);
    const within = await upload('ok.xlsx', sheetXlsx(100, pair), 'en-US', id);
    expect(within.body.data, JSON.stringify(within.body)).toEqual({ imported: 100, rejected: 0, rejections: [] });
    expect(await entries(id)).toBe(100);
  }, 60_000);

  it('refuses a file that is not a spreadsheet with the unreadable reason', async () => {
    const id = await memory('Broken');
    const res = await upload('broken.xlsx', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 7)]), 'en-US', id);
    expect(res.body.code).toBe(400);
    expect(res.body.msg).toBe('broken.xlsx: the spreadsheet cannot be read');
  }, 60_000);
});
