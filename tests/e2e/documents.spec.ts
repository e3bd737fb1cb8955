import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * Document translation in Chromium against the real server and its Apertium engine: a user uploads a
 * text file by the upload dialog, watches its progress to completion, reads source and translation
 * side by side, edits a paragraph, sees the rendered pages and downloads the result; an empty file is
 * refused with the catalogue's message before anything is sent.
 */
test.describe.configure({ mode: 'serial' });

test('a document is uploaded, translated with live progress, previewed, edited and downloaded', async ({ page }) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'docs-e2e-'));
  const name = `${unique('report-')}.txt`;
  const paragraphs = Array.from({ length: 40 }, (_, i) => (i === 0 ? 'The red car is fast.' : `The house number ${i} has a big garden.`));
  writeFileSync(join(dir, name), `${paragraphs.join('\n\n')}\n`);
  writeFileSync(join(dir, 'empty.txt'), '');

  await signIn(page);
  await page.goto(`${baseUrl()}/transFile`);
  await expect(page.getByTestId('trans-file')).toBeVisible();
  await page.getByTestId('open-upload').click();
  const dialog = page.getByTestId('upload-dialog');
  await expect(dialog).toBeVisible();

  // An empty file is refused at once, with the catalogue's message, and cannot be sent.
  await page.getByTestId('file-input').setInputFiles(join(dir, 'empty.txt'));
  await expect(page.getByTestId('chosen-files')).toContainText('empty.txt: cannot upload an empty file');
  await expect(page.getByTestId('start-upload')).toBeDisabled();
  await page.getByTestId('chosen-files').getByRole('button', { name: 'Remove this file' }).click();

  await page.getByTestId('file-input').setInputFiles(join(dir, name));
  await page.getByTestId('source-language').selectOption('en');
  await page.getByTestId('target-language').selectOption('es');
  await page.getByTestId('start-upload').click();
  await expect(dialog).toBeHidden();

  // The row appears and moves to completed on its own (pushed over the WebSocket, no reload).
  const row = page.getByRole('row', { name: new RegExp(name.replace(/[.]/g, '\\.')) });
  await expect(row).toBeVisible();
  const status = row.locator('[data-testid^="file-status-"]');
  await expect(status).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  await expect(row).toContainText('Translation completed');

  // Side by side, paragraph by paragraph.
  await row.locator('[data-testid^="preview-"]').click();
  await expect(page).toHaveURL(/\/fileView\?id=\d+/);
  await expect(page.getByTestId('source-0')).toHaveText('The red car is fast.');
  await expect(page.getByTestId('target-0')).toContainText('coche');
  await expect(page.getByTestId('target-39')).toContainText('jardín');

  // An edit is written into the translated file, and a download asked for while the edit is being saved
  // still carries it. The save reaches the server a moment late here (as on a busy network), so the
  // download is asked for before the save is answered every run, not only on an unlucky one.
  await page.route('**/api/transFile/units/*/1', async (route) => {
    if (route.request().method() === 'PUT') await new Promise((r) => setTimeout(r, 1_000));
    await route.continue();
  });
  await page.getByTestId('edit-button-1').click();
  await page.getByTestId('edit-1').fill('La casa número 1 tiene un jardín enorme.');
  await page.getByTestId('save-1').click();
  const downloading = page.waitForEvent('download');
  await page.getByTestId('view-download').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(name.replace('.txt', '_es.txt'));
  const text = readFileSync((await download.path())!, 'utf8');
  expect(text.split('\n\n')[1]).toBe('La casa número 1 tiene un jardín enorme.');
  expect(text.split('\n\n')[0]).toContain('coche');
  // Saved: the edit box is closed and the paragraph shows the stored text (while the box is open, its own
  // text already contains the draft, so the text alone proves nothing).
  await expect(page.getByTestId('edit-1')).toBeHidden();
  await expect(page.getByTestId('target-1')).toContainText('La casa número 1 tiene un jardín enorme.');
  await page.unroute('**/api/transFile/units/*/1');

  // The documents themselves, page by page.
  await page.getByRole('button', { name: 'Preview the document' }).click();
  await expect(page).toHaveURL(/\/fileView2\?id=\d+/);
  await expect(page.getByTestId('target-page-1')).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('source-page-1')).toBeVisible();
});

