import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip } from '@linguaport/sdk/interchange';
import { ADMIN_PASSWORD, startLibrePeer, startTestKernel, until, useOnlyLibreEngine, type LibrePeer, type TestKernel } from '@linguaport/sdk/testing';
import { HEADING, makeFixtures, makeTableFixture, TABLE } from './samples.js';

// PDFs in the document area: a text PDF and a scanned one go through /transFile (the real queue and
// pipeline; a LibreTranslate-compatible peer on loopback as the engine) and come back as editable
// docx files; the scanned one is marked OCR in the list, and /fileViewOCR's routes give its recognised
// blocks with their boxes and page sizes, and the page as an image.

const dir = mkdtempSync(join(tmpdir(), 'pdf-docs-'));
let kernel: TestKernel;
let peer: LibrePeer;
let token: string;
let fixtures: ReturnType<typeof makeFixtures>;

beforeAll(async () => {
  fixtures = makeFixtures(dir);
  peer = await startLibrePeer();
  kernel = await startTestKernel({ plugins: ['service', 'engine-libretranslate', 'formats-pdf', 'trans-file'] });
  token = await kernel.login('admin', ADMIN_PASSWORD);
  await useOnlyLibreEngine(kernel, token, peer.url, { source: 'en', target: 'es' });
}, 300_000);
afterAll(async () => {
  await kernel?.shutdown();
  await peer?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function translate(name: string, content: Buffer): Promise<{ id: number; file: any }> {
  const boundary = `----pdf${Date.now()}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="sourceLang"\r\n\r\nen\r\n--${boundary}\r\nContent-Disposition: form-data; name="targetLang"\r\n\r\nes\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const up = await kernel.app.inject({ method: 'POST', url: '/api/transFile/upload', headers: { jwt: token, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
  expect(up.statusCode, up.body).toBe(200);
  const id = up.json().data[0].id as number;
  const file = await until(async () => {
    const row = (await kernel.app.inject({ method: 'GET', url: `/api/transFile/get/${id}`, headers: { jwt: token } })).json().data;
    return ['completed', 'failed', 'parseFailed', 'unknown'].includes(row?.status) && row;
  }, { timeout: 120_000, interval: 100, what: `file ${id} to settle` });
  expect(file.status, JSON.stringify(file)).toBe('completed');
  return { id, file };
}

const bodyOf = (docx: Buffer) => readZip(docx, { maxEntries: 50, maxBytes: 1e8 }).find((e) => e.name === 'word/document.xml')!.data.toString('utf8');

describe('PDFs in the document area', () => {
  it('translates a text PDF into an editable docx', async () => {
    const { id, file } = await translate('report.pdf', fixtures.text);
    expect(file.ocr).toBe(false);
    expect(file.resultName).toBe('report_es.pdf.docx');
    // The same file uploaded again: a result name of its own.
    const again = await translate('report.pdf', fixtures.text);
    expect(again.file.resultName).toBe('report_es (2).pdf.docx');
    const res = await kernel.app.inject({ method: 'GET', url: `/api/transFile/download/${id}?kind=result`, headers: { jwt: token } });
    expect(res.statusCode).toBe(200);
    // The peer answers "[es] " and the words reversed.
    expect(bodyOf(res.rawPayload)).toContain(`[es] ${HEADING.split(' ').reverse().join(' ')}`);
  }, 180_000);

  it('gives a PDF table back as a Word table and its footnote mark as a superscript, through the queue and the engine', async () => {
    const { id, file } = await translate('harvest.pdf', makeTableFixture(dir));
    expect(file.resultName).toBe('harvest_es.pdf.docx');
    const xml = bodyOf((await kernel.app.inject({ method: 'GET', url: `/api/transFile/download/${id}?kind=result`, headers: { jwt: token } })).rawPayload);
    const table = /<w:tbl>(.*?)<\/w:tbl>/.exec(xml)?.[1] ?? '';
    const rows = [...table.matchAll(/<w:tr>(.*?)<\/w:tr>/g)].map((r) => [...r[1]!.matchAll(/<w:tc>(.*?)<\/w:tc>/g)].map((c) => [...c[1]!.matchAll(/<w:t xml:space="preserve">([^<]*)<\/w:t>/g)].map((m) => m[1]).join('')));
    expect(rows).toEqual(TABLE.map((row) => row.map((c) => `[es] ${c.split(' ').reverse().join(' ')}`)));
    expect(xml).toMatch(/<w:vertAlign w:val="superscript"\/><\/w:rPr><w:t xml:space="preserve">1<\/w:t>/);
    // The engine was sent the mark as a placeholder, never as a digit glued to its word.
    const units = (await kernel.app.inject({ method: 'GET', url: `/api/transFile/units/${id}?pageNum=1&pageSize=50`, headers: { jwt: token } })).json();
    expect(JSON.stringify(units)).toContain("region<1/> and");
    expect(JSON.stringify(units)).not.toMatch(/region ?1/);
  }, 180_000);

  it('marks a scanned PDF as OCR and shows its recognised blocks over the page', async () => {
    const { id, file } = await translate('scan.pdf', fixtures.scanned);
    expect(file.ocr).toBe(true);
    const view = (await kernel.app.inject({ method: 'GET', url: `/api/transFile/ocr/${id}`, headers: { jwt: token } })).json().data;
    expect(view.ocr).toBe(true);
    const page = view.pages[0];
    expect(page.number).toBe(1);
    expect(page.width).toBeGreaterThan(500);
    expect(page.height).toBeGreaterThan(700);
    const heading = page.blocks.find((b: any) => /annual/i.test(b.source));
    expect(heading, JSON.stringify(page.blocks.map((b: any) => b.source))).toBeTruthy();
    expect(heading.ocr).toBe(true);
    expect(heading.target).toMatch(/^\[es\] /);
    for (const b of page.blocks) {
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.w).toBeLessThanOrEqual(page.width + 1);
      expect(b.y + b.h).toBeLessThanOrEqual(page.height + 1);
    }
    const image = await kernel.app.inject({ method: 'GET', url: `/api/transFile/ocr/${id}/page/1`, headers: { jwt: token } });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const missing = await kernel.app.inject({ method: 'GET', url: `/api/transFile/ocr/${id}/page/9`, headers: { jwt: token } });
    expect(missing.json().code).toBe(2067);
  }, 180_000);
});
