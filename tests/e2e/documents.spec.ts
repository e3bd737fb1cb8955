import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { FLAT_SHEET, FLAT_SLIDES, FLAT_TEXT } from '../../plugins/formats-office/test/server/samples.js';
import { Api, unique } from './support/api.js';
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
  const paragraphs = Array.from({ length: 40 }, (_, i) => (i === 0 ? 'The red car is fast. The house number 0 has a big garden.' : `The house number ${i} has a big garden.`));
  writeFileSync(join(dir, name), `${paragraphs.join('\n\n')}\n`);
  writeFileSync(join(dir, 'empty.txt'), '');
  // A memory that knows the first sentence of the first paragraph (by sentence, not the whole paragraph).
  const admin = await Api.signIn();
  const memory = unique('Cars memory ');
  await admin.call('POST', '/TM/library/add', { name: memory, ownership: 'department', kind: 'shared', users: [], isDefault: false });
  const memoryId = (await admin.call<{ records: { id: number; name: string }[] }>('GET', '/TM/library/list?pageNum=1&pageSize=200')).records.find((m) => m.name === memory)!.id;
  await admin.call('POST', '/TM/entry/add', { libraryId: memoryId, source: 'The red car is fast.', target: 'El coche rojo corre muchísimo.', sourceLang: 'en', targetLang: 'es' });

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
  await page.getByTestId('memories').getByText(memory).click();
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
  await expect(page.getByTestId('source-0')).toHaveText('The red car is fast. The house number 0 has a big garden.');
  await expect(page.getByTestId('target-0')).toContainText('coche');
  // Each sentence of the paragraph says where it came from: the memory's with its score, the other the engine's.
  await expect(page.getByTestId('sentence-0-0')).toHaveAttribute('data-origin', 'tm:100');
  await expect(page.getByTestId('sentence-0-0')).toContainText('El coche rojo corre muchísimo.');
  await expect(page.getByTestId('sentence-0-0')).toContainText('Memory 100%');
  await expect(page.getByTestId('sentence-0-1')).toHaveAttribute('data-origin', /^engine:/);
  await expect(page.getByTestId('sentence-0-1')).toContainText('jardín');
  await expect(page.getByTestId('sentence-0-1')).toContainText('Machine');
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
  expect(text.split('\n\n')[0]).toMatch(/^El coche rojo corre muchísimo\. .*jardín/);
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
  expect(part('word/document.xml')).toMatch(/<w:r><w:rPr><w:b\/>(<w:lang [^>]*\/>)?<\/w:rPr><w:t>[^<]*r[aá]pid[^<]*<\/w:t><\/w:r>/);
  expect(part('word/document.xml')).toContain('<w:footnoteReference w:id="1"/>');
  expect(part('word/document.xml')).toMatch(/casa/);
  expect(part('word/header1.xml')).toMatch(/jard[ií]n/);
  expect(part('word/footnotes.xml')).toMatch(/gato/);
  execFileSync('unzip', ['-tq', file]);
  // LibreOffice opens it and reads the body in Spanish.
  const opened = join(dir, 'opened.docx');
  execFileSync('cp', [file, opened]);
  execFileSync('soffice', ['--headless', '--norestore', '--convert-to', 'txt:Text (encoded):UTF8', 'opened.docx'], { cwd: dir, env: { ...process.env, HOME: dir }, timeout: 120_000, stdio: 'ignore' });
  const text = readFileSync(join(dir, 'opened.txt'), 'utf8');
  expect(text).toMatch(/coche/);
  expect(text).toMatch(/casa/);
});