test('a docx with a header, a footnote, a table and a bold word comes back translated with its formatting', async ({ page }) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'docx-e2e-'));
  const name = `${unique('letter-')}.docx`;
  const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const parts: Record<string, string> = {
    '[Content_Types].xml': '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/><Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/></Types>',
    '_rels/.rels': '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    'word/_rels/document.xml.rels': '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/><Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/></Relationships>',
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body><w:p><w:r><w:t xml:space="preserve">The red car is </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>fast</w:t></w:r><w:r><w:t>.</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p><w:tbl><w:tr><w:tc><w:p><w:r><w:t>The big house</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:sectPr><w:headerReference w:type="default" r:id="rId3"/></w:sectPr></w:body></w:document>`,
    'word/header1.xml': `<?xml version="1.0" encoding="UTF-8"?><w:hdr ${W}><w:p><w:r><w:t>The garden</w:t></w:r></w:p></w:hdr>`,
    'word/footnotes.xml': `<?xml version="1.0" encoding="UTF-8"?><w:footnotes ${W}><w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> The black cat.</w:t></w:r></w:p></w:footnote></w:footnotes>`,
  };
  const src = join(dir, 'src');
  for (const [part, xml] of Object.entries(parts)) {
    mkdirSync(join(src, part, '..'), { recursive: true });
    writeFileSync(join(src, part), xml);
  }
  execFileSync('zip', ['-qr', join(dir, name), '.'], { cwd: src });

  await signIn(page);
  await page.goto(`${baseUrl()}/transFile`);
  await page.getByTestId('open-upload').click();
  await page.getByTestId('file-input').setInputFiles(join(dir, name));
  await page.getByTestId('source-language').selectOption('en');
  await page.getByTestId('target-language').selectOption('es');
  await page.getByTestId('start-upload').click();
  const row = page.getByRole('row', { name: new RegExp(name.replace(/[.]/g, '\\.')) });
  await expect(row.locator('[data-testid^="file-status-"]')).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });

  await row.locator('[data-testid^="preview-"]').click();
  await expect(page.getByTestId('source-0')).toContainText('The red car is');
  const downloading = page.waitForEvent('download');
  await page.getByTestId('view-download').click();
  const file = (await (await downloading).path())!;
  const part = (p: string) => execFileSync('unzip', ['-p', file, p]).toString('utf8');
  // Apertium's Spanish in every part, the bold word still bold and the footnote reference kept.
  expect(part('word/document.xml')).toMatch(/coche/);
  expect(part('word/document.xml')).toMatch(/<w:r><w:rPr><w:b\/><\/w:rPr><w:t>[^<]*r[aá]pid[^<]*<\/w:t><\/w:r>/);
  expect(part('word/document.xml')).toContain('<w:footnoteReference w:id="1"/>');
  expect(part('word/document.xml')).toMatch(/casa/);
  expect(part('word/header1.xml')).toMatch(/jard[ií]n/);
  expect(part('word/footnotes.xml')).toMatch(/gato/);
  execFileSync('unzip', ['-tq', file]);
});

test('a scanned PDF is marked OCR and its recognised text is shown over the page with its translation', async ({ page }) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'ocr-e2e-'));
  const office = (args: string[]) => execFileSync('soffice', ['--headless', '--norestore', ...args], { cwd: dir, env: { ...process.env, HOME: dir }, timeout: 120_000, stdio: 'ignore' });
  // A page of large clear text, printed to PDF, rasterised, and made a PDF of the picture alone.
  writeFileSync(
    join(dir, 'page.fodt'),
    `<?xml version="1.0" encoding="UTF-8"?><office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text"><office:automatic-styles><style:style style:name="P1" style:family="paragraph"><style:text-properties fo:font-size="20pt"/></style:style></office:automatic-styles><office:body><office:text><text:p text:style-name="P1">The red car is fast.</text:p><text:p text:style-name="P1">The house has a big garden.</text:p></office:text></office:body></office:document>`,
  );
  office(['--convert-to', 'pdf', '--outdir', dir, join(dir, 'page.fodt')]);
  execFileSync('pdftoppm', ['-png', '-r', '150', '-f', '1', '-l', '1', '-singlefile', join(dir, 'page.pdf'), join(dir, 'scan')]);
  office(['--convert-to', 'pdf', '--outdir', dir, join(dir, 'scan.png')]);
  const name = `${unique('scan-')}.pdf`;
  writeFileSync(join(dir, name), readFileSync(join(dir, 'scan.pdf')));

  await signIn(page);
  await page.goto(`${baseUrl()}/transFile`);
  await page.getByTestId('open-upload').click();
  await page.getByTestId('file-input').setInputFiles(join(dir, name));
  await page.getByTestId('source-language').selectOption('en');
  await page.getByTestId('target-language').selectOption('es');
  await page.getByTestId('start-upload').click();
  const row = page.getByRole('row', { name: new RegExp(name.replace(/[.]/g, '\\.')) });
  await expect(row.locator('[data-testid^="file-status-"]')).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  await expect(row.locator('[data-testid^="ocr-"]').first()).toHaveText('OCR');

  await row.locator('[data-testid^="ocr-view-"]').click();
  await expect(page).toHaveURL(/\/fileViewOCR\?id=\d+/);
  await expect(page.getByTestId('ocr-page')).toHaveText('Page 1 of 1');
  await expect(page.getByTestId('ocr-image-1')).toBeVisible();
  await expect(page.getByTestId('ocr-box-0')).toBeVisible();
  await expect(page.getByTestId('ocr-text-0')).toContainText('red car');
  await expect(page.getByTestId('ocr-target-0')).toContainText('coche');
  // The translation laid over the page, in the block's box.
  await page.getByText('Show the translation on the page').click();
  await expect(page.getByTestId('ocr-box-0')).toContainText('coche');
});
