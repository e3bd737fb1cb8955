import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip } from '@linguaport/sdk/interchange';
import { ADMIN_PASSWORD, madeByLibreOffice, startLibrePeer, startTestKernel, until, useOnlyLibreEngine, type LibrePeer, type TestKernel } from '@linguaport/sdk/testing';
import { DOCX_PARTS, FLAT_SHEET, FLAT_SLIDES, zipOf } from './samples.js';

// The office formats in the document area: a docx with a header, a footer, a footnote, a table, a
// bold word and a chart goes through /transFile (the real queue and pipeline, a LibreTranslate-
// compatible peer on loopback as the engine) and comes back with every part translated and the bold
// word still bold; the area lists the office formats among those it takes.

let kernel: TestKernel;
let peer: LibrePeer;
let token: string;

beforeAll(async () => {
  peer = await startLibrePeer();
  kernel = await startTestKernel({ plugins: ['service', 'engine-libretranslate', 'formats-office', 'formats-text', 'trans-file'] });
  token = await kernel.login('admin', ADMIN_PASSWORD);
  await useOnlyLibreEngine(kernel, token, peer.url, { source: 'en', target: 'es' });
}, 120_000);
afterAll(async () => {
  await kernel?.shutdown();
  await peer?.close();
});

/** An office file LibreOffice writes from a flat OpenDocument source (made once per machine). */
function officeFile(source: string, flat: string, filter: string): Buffer {
  return madeByLibreOffice({ name: source, content: flat }, filter);
}

/** The file's row once it is translated or failed. */
function settled(id: number): Promise<{ status: string }> {
  return until(async () => {
    const file = (await kernel.app.inject({ method: 'GET', url: `/api/transFile/get/${id}`, headers: { jwt: token } })).json().data;
    return ['completed', 'translateFail', 'parseFail', 'failed', 'parseFailed'].includes(file?.status) && file;
  }, { timeout: 60_000, interval: 100, what: `file ${id} to settle` });
}

/** Uploads a file to /transFile, waits for it and answers the translated file's bytes. */
async function translated(name: string, content: Buffer): Promise<Buffer> {
  const body = multipart({ sourceLang: 'en', targetLang: 'es' }, name, content);
  const up = await kernel.app.inject({ method: 'POST', url: '/api/transFile/upload', ...body });
  expect(up.statusCode, up.body).toBe(200);
  const id = up.json().data[0].id as number;
  const file = await settled(id);
  expect(file.status, JSON.stringify(file)).toBe('completed');
  const res = await kernel.app.inject({ method: 'GET', url: `/api/transFile/download/${id}?kind=result`, headers: { jwt: token } });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

const partsOf = (zip: Buffer) => Object.fromEntries(readZip(zip, { maxEntries: 1000, maxBytes: 1e8 }).map((e) => [e.name, e.data.toString('utf8')]));

function multipart(fields: Record<string, string>, name: string, content: Buffer) {
  const boundary = `----office${Date.now()}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), content, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, jwt: token, 'accept-language': 'en-US' } };
}

describe('office documents in the document area', () => {
  it('lists the office formats among those it takes', async () => {
    const res = await kernel.app.inject({ method: 'GET', url: '/api/transFile/setup', headers: { jwt: token } });
    const extensions = (res.json().data.formats as Array<{ extensions: string[] }>).flatMap((f) => f.extensions);
    for (const ext of ['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'doc', 'xls', 'ppt', 'rtf', 'txt', 'srt', 'vtt', 'po', 'json', 'md', 'html', 'xlf']) expect(extensions).toContain(ext);
  });

  it('translates every part of a docx and keeps its formatting', async () => {
    const body = multipart({ sourceLang: 'en', targetLang: 'es' }, 'report.docx', zipOf(DOCX_PARTS));
    const up = await kernel.app.inject({ method: 'POST', url: '/api/transFile/upload', ...body });
    expect(up.statusCode, up.body).toBe(200);
    const id = up.json().data[0].id as number;
    const file = await settled(id);
    expect(file.status, JSON.stringify(file)).toBe('completed');
    const res = await kernel.app.inject({ method: 'GET', url: `/api/transFile/download/${id}?kind=result`, headers: { jwt: token } });
    expect(res.statusCode).toBe(200);
    const parts = partsOf(res.rawPayload);
    // The peer answers "[es] " and the words reversed.
    expect(parts['word/header1.xml']).toContain('[es] confidential Company');
    expect(parts['word/footer1.xml']).toContain('[es] Spain in Printed');
    expect(parts['word/footnotes.xml']).toContain('[es] foot. the at note A');
    expect(parts['word/comments.xml']).toContain('[es] figure this Check');
    expect(parts['word/charts/chart1.xml']).toContain('<c:v>[es] North</c:v>');
    expect(parts['docProps/core.xml']).toContain('<dc:title>[es] figures Quarterly</dc:title>');
    const doc = parts['word/document.xml']!;
    expect(doc).toContain('[es] one Cell');
    // Translated runs say the target language (issue 23 item 4), as do the document's properties.
    expect(doc).toMatch(/<w:r><w:rPr><w:b\/><w:lang w:val="es-ES"\/><\/w:rPr><w:t>bold<\/w:t><\/w:r>/);
    expect(parts['docProps/core.xml']).toContain('<dc:language>es-ES</dc:language>');
    expect(doc).toContain('<w:footnoteReference w:id="1"/>');
    expect(doc).toContain('r:id="rId9"');
  }, 90_000);

  it('translates the cells and sheet names of an xlsx, leaving numbers and formulas alone', async () => {
    const parts = partsOf(await translated('prices.xlsx', officeFile('sheet.fods', FLAT_SHEET, 'xlsx:Calc MS Excel 2007 XML')));
    expect(parts['xl/sharedStrings.xml']).toContain('[es] apples Green');
    // Sheet names may not hold brackets: the translation's are spaces there.
    expect(parts['xl/workbook.xml']).toContain('name="es  Prices"');
    expect(parts['xl/worksheets/sheet1.xml']).toContain('<v>12.5</v>');
    expect(parts['xl/worksheets/sheet1.xml']).toMatch(/<f[^>]*>[^<]*B1\*2<\/f>/);
  }, 120_000);

  it('translates the slides and notes of a pptx', async () => {
    const parts = partsOf(await translated('launch.pptx', officeFile('slides.fodp', FLAT_SLIDES, 'pptx:Impress MS PowerPoint 2007 XML')));
    expect(parts['ppt/slides/slide1.xml']).toContain('[es] launch the to Welcome');
    expect(Object.entries(parts).some(([name, xml]) => name.startsWith('ppt/notesSlides/') && xml.includes('[es] here. slowly Speak'))).toBe(true);
  }, 120_000);

  it('translates an srt keeping its timings', async () => {
    const srt = '1\r\n00:00:01,000 --> 00:00:03,500\r\nThe red car\r\n\r\n2\r\n00:00:04,000 --> 00:00:06,000\r\nis very fast.\r\n';
    const out = (await translated('clip.srt', Buffer.from(srt))).toString('utf8');
    expect(out).toBe('1\r\n00:00:01,000 --> 00:00:03,500\r\n[es] car red The\r\n\r\n2\r\n00:00:04,000 --> 00:00:06,000\r\n[es] fast. very is\r\n');
  }, 60_000);
});
