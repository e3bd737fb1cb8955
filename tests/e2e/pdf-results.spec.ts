import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { makeTableFixture, TABLE } from '../../plugins/formats-pdf/test/server/samples.js';
import { unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * A text PDF in Chromium against the real server (issue 22, "PDF"): the upload dialog says, in either
 * language, that a PDF comes back as an editable document; a PDF with a table and a footnote (made by
 * LibreOffice here) translated en -> es gives `<name>_es.pdf.docx` holding a real Word table (rows and
 * cells kept, each cell translated) and the footnote mark as a mark; a second translation of the same
 * file gets a name of its own.
 */
test.describe.configure({ mode: 'serial' });

const NOTE = {
  'en-US': 'A PDF comes back as an editable Word document (.docx): its text, tables and footnote marks where they stood.',
  'zh-CN': 'PDF 译文以可编辑的 Word 文档（.docx）返回：文字、表格和脚注标记保留在原来的位置。',
};

/** Uploads the file en -> es by the upload dialog. */
async function translate(page: Page, file: string) {
  await page.getByTestId('open-upload').click();
  await page.getByTestId('file-input').setInputFiles(file);
  await page.getByTestId('source-language').selectOption('en');
  await page.getByTestId('target-language').selectOption('es');
  await page.getByTestId('start-upload').click();
  await expect(page.getByTestId('upload-dialog')).toBeHidden();
}

/** The ids of the list's rows for this file name, from their status cells. */
async function rowIds(page: Page, name: string): Promise<string[]> {
  const statuses = page.getByRole('row', { name: new RegExp(name.replace(/[.]/g, '\\.')) }).locator('[data-testid^="file-status-"]');
  return (await statuses.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!))).map((id) => id.replace('file-status-', ''));
}

/** Waits until the file's translation is completed and downloads its result: the suggested name and the saved path. */
async function result(page: Page, id: string, dir: string): Promise<{ name: string; path: string }> {
  await expect(page.getByTestId(`file-status-${id}`)).toHaveAttribute('data-status', 'completed', { timeout: 150_000 });
  const downloading = page.waitForEvent('download');
  await page.getByTestId(`download-${id}`).click();
  const download = await downloading;
  const path = join(dir, `result-${id}.docx`);
  await download.saveAs(path);
  return { name: download.suggestedFilename(), path };
}

const texts = (xml: string) => [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]!).join('');

test('the upload dialog says, in Chinese too, that a PDF comes back as an editable document', async ({ page, browser }) => {
  await signIn(page);
  await page.goto(`${baseUrl()}/transFile`);
  await page.getByTestId('open-upload').click();
  await expect(page.getByTestId('pdf-result-note')).toHaveText(NOTE['en-US']);

  const context = await browser.newContext();
  try {
    const zh = await context.newPage();
    await signIn(zh, 'admin', process.env.E2E_ADMIN_PASSWORD!, 'zh-CN');
    await zh.goto(`${baseUrl()}/transFile`);
    await zh.getByTestId('open-upload').click();
    await expect(zh.getByTestId('pdf-result-note')).toHaveText(NOTE['zh-CN']);
  } finally {
    await context.close();
  }
});

test('a text PDF with a table comes back as <name>_es.pdf.docx holding a Word table of translated cells; a second translation gets its own name', async ({ page }) => {
  test.setTimeout(300_000);
  const dir = mkdtempSync(join(tmpdir(), 'pdf-results-e2e-'));
  const stem = unique('report-');
  // LibreOffice's PDF of a paragraph with a footnote, a bordered 3 x 3 table and a closing paragraph.
  const pdf = join(dir, `${stem}.pdf`);
  writeFileSync(pdf, makeTableFixture(dir));

  await signIn(page);
  await page.goto(`${baseUrl()}/transFile`);
  await translate(page, pdf);
  await expect.poll(() => rowIds(page, `${stem}.pdf`)).toHaveLength(1);
  const [first] = await rowIds(page, `${stem}.pdf`);
  const one = await result(page, first!, dir);
  // The original's extension stays before the result's own: report.pdf -> report_es.pdf.docx.
  expect(one.name).toBe(`${stem}_es.pdf.docx`);

  const part = (file: string, name: string) => execFileSync('unzip', ['-p', file, name]).toString('utf8');
  execFileSync('unzip', ['-tq', one.path]);
  const xml = part(one.path, 'word/document.xml');
  // One Word table, its 3 rows of 3 cells each a translated cell of the PDF's table.
  const tables = [...xml.matchAll(/<w:tbl>(.*?)<\/w:tbl>/gs)];
  expect(tables).toHaveLength(1);
  const rows = [...tables[0]![1]!.matchAll(/<w:tr>(.*?)<\/w:tr>/gs)].map((r) => [...r[1]!.matchAll(/<w:tc>(.*?)<\/w:tc>/gs)].map((c) => texts(c[1]!).trim()));
  expect(rows.map((r) => r.length)).toEqual(TABLE.map((r) => r.length));
  expect(rows).toEqual([
    ['Región', 'Cosecha de trigo', 'Cambio de precio'],
    ['Costa del norte', 'Doce toneladas', 'Más bajo'],
    ['Valle del sur', 'Nueve toneladas', 'Más alto'],
  ]);
  // The footnote mark is still a mark (a superscript run), not a digit glued to a word.
  expect(xml).toMatch(/<w:vertAlign w:val="superscript"\/><\/w:rPr><w:t(?: [^>]*)?>1<\/w:t>/);
  expect(xml).toMatch(/cosecha/i);

  // The same file translated again: its result does not take the first one's name.
  await translate(page, pdf);
  await expect.poll(() => rowIds(page, `${stem}.pdf`)).toHaveLength(2);
  const second = (await rowIds(page, `${stem}.pdf`)).find((id) => id !== first)!;
  const two = await result(page, second, dir);
  expect(two.name).not.toBe(one.name);
  expect(two.name).toBe(`${stem}_es (2).pdf.docx`);
  expect([...part(two.path, 'word/document.xml').matchAll(/<w:tbl>/g)]).toHaveLength(1);
});
