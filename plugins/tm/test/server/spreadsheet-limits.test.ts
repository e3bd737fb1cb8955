import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sheetXlsx, startResourceImportKernel, type ResourceImportKernel } from '@linguaport/sdk/testing';

// Spreadsheets inflate: a few KB of xlsx can hold a sheet of many MB. The import refuses them on the
// zip's declared sizes before SheetJS reads anything, refuses a sheet over the row limit whole, and
// writes nothing either way. Limits from DATA_DIR/config/tm.json (`spreadsheet`), small here.

let area: ResourceImportKernel;
const pair = (i: number) => [`Sentence number ${i} of the sheet.`, `Frase número ${i} de la hoja.`];

beforeAll(async () => {
  area = await startResourceImportKernel({ plugin: 'tm', routes: '/api/TM', table: 'tm_entries' }, { spreadsheet: { maxUnpackedMb: 1, maxRows: 100 } });
}, 180_000);

afterAll(async () => {
  await area?.kernel.shutdown();
});

describe('spreadsheet imports within limits', () => {
  it('refuses an xlsx whose sheet unpacks past the limit, in both languages, and writes nothing', async () => {
    const id = await area.library('Bomb');
    // About 8 MB of sheet in a few hundred KB.
    const bomb = sheetXlsx(60_000, () => ['The same sentence again and again.', 'La misma frase una y otra vez.']);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const en = await area.upload('bomb.xlsx', bomb, 'en-US', id);
    expect(en.body.code, JSON.stringify(en.body)).toBe(400);
    expect(en.body.msg).toBe('bomb.xlsx: the spreadsheet unpacks to more than 1 MB; nothing was imported');
    const zh = await area.upload('bomb.xlsx', bomb, 'zh-CN', id);
    expect(zh.body.code).toBe(400);
    expect(zh.body.msg).toBe('bomb.xlsx：电子表格解压后超过 1 MB，未导入任何内容');
    expect(await area.entries(id)).toBe(0);
  }, 60_000);

  it('refuses a sheet over the row limit whole, and imports one within it', async () => {
    const id = await area.library('Rows');
    const over = await area.upload('rows.xlsx', sheetXlsx(101, pair), 'en-US', id);
    expect(over.body.code, JSON.stringify(over.body)).toBe(400);
    expect(over.body.msg).toBe('rows.xlsx: the sheet has more than 100 rows; split the file and import the parts (nothing was imported)');
    expect((await area.upload('rows.xlsx', sheetXlsx(101, pair), 'zh-CN', id)).body.msg).toBe('rows.xlsx：工作表超过 100 行，请拆分文件后再导入（未导入任何内容）');
    expect(await area.entries(id)).toBe(0);
    const within = await area.upload('ok.xlsx', sheetXlsx(100, pair), 'en-US', id);
    expect(within.body.data, JSON.stringify(within.body)).toEqual({ imported: 100, rejected: 0, rejections: [] });
    expect(await area.entries(id)).toBe(100);
  }, 60_000);

  it('refuses a file that is not a spreadsheet with the unreadable reason', async () => {
    const id = await area.library('Broken');
    const res = await area.upload('broken.xlsx', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 7)]), 'en-US', id);
    expect(res.body.code).toBe(400);
    expect(res.body.msg).toBe('broken.xlsx: the spreadsheet cannot be read');
  }, 60_000);
});
