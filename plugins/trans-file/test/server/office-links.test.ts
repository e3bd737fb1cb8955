import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@linguaport/sdk/testing';
import { call, multipart, startDocKernel, upload, userWith, waitForFile, type DocKernel } from './support.js';

// Converting a user's HTML (to PDF, the PDF of a translated document, the rendered preview) makes
// LibreOffice request nothing and embed no local picture: a listener on loopback counts requests, and
// a magenta picture on disk, named by file://, must appear in no PDF and no page image.

let d: DocKernel;
let u: { userId: number; token: string };
let server: Server;
let base: string;
const requests: string[] = [];
let picture: string;
const MAGENTA = '#fa0ac8';

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const canvas = createCanvas(120, 80);
  const g = canvas.getContext('2d');
  g.fillStyle = MAGENTA;
  g.fillRect(0, 0, 120, 80);
  picture = join(mkdtempSync(join(tmpdir(), 'office-links-')), 'secret.png');
  writeFileSync(picture, await canvas.encode('png'));
  d = await startDocKernel({ plugins: ['formats-text'] });
  u = await userWith(d.kernel, 'olga', ['transFile:use', 'pdf:use']);
}, 60_000);
afterAll(async () => {
  await d?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const html = () => `<!DOCTYPE html><html><head><link rel="stylesheet" href="${base}/style.css"><style>@import url("${base}/import.css");</style></head>
<body><p>The first line.</p><p>The meeting starts at noon.</p>
<img src="${base}/remote.png" width="120" height="80"><img src="file://${picture}" width="120" height="80">
<p style="background:url(${base}/bg.png)">Bring your notes.</p></body></html>`;

function pictures(pdf: Buffer): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'office-links-pdf-'));
  writeFileSync(join(dir, 'out.pdf'), pdf);
  return execFileSync('pdfimages', ['-list', join(dir, 'out.pdf')]).toString('utf8').split('\n').slice(2).filter((l) => l.trim());
}

async function magentaPixels(png: Buffer): Promise<number> {
  const img = await loadImage(png);
  const c = createCanvas(img.width, img.height);
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  const data = g.getImageData(0, 0, img.width, img.height).data;
  let n = 0;
  for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i]! - 0xfa) < 12 && data[i + 1]! < 40 && Math.abs(data[i + 2]! - 0xc8) < 12) n++;
  return n;
}

describe('LibreOffice behind the document routes', () => {
  it('converts an uploaded HTML page to PDF without a request and without the local picture', async () => {
    const body = multipart({ direction: 'toPdf' }, [{ name: 'page.html', content: html() }]);
    const res = await d.kernel.app.inject({ method: 'POST', url: '/api/pdf/upload', headers: { jwt: u.token, 'content-type': body.contentType }, payload: body.payload });
    expect(res.statusCode).toBe(200);
    const id = res.json().data[0].id;
    const row = await until(async () => {
      const found: { status: string } | undefined = (await call(d.kernel, 'GET', '/api/pdf/list?pageSize=50', u.token)).body.data.records.find((r: { id: number }) => r.id === id);
      return found && found.status !== 'converting' && found;
    }, { timeout: 240_000, interval: 200, what: `conversion ${id} to finish` });
    expect(row.status).toBe('converted');
    const pdf = (await call(d.kernel, 'GET', `/api/pdf/download/${id}`, u.token)).raw;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pictures(pdf)).toEqual([]);
    expect(requests).toEqual([]);
  }, 300_000);

  it('makes the PDF of a translated HTML page and its rendered preview without a request and without the local picture', async () => {
    const res = await upload(d.kernel, u.token, { sourceLang: 'en', targetLang: 'es', withPdf: 'true' }, [{ name: 'page.html', content: html() }]);
    expect(res.status).toBe(200);
    const id = res.body.data[0].id;
    const done = await waitForFile(d.kernel, u.token, id, (f) => f.status === 'completed', 240_000);
    expect(done.pdfStatus).toBe('converted');
    const pdf = (await call(d.kernel, 'GET', `/api/transFile/download/${id}?kind=pdf`, u.token)).raw;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pictures(pdf)).toEqual([]);

    expect((await call(d.kernel, 'POST', `/api/transFile/preview/${id}`, u.token)).status).toBe(200);
    await expect.poll(async () => (await call(d.kernel, 'GET', `/api/transFile/preview/${id}`, u.token)).body.data.status, { timeout: 240_000, interval: 250 }).toBe('prepared');
    const state = (await call(d.kernel, 'GET', `/api/transFile/preview/${id}`, u.token)).body.data;
    expect(state.sourcePages).toBeGreaterThan(0);
    for (const side of ['source', 'target'] as const) {
      for (let page = 1; page <= state[`${side}Pages`]; page++) {
        const png = await call(d.kernel, 'GET', `/api/transFile/preview/${id}/${side}/${page}`, u.token);
        expect(png.status).toBe(200);
        expect(await magentaPixels(png.raw), `${side} page ${page}`).toBe(0);
      }
    }
    expect(requests).toEqual([]);
  }, 600_000);
});
