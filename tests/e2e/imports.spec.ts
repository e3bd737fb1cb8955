import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { expect, test, type Page } from '@playwright/test';
import { Api, unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * Imports into memories and term bases in Chromium against the real server (issue 22, "Imports"):
 * term spreadsheets and CSV files whose header row names the columns in Chinese or in English, in any
 * order, land in the right fields, and a forbidden cell that is no clear yes or no is reported; a file
 * holding a source and target the memory or term base already has is skipped (the default),
 * overwritten or kept beside it, as the import card asks, and the report counts each.
 */
interface Term {
  id: number;
  source: string;
  target: string;
  forbidden: boolean;
  partOfSpeech: string | null;
  note: string | null;
  domain: string | null;
  status: string;
}
interface Entry {
  id: number;
  source: string;
  target: string;
  status: string;
  notes?: string[];
}

async function library(admin: Api, area: 'TM' | 'term', prefix: string): Promise<{ id: number; name: string }> {
  const name = unique(prefix);
  await admin.call('POST', `/${area}/library/add`, { name, ownership: 'department', kind: 'shared', users: [], isDefault: false });
  const list = await admin.call<{ records: { id: number; name: string }[] }>('GET', `/${area}/library/list?pageNum=1&pageSize=200`);
  return { id: list.records.find((l) => l.name === name)!.id, name };
}

const entries = async <T>(admin: Api, area: 'TM' | 'term', libraryId: number) =>
  (await admin.call<{ records: T[] }>('GET', `/${area}/entry/list?libraryId=${libraryId}&pageNum=1&pageSize=100`)).records;

/** Chooses files on the import card and imports them with the duplicate choice given (the radio chosen by its label, as a user clicks it). */
async function importFiles(page: Page, area: 'tm' | 'term', files: string[], choice?: string) {
  const card = page.getByTestId(`${area}-import`);
  if (choice) {
    await card.getByText(choice, { exact: true }).click();
    await expect(card.getByRole('radio', { name: choice, exact: true })).toBeChecked();
  }
  await page.getByTestId(`${area}-import-files`).setInputFiles(files);
  await page.getByTestId(`${area}-import-submit`).click();
}

test('a term spreadsheet with Chinese column names and a CSV with English ones, in another order, land in the right fields; an unclear forbidden value is reported', async ({ page }) => {
  test.setTimeout(120_000);
  const admin = await Api.signIn();
  const { id: baseId } = await library(admin, 'term', 'Header terms ');
  const dir = mkdtempSync(join(tmpdir(), 'imports-e2e-'));
  // The header in Chinese: 原文, 译文, 词性, 备注, 领域, 禁用.
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    book,
    XLSX.utils.aoa_to_sheet([
      ['原文', '译文', '词性', '备注', '领域', '禁用'],
      ['printer', '打印机', '名词', '办公设备', '办公', '否'],
      ['toner', '碳粉', '名词', '', '办公', '是'],
      ['stapler', '订书机', '名词', '', '办公', '也许'],
    ]),
    'Terms',
  );
  writeFileSync(join(dir, 'office.xlsx'), XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
  // The header in English, the columns in another order.
  writeFileSync(join(dir, 'finance.csv'), 'Forbidden,Domain,Translation,Note,Source,Part of speech\r\nno,finance,发票,a bill to pay,invoice,noun\r\nyes,finance,账单,,bill,noun\r\nmaybe,finance,收据,,receipt,noun\r\n');

  await signIn(page);
  await page.goto(`${baseUrl()}/term?libraryId=${baseId}`);
  const card = page.getByTestId('term-import');
  await expect(card).toBeVisible();
  // The card says that CSV is read and that a header row names the columns.
  await expect(card).toContainText('CSV');
  await expect(card).toContainText(/header/i);
  await importFiles(page, 'term', [join(dir, 'office.xlsx'), join(dir, 'finance.csv')]);

  const report = page.getByTestId('term-import-report');
  // A spreadsheet is parsed in a worker process of its own (a heap limit for SheetJS), whose start takes
  // some seconds when the machine is busy: the report waits for it.
  await expect(report).toContainText('4 terms imported, 2 rejected', { timeout: 60_000 });
  await expect(report).toContainText('office.xlsx #4: the forbidden column says "也许", which is neither yes nor no (write yes or no)');
  await expect(report).toContainText('finance.csv #4: the forbidden column says "maybe", which is neither yes nor no (write yes or no)');
  const grid = page.getByTestId('term-entry-table');
  await expect(grid).toContainText('打印机');
  await expect(grid).toContainText('发票');
  await expect(grid).not.toContainText('订书机');
  await expect(grid).not.toContainText('收据');
  // Forbidden translations carry their tag in the grid; allowed ones do not.
  await expect(grid.locator('[data-row]').filter({ hasText: /^Forbidden\s*碳粉$/ })).toHaveCount(1);
  await expect(grid.locator('[data-row]').filter({ hasText: /^Forbidden\s*账单$/ })).toHaveCount(1);
  await expect(grid.locator('[data-row]').filter({ hasText: /^Forbidden\s*(打印机|发票)$/ })).toHaveCount(0);

  const terms = await entries<Term>(admin, 'term', baseId);
  const field = (source: string) => {
    const t = terms.find((e) => e.source === source)!;
    return { target: t.target, forbidden: t.forbidden, partOfSpeech: t.partOfSpeech, note: t.note, domain: t.domain };
  };
  expect(terms.map((t) => t.source).sort()).toEqual(['bill', 'invoice', 'printer', 'toner']);
  expect(field('printer')).toEqual({ target: '打印机', forbidden: false, partOfSpeech: '名词', note: '办公设备', domain: '办公' });
  expect(field('toner')).toEqual({ target: '碳粉', forbidden: true, partOfSpeech: '名词', note: null, domain: '办公' });
  expect(field('invoice')).toEqual({ target: '发票', forbidden: false, partOfSpeech: 'noun', note: 'a bill to pay', domain: 'finance' });
  expect(field('bill')).toEqual({ target: '账单', forbidden: true, partOfSpeech: 'noun', note: null, domain: 'finance' });
});

test('a TMX holding a pair the memory already has is skipped by default, then overwritten, then kept beside it, each counted', async ({ page }) => {
  test.setTimeout(120_000);
  const admin = await Api.signIn();
  const { id: memoryId, name: memory } = await library(admin, 'TM', 'Duplicates memory ');
  const known = `The ${unique('w').replace(/[^a-z]/gi, '')} invoice is overdue.`;
  const fresh = `The ${unique('w').replace(/[^a-z]/gi, '')} order has shipped.`;
  await admin.call('POST', '/TM/entry/add', { libraryId: memoryId, source: known, target: 'La factura está vencida.', sourceLang: 'en', targetLang: 'es' });
  const stored = await entries<Entry>(admin, 'TM', memoryId);
  await admin.call('POST', '/TM/entry/review', { ids: [stored[0]!.id], action: 'pass' });
  const dir = mkdtempSync(join(tmpdir(), 'imports-e2e-'));
  // The known pair with other white space and a note from the supplier, and a new one.
  const tmx = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header creationtool="e2e" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" srclang="en" datatype="plaintext"/>
<body>
  <tu><note>From the supplier</note><tuv xml:lang="en"><seg>${known.replace(' invoice', '  invoice')}</seg></tuv><tuv xml:lang="es"><seg>La factura está vencida.</seg></tuv></tu>
  <tu><tuv xml:lang="en"><seg>${fresh}</seg></tuv><tuv xml:lang="es"><seg>El pedido ha salido.</seg></tuv></tu>
</body></tmx>`;
  writeFileSync(join(dir, 'supplier.tmx'), tmx);

  await signIn(page);
  await page.goto(`${baseUrl()}/TM?libraryId=${memoryId}`);
  const card = page.getByTestId('tm-import');
  await expect(card).toContainText('When an entry with the same source and translation is already there');
  // Skip is the default.
  await expect(card.getByRole('radio', { name: 'Skip', exact: true })).toBeChecked();
  await expect(card.getByRole('radio', { name: 'Overwrite', exact: true })).not.toBeChecked();
  await expect(card.getByRole('radio', { name: 'Keep both', exact: true })).not.toBeChecked();

  const report = page.getByTestId('tm-import-report');
  const counts = page.getByTestId('tm-import-duplicate-counts');
  await importFiles(page, 'tm', [join(dir, 'supplier.tmx')]);
  await expect(report).toContainText('1 entries imported, 0 rejected');
  await expect(counts).toHaveText('1 added, 1 skipped as duplicates, 0 overwritten, 0 kept both');
  let now = await entries<Entry>(admin, 'TM', memoryId);
  expect(now).toHaveLength(2);
  // The stored entry is as it was: still reviewed, no note.
  expect(now.find((e) => e.source === known)).toMatchObject({ status: 'checked', notes: [] });

  await importFiles(page, 'tm', [join(dir, 'supplier.tmx')], 'Overwrite');
  await expect(counts).toHaveText('0 added, 0 skipped as duplicates, 2 overwritten, 0 kept both');
  await expect(report).toContainText('2 entries imported, 0 rejected');
  now = await entries<Entry>(admin, 'TM', memoryId);
  expect(now).toHaveLength(2);
  // The file's unit replaced the stored one: its note, and it is to be reviewed again.
  expect(now.filter((e) => e.target === 'La factura está vencida.')).toEqual([expect.objectContaining({ status: 'unchecked', notes: ['From the supplier'] })]);
  await expect(page.getByTestId('tm-entry-table')).toContainText('From the supplier');

  await importFiles(page, 'tm', [join(dir, 'supplier.tmx')], 'Keep both');
  await expect(counts).toHaveText('0 added, 0 skipped as duplicates, 0 overwritten, 2 kept both');
  await expect(report).toContainText('2 entries imported, 0 rejected');
  now = await entries<Entry>(admin, 'TM', memoryId);
  expect(now).toHaveLength(4);
  expect(now.filter((e) => e.target === 'La factura está vencida.')).toHaveLength(2);
  expect(now.filter((e) => e.target === 'El pedido ha salido.')).toHaveLength(2);
  await expect(page.getByRole('button', { name: `${memory} (4)` })).toBeVisible();
});

test('in Chinese, a term list holding a term the base already has asks 跳过, 覆盖 or 保留两者 and reports each in Chinese', async ({ page }) => {
  test.setTimeout(120_000);
  const admin = await Api.signIn();
  const { id: baseId } = await library(admin, 'term', 'Duplicate terms ');
  await admin.call('POST', '/term/entry/add', { libraryId: baseId, source: 'Printer', target: '打印机', sourceLang: 'en', targetLang: 'zh-CN' });
  const dir = mkdtempSync(join(tmpdir(), 'imports-e2e-'));
  // The same term (case aside) with a note, and a row whose forbidden cell says neither yes nor no.
  writeFileSync(join(dir, 'terms.csv'), '原文,译文,备注,禁用\r\nprinter,打印机,来自供应商,否\r\nscanner,扫描仪,,也许\r\n');

  await signIn(page, 'admin', process.env.E2E_ADMIN_PASSWORD!, 'zh-CN');
  await page.goto(`${baseUrl()}/term?libraryId=${baseId}`);
  const card = page.getByTestId('term-import');
  await expect(card).toContainText('已有相同原文和译文的条目时');
  await expect(card.getByRole('radio', { name: '跳过', exact: true })).toBeChecked();
  await expect(card.getByRole('radio', { name: '覆盖', exact: true })).not.toBeChecked();
  await expect(card.getByRole('radio', { name: '保留两者', exact: true })).not.toBeChecked();
  await expect(card).toContainText('表头');

  const report = page.getByTestId('term-import-report');
  const counts = page.getByTestId('term-import-duplicate-counts');
  await importFiles(page, 'term', [join(dir, 'terms.csv')]);
  await expect(report).toContainText('已导入 0 条，驳回 1 条');
  await expect(counts).toHaveText('新增 0 条，跳过重复 1 条，覆盖 0 条，保留两者 0 条');
  await expect(report).toContainText('terms.csv #3: “禁用”列的值“也许”无法识别（请填写 是/否、yes/no）');
  let terms = await entries<Term>(admin, 'term', baseId);
  expect(terms.map((t) => [t.source, t.note])).toEqual([['Printer', null]]);

  await importFiles(page, 'term', [join(dir, 'terms.csv')], '覆盖');
  await expect(counts).toHaveText('新增 0 条，跳过重复 0 条，覆盖 1 条，保留两者 0 条');
  await expect(report).toContainText('已导入 1 条，驳回 1 条');
  terms = await entries<Term>(admin, 'term', baseId);
  expect(terms.map((t) => [t.source, t.note, t.forbidden])).toEqual([['printer', '来自供应商', false]]);

  await importFiles(page, 'term', [join(dir, 'terms.csv')], '保留两者');
  await expect(counts).toHaveText('新增 0 条，跳过重复 0 条，覆盖 0 条，保留两者 1 条');
  terms = await entries<Term>(admin, 'term', baseId);
  expect(terms.map((t) => t.source)).toEqual(['printer', 'printer']);
  await expect(page.getByTestId('term-entry-table').locator('[data-row]').filter({ hasText: /^printer$/ })).toHaveCount(2);
});
