import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@linguaport/sdk/testing';
import { call, multipart, startDocKernel, userWith, type DocKernel } from './support.js';

// /pdf: a PDF becomes an editable docx and a document becomes a PDF, through headless LibreOffice,
// with the pdfConversion states; inputs are judged by their content.

let d: DocKernel;
let u: { userId: number; token: string };
let other: { userId: number; token: string };

beforeAll(async () => {
  d = await startDocKernel();
  u = await userWith(d.kernel, 'pdfuser', ['pdf:use']);
  other = await userWith(d.kernel, 'pdfother', ['pdf:use']);
}, 60_000);
afterAll(() => d?.close());

async function send(token: string, direction: string, files: Array<{ name: string; content: string | Buffer }>) {
  const body = multipart({ direction }, files);
  const res = await d.kernel.app.inject({ method: 'POST', url: '/api/pdf/upload', headers: { jwt: token, 'content-type': body.contentType, 'accept-language': 'en-US' }, payload: body.payload });
  return res.json();
}

function finished(token: string, id: number) {
  return until(async () => {
    const row = (await call(d.kernel, 'GET', '/api/pdf/list?pageSize=50', token)).body.data.records.find((r: { id: number }) => r.id === id);
    return row && row.status !== 'converting' && row;
  }, { timeout: 90_000, interval: 200, what: `conversion ${id} to finish` });
}

describe('PDF conversion', () => {
  it('turns a text document into a PDF and that PDF into an editable docx holding its words', async () => {
    const res = await send(u.token, 'toPdf', [{ name: 'minutes.txt', content: 'Minutes of the meeting.\n\nThe budget was approved.\n' }]);
    expect(res.code).toBe(200);
    expect(res.data[0]).toMatchObject({ name: 'minutes.txt', direction: 'toPdf', status: 'converting' });
    const done = await finished(u.token, res.data[0].id);
    expect(done).toMatchObject({ status: 'converted', resultName: 'minutes.pdf' });
    const pdf = await call(d.kernel, 'GET', `/api/pdf/download/${done.id}`, u.token);
    expect(pdf.raw.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await call(d.kernel, 'GET', `/api/pdf/download/${done.id}`, other.token)).status).toBe(404);

    const back = await send(u.token, 'pdfToDocx', [{ name: 'minutes.pdf', content: pdf.raw }]);
    const docx = await finished(u.token, back.data[0].id);
    expect(docx).toMatchObject({ status: 'converted', resultName: 'minutes.docx' });
    const bytes = (await call(d.kernel, 'GET', `/api/pdf/download/${docx.id}`, u.token)).raw;
    const dir = mkdtempSync(join(tmpdir(), 'pdf-test-'));
    writeFileSync(join(dir, 'out.docx'), bytes);
    const xml = execFileSync('unzip', ['-p', join(dir, 'out.docx'), 'word/document.xml']).toString('utf8');
    expect(xml).toContain('budget');
    expect(xml).toContain('approved');
    // LibreOffice opens it again without complaint.
    execFileSync('soffice', ['--headless', '--convert-to', 'txt', '--outdir', dir, join(dir, 'out.docx')], { env: { ...process.env, HOME: dir }, timeout: 120_000 });
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toContain('Minutes of the meeting');
  }, 180_000);

  it('refuses a renamed file, a wrong direction and an empty file, storing nothing', async () => {
    const before = (await call(d.kernel, 'GET', '/api/pdf/list', u.token)).body.data.total;
    const fake = await send(u.token, 'pdfToDocx', [{ name: 'scan.pdf', content: 'not a pdf at all' }]);
    expect(fake.code).toBe(400);
    expect(fake.msg).toContain('scan.pdf: not a supported format');
    expect((await send(u.token, 'toPdf', [{ name: 'x.docx', content: 'plain text pretending' }])).code).toBe(400);
    expect((await send(u.token, 'toPdf', [{ name: 'doc.pdf', content: '%PDF-1.4\n' }])).code).toBe(400);
    expect((await send(u.token, 'toPdf', [{ name: 'e.txt', content: '' }])).msg).toBe('e.txt: cannot upload an empty file');
    expect((await call(d.kernel, 'GET', '/api/pdf/list', u.token)).body.data.total).toBe(before);
  });

  it('marks a conversion LibreOffice cannot make as failed, converts it again on request, and deletes it', async () => {
    // Starts like a PDF, is none: accepted by its header, refused by LibreOffice.
    const res = await send(u.token, 'pdfToDocx', [{ name: 'broken.pdf', content: '%PDF-1.7\nthis is not really a pdf\n%%EOF' }]);
    const failed = await finished(u.token, res.data[0].id);
    expect(failed.status).toBe('conversionFailed');
    expect(failed.error).toBeTruthy();
    expect((await call(d.kernel, 'GET', `/api/pdf/download/${failed.id}`, u.token)).status).toBe(409);
    const again = await call(d.kernel, 'POST', `/api/pdf/retry/${failed.id}`, u.token);
    expect(again.body.data.status).toBe('converting');
    expect((await finished(u.token, failed.id)).status).toBe('conversionFailed');
    expect((await call(d.kernel, 'DELETE', `/api/pdf/delete?ids=${failed.id}`, other.token)).status).toBe(404);
    expect((await call(d.kernel, 'DELETE', `/api/pdf/delete?ids=${failed.id}`, u.token)).body.data).toEqual({ deleted: 1 });
  }, 180_000);
});