test('an xlsx, a pptx, an srt and a text PDF, translated with a memory, open in LibreOffice translated; a renamed executable is refused', async ({ page }) => {
  test.setTimeout(240_000);
  const dir = mkdtempSync(join(tmpdir(), 'formats-e2e-'));
  const office = (args: string[]) => execFileSync('soffice', ['--headless', '--norestore', ...args], { cwd: dir, env: { ...process.env, HOME: dir }, timeout: 120_000, stdio: 'ignore' });
  const stem = unique('launch-');
  // The office files as LibreOffice writes them, from flat OpenDocument sources.
  writeFileSync(join(dir, `${stem}-prices.fods`), FLAT_SHEET);
  writeFileSync(join(dir, `${stem}-slides.fodp`), FLAT_SLIDES);
  writeFileSync(join(dir, `${stem}-report.fodt`), FLAT_TEXT);
  office(['--convert-to', 'xlsx:Calc MS Excel 2007 XML', `${stem}-prices.fods`]);
  office(['--convert-to', 'pptx:Impress MS PowerPoint 2007 XML', `${stem}-slides.fodp`]);
  office(['--convert-to', 'pdf', `${stem}-report.fodt`]);
  writeFileSync(join(dir, `${stem}-talk.srt`), '1\n00:00:01,000 --> 00:00:03,500\nThe black cat is sleeping.\n\n2\n00:00:04,000 --> 00:00:06,250\nThe big house has a garden.\n');
  writeFileSync(join(dir, 'setup.txt'), Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64)]));

  // A memory whose translation of the slide title is not the engine's.
  const admin = await Api.signIn();
  const memory = unique('Launch memory ');
  await admin.call('POST', '/TM/library/add', { name: memory, ownership: 'department', kind: 'shared', users: [], isDefault: false });
  const memoryId = (await admin.call<{ records: { id: number; name: string }[] }>('GET', '/TM/library/list?pageNum=1&pageSize=200')).records.find((m) => m.name === memory)!.id;
  const tmx = '<?xml version="1.0" encoding="UTF-8"?><tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en" creationtool="e2e" creationtoolversion="1" o-tmf="none"/><body><tu><tuv xml:lang="en"><seg>Welcome to the launch</seg></tuv><tuv xml:lang="es"><seg>Bienvenidos al gran estreno</seg></tuv></tu></body></tmx>';
  await admin.upload('/TM/import', { libraryId: String(memoryId), sourceLang: 'en', targetLang: 'es' }, [{ name: 'launch.tmx', content: Buffer.from(tmx), type: 'application/xml' }]);

  await signIn(page);
  await page.goto(`${baseUrl()}/transFile`);
  await page.getByTestId('open-upload').click();
  await page.getByTestId('source-language').selectOption('en');
  await page.getByTestId('target-language').selectOption('es');
  // A program renamed .txt passes the name check in the browser; the server reads its content and refuses it.
  await page.getByTestId('file-input').setInputFiles(join(dir, 'setup.txt'));
  await page.getByTestId('start-upload').click();
  await expect(page.getByTestId('upload-error')).toContainText('setup.txt: not a supported format');
  await page.getByTestId('chosen-files').getByRole('button', { name: 'Remove this file' }).click();

  const names = [`${stem}-prices.xlsx`, `${stem}-slides.pptx`, `${stem}-talk.srt`, `${stem}-report.pdf`];
  await page.getByTestId('file-input').setInputFiles(names.map((n) => join(dir, n)));
  await page.getByTestId('memories').getByText(memory).click();
  await page.getByTestId('start-upload').click();
  await expect(page.getByTestId('upload-dialog')).toBeHidden();
  await expect(page.getByText('setup.txt')).toHaveCount(0);

  const results: Record<string, string> = {};
  for (const name of names) {
    const row = page.getByRole('row', { name: new RegExp(name.replace(/[.]/g, '\\.')) });
    const status = row.locator('[data-testid^="file-status-"]');
    await expect(status).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
    const id = (await status.getAttribute('data-testid'))!.replace('file-status-', '');
    const downloading = page.waitForEvent('download');
    await page.getByTestId(`download-${id}`).click();
    const download = await downloading;
    results[name] = join(dir, `out-${download.suggestedFilename()}`);
    await download.saveAs(results[name]);
  }
  // A text PDF comes back as an editable document.
  expect(results[`${stem}-report.pdf`]).toMatch(/\.docx$/);

  // The subtitles keep their timings.
  const srt = readFileSync(results[`${stem}-talk.srt`], 'utf8');
  expect(srt).toContain('00:00:01,000 --> 00:00:03,500');
  expect(srt).toContain('00:00:04,000 --> 00:00:06,250');
  expect(srt).toMatch(/gato negro/);
  expect(srt).toMatch(/casa grande/);

  // LibreOffice opens every office result, and reads it in Spanish (the slide title from the memory).
  const check = join(dir, 'check');
  office(['--convert-to', 'csv', '--outdir', check, results[`${stem}-prices.xlsx`]]);
  office(['--convert-to', 'pdf', '--outdir', check, results[`${stem}-slides.pptx`], results[`${stem}-report.pdf`]]);
  const converted = (file: string, ext: string) => join(check, file.split('/').pop()!.replace(/\.[^.]+$/, ext));
  const read = (file: string) => execFileSync('pdftotext', ['-layout', converted(file, '.pdf'), '-']).toString('utf8');
  // The first sheet: the text translated, the number and the formula's value as they were.
  const sheet = readFileSync(converted(results[`${stem}-prices.xlsx`], '.csv'), 'utf8');
  expect(sheet.split('\n')[0]).toMatch(/^Manzanas verdes,12\.5,25$/);
  const slides = read(results[`${stem}-slides.pptx`]);
  expect(slides).toContain('Bienvenidos al gran estreno');
  expect(slides).toMatch(/producto/);
  const report = read(results[`${stem}-report.pdf`]);
  expect(report).toMatch(/informe anual/i);
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
