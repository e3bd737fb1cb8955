import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { startResourceImportKernel, type ResourceImportKernel } from '@linguaport/sdk/testing';

// Term lists from other tools: a header row names the columns in English or Chinese, in any order (case
// and spacing ignored); without one the columns are positional. A forbidden cell that is no clear yes or
// no is reported with its row and value, in both languages, and the row is not imported.

let area: ResourceImportKernel;
const xlsx = (rows: string[][]) => {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Terms');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
};
const terms = (id: number) =>
  area.kernel.database.db
    .selectFrom('term_entries' as never)
    .select(['source', 'target', 'part_of_speech', 'note', 'domain', 'forbidden'] as never[])
    .where('library_id' as never, '=', id as never)
    .orderBy('source' as never)
    .execute() as Promise<Array<{ source: string; target: string; part_of_speech: string | null; note: string | null; domain: string | null; forbidden: boolean }>>;

beforeAll(async () => {
  area = await startResourceImportKernel({ plugin: 'term', routes: '/api/term', table: 'term_entries' }, {});
}, 180_000);

afterAll(async () => {
  await area?.kernel.shutdown();
});

const expected = [
  { source: 'firewall', target: 'cortafuegos', part_of_speech: 'noun', note: null, domain: 'IT', forbidden: true },
  { source: 'hard disk', target: 'disco duro', part_of_speech: null, note: 'storage', domain: null, forbidden: false },
];

describe('term import columns', () => {
  it('maps an XLSX header in English, in any order, case and spacing ignored', async () => {
    const id = await area.library('Sheet EN');
    const res = await area.upload('en.xlsx', xlsx([['Note', 'FORBIDDEN', 'Target Term', 'domain', 'Part  of Speech', 'source'], ['storage', 'no', 'disco duro', '', '', 'hard disk'], ['', 'Yes', 'cortafuegos', 'IT', 'noun', 'firewall']]), 'en-US', id);
    expect(res.body.data, JSON.stringify(res.body)).toEqual({ imported: 2, rejected: 0, rejections: [] });
    expect(await terms(id)).toEqual(expected);
  }, 60_000);

  it('maps an XLSX and a CSV header in Chinese, in any order', async () => {
    const id = await area.library('Sheet ZH');
    const res = await area.upload('zh.xlsx', xlsx([['领域', '译文', '禁用', '原文', '词性', '备注'], ['', 'disco duro', '否', 'hard disk', '', 'storage'], ['IT', 'cortafuegos', '是', 'firewall', 'noun', '']]), 'zh-CN', id);
    expect(res.body.data, JSON.stringify(res.body)).toEqual({ imported: 2, rejected: 0, rejections: [] });
    expect(await terms(id)).toEqual(expected);
    const csvId = await area.library('CSV ZH');
    const csv = await area.upload('zh.csv', Buffer.from('是否禁用,目标术语,源术语,词性,领域,备注\r\n否,disco duro,hard disk,,,storage\r\n是,cortafuegos,firewall,noun,IT,\r\n'), 'zh-CN', csvId);
    expect(csv.body.data, JSON.stringify(csv.body)).toEqual({ imported: 2, rejected: 0, rejections: [] });
    expect(await terms(csvId)).toEqual(expected);
  }, 60_000);

  it('reads columns by position when there is no header row, in a CSV as in an XLSX', async () => {
    const id = await area.library('No header');
    const res = await area.upload('plain.xlsx', xlsx([['hard disk', 'disco duro', '', 'storage', '', ''], ['firewall', 'cortafuegos', 'noun', '', 'IT', 'y']]), 'en-US', id);
    expect(res.body.data, JSON.stringify(res.body)).toEqual({ imported: 2, rejected: 0, rejections: [] });
    expect(await terms(id)).toEqual(expected);
    const csvId = await area.library('No header CSV');
    const csv = await area.upload('plain.csv', Buffer.from('hard disk,disco duro,,storage,,\nfirewall,cortafuegos,noun,,IT,1\n'), 'en-US', csvId);
    expect(csv.body.data, JSON.stringify(csv.body)).toEqual({ imported: 2, rejected: 0, rejections: [] });
    expect(await terms(csvId)).toEqual(expected);
  }, 60_000);

  it('reports a forbidden value that is no clear yes or no with its row and value, in both languages, and imports the row nowhere', async () => {
    const rows = [['Source', 'Translation', 'Forbidden'], ['hard disk', 'disco duro', 'maybe'], ['firewall', 'cortafuegos', 'TRUE']];
    const id = await area.library('Unclear');
    const en = await area.upload('f.xlsx', xlsx(rows), 'en-US', id);
    expect(en.body.data, JSON.stringify(en.body)).toEqual({ imported: 1, rejected: 1, rejections: [{ file: 'f.xlsx', row: 2, reason: 'the forbidden column says "maybe", which is neither yes nor no (write yes or no)' }] });
    expect((await terms(id)).map((t) => [t.source, t.forbidden])).toEqual([['firewall', true]]);
    const zhId = await area.library('Unclear ZH');
    const zh = await area.upload('f.csv', Buffer.from('source,target,forbidden\nhard disk,disco duro,?\n'), 'zh-CN', zhId);
    expect(zh.body.data, JSON.stringify(zh.body)).toEqual({ imported: 0, rejected: 1, rejections: [{ file: 'f.csv', row: 2, reason: '“禁用”列的值“?”无法识别（请填写 是/否、yes/no）' }] });
  }, 60_000);
});
