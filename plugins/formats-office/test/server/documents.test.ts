import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip } from '@linguaport/sdk/interchange';
import { ADMIN_PASSWORD, startLibrePeer, startTestKernel, useOnlyLibreEngine, type LibrePeer, type TestKernel } from '@linguaport/sdk/testing';
import { DOCX_PARTS, zipOf } from './samples.js';

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
    const deadline = Date.now() + 60_000;
    let file: { status: string } = { status: '' };
    while (Date.now() < deadline) {
      file = (await kernel.app.inject({ method: 'GET', url: `/api/transFile/get/${id}`, headers: { jwt: token } })).json().data;
      if (file.status === 'completed' || file.status === 'translateFail' || file.status === 'parseFail') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(file.status, JSON.stringify(file)).toBe('completed');
    const res = await kernel.app.inject({ method: 'GET', url: `/api/transFile/download/${id}?kind=result`, headers: { jwt: token } });
    expect(res.statusCode).toBe(200);
    const parts = Object.fromEntries(readZip(res.rawPayload, { maxEntries: 100, maxBytes: 1e8 }).map((e) => [e.name, e.data.toString('utf8')]));
    // The peer answers "[es] " and the words reversed.
    expect(parts['word/header1.xml']).toContain('[es] confidential Company');
    expect(parts['word/footer1.xml']).toContain('[es] Spain in Printed');
    expect(parts['word/footnotes.xml']).toContain('[es] foot. the at note A');
    expect(parts['word/comments.xml']).toContain('[es] figure this Check');
    expect(parts['word/charts/chart1.xml']).toContain('<c:v>[es] North</c:v>');
    expect(parts['docProps/core.xml']).toContain('<dc:title>[es] figures Quarterly</dc:title>');
    const doc = parts['word/document.xml']!;
    expect(doc).toContain('[es] one Cell');
    expect(doc).toMatch(/<w:r><w:rPr><w:b\/><\/w:rPr><w:t>bold<\/w:t><\/w:r>/);
    expect(doc).toContain('<w:footnoteReference w:id="1"/>');
    expect(doc).toContain('r:id="rId9"');
  }, 90_000);
});
