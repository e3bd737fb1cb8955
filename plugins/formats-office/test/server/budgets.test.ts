import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, DOCX_FRAME, docxOfRepeats, startLibrePeer, startTestKernel, until, useOnlyLibreEngine, zipOfRepeats, type LibrePeer, type TestKernel } from '@linguaport/sdk/testing';
import { DOCX_PARTS, zipOf } from './samples.js';

// Office files made to exhaust the server (issue 21 item 5): a 1 MB docx holding 300 MB of paragraphs,
// a part whose header lies about its size, a part of too many nodes, and a document within the byte and
// node budgets that still needs more memory than the parsing worker's heap. Each fails its own file with
// its reason; the server keeps answering, and a normal docx uploaded beside them is translated.

let kernel: TestKernel;
let peer: LibrePeer;
let token: string;
const MB = 1024 * 1024;
const PARAGRAPH = '<w:p><w:r><w:t>Hello there</w:t></w:r></w:p>';

beforeAll(async () => {
  peer = await startLibrePeer();
  kernel = await startTestKernel({
    plugins: ['service', 'engine-libretranslate', 'formats-office', 'trans-file'],
    // The default byte budgets (64 MB a part, 128 MB a document); fewer nodes and a small heap, so the test stays light.
    prepare: (config) => {
      mkdirSync(join(config.dataDir, 'config'), { recursive: true });
      writeFileSync(join(config.dataDir, 'config', 'formats-office.json'), JSON.stringify({ documentBudgets: { maxPartNodes: 100_000, maxDocumentNodes: 150_000, maxHeapMb: 128 } }));
    },
  });
  token = await kernel.login('admin', ADMIN_PASSWORD);
  await useOnlyLibreEngine(kernel, token, peer.url, { source: 'en', target: 'es' });
}, 120_000);
afterAll(async () => {
  await kernel?.shutdown();
  await peer?.close();
});

function multipart(name: string, content: Buffer) {
  const boundary = `----budget${Date.now()}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries({ sourceLang: 'en', targetLang: 'es' })) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), content, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, jwt: token, 'accept-language': 'en-US' } };
}

async function upload(name: string, content: Buffer): Promise<number> {
  const up = await kernel.app.inject({ method: 'POST', url: '/api/transFile/upload', ...multipart(name, content) });
  expect(up.statusCode, up.body).toBe(200);
  return up.json().data[0].id as number;
}

async function settled(id: number): Promise<{ status: string; error: string | null }> {
  return until(async () => {
    const file = (await kernel.app.inject({ method: 'GET', url: `/api/transFile/get/${id}`, headers: { jwt: token } })).json().data;
    return ['completed', 'parseFailed', 'failed'].includes(file?.status) && file;
  }, { timeout: 90_000, interval: 100, what: `file ${id} to settle` });
}

async function healthy(): Promise<void> {
  const res = await kernel.app.inject({ method: 'GET', url: '/api/health' });
  expect(res.statusCode).toBe(200);
}

describe('office files within budgets', () => {
  it('refuses a 1 MB docx of 300 MB of paragraphs with its reason, and the server keeps answering', async () => {
    const bomb = await docxOfRepeats(PARAGRAPH, Math.ceil((300 * MB) / PARAGRAPH.length));
    expect(bomb.length).toBeLessThan(2 * MB);
    const file = await settled(await upload('bomb.docx', bomb));
    expect(file.status).toBe('parseFailed');
    expect(file.error).toMatch(/word\/document\.xml unpacks to more than 64 MB/);
    await healthy();
  });

  it('stops a part whose declared size lies while it is inflated', async () => {
    const liar = await docxOfRepeats(PARAGRAPH, Math.ceil((300 * MB) / PARAGRAPH.length), 2000);
    const file = await settled(await upload('liar.docx', liar));
    expect(file.status).toBe('parseFailed');
    expect(file.error).toMatch(/word\/document\.xml unpacks to more than its declared 2000 bytes/);
    await healthy();
  });

  it('refuses a part of too many nodes', async () => {
    const file = await settled(await upload('nodes.docx', await docxOfRepeats('<w:p/>', 120_000)));
    expect(file.status).toBe('parseFailed');
    expect(file.error).toMatch(/word\/document\.xml holds more than 100000 nodes/);
  });

  it('a document that exhausts the parsing worker fails alone: the server answers meanwhile and a normal docx beside it is translated', async () => {
    // Within the byte and node budgets (two parts of 60 MB, 10,000 paragraphs each) but far over a 128 MB heap.
    const long = `<w:p><w:r><w:t>${'Words of a long paragraph. '.repeat(230)}</w:t></w:r></w:p>`;
    const part = (name: string) => ({ name, head: DOCX_FRAME.head, repeat: long, times: 10_000, tail: DOCX_FRAME.tail });
    const heavy = await zipOfRepeats([{ name: '[Content_Types].xml', head: DOCX_FRAME.contentTypes }, { name: '_rels/.rels', head: DOCX_FRAME.rels }, part('word/document.xml'), part('word/header1.xml')]);
    const heavyUpload = upload('heavy.docx', heavy);
    const normalUpload = upload('normal.docx', zipOf(DOCX_PARTS));
    // The parsing happens off the main thread: health answers while the worker is busy.
    const started = Date.now();
    await healthy();
    expect(Date.now() - started).toBeLessThan(2000);
    const [heavyFile, normalFile] = await Promise.all([heavyUpload.then(settled), normalUpload.then(settled)]);
    expect(heavyFile.status).toBe('parseFailed');
    expect(heavyFile.error).toMatch(/needs more than 128 MB of memory/);
    expect(normalFile.status, JSON.stringify(normalFile)).toBe('completed');
    await healthy();
  });
});
