import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '@linguaport/sdk/testing';
import { call, multipart, startDocKernel, userWith, type DocKernel } from './support.js';

// LibreTranslate clients translate files too: /api/lt/translate_file (multipart: file, source,
// target, api_key) answers {translatedFileUrl} once the file went through the document queue, and
// /api/lt/download_file/... serves it, as LibreTranslate does.

let d: DocKernel;
let key: string;
let readerKey: string;
let owner: { userId: number; token: string };

beforeAll(async () => {
  d = await startDocKernel();
  owner = await userWith(d.kernel, 'apiuser', ['transFile:use']);
  const reader = await userWith(d.kernel, 'noDocs', []);
  key = await issueApiKey(d.kernel, owner.userId);
  readerKey = await issueApiKey(d.kernel, reader.userId);
}, 60_000);
afterAll(() => d?.close());

async function translateFile(fields: Record<string, string>, file?: { name: string; content: string | Buffer }) {
  const body = multipart(fields, file ? [file] : [], 'file');
  const res = await d.kernel.app.inject({ method: 'POST', url: '/api/lt/translate_file', headers: { 'content-type': body.contentType, host: 'docs.example:8080', 'accept-language': 'en-US' }, payload: body.payload });
  return { status: res.statusCode, body: res.json() };
}

describe('LibreTranslate-compatible file translation', () => {
  it('translates a file sent as LibreTranslate clients send it and serves the result at the URL it answers', async () => {
    const settings = await call(d.kernel, 'GET', '/api/lt/frontend/settings', null);
    expect(settings.body).toMatchObject({ filesTranslation: true, supportedFilesFormat: ['.txt'] });

    const res = await translateFile({ source: 'en', target: 'es', api_key: key }, { name: 'letter.txt', content: 'Dear friend.\n\nSee you soon.\n' });
    expect(res.status).toBe(200);
    const url = new URL(res.body.translatedFileUrl);
    expect(url.origin).toBe('http://docs.example:8080');
    expect(url.pathname).toMatch(/^\/api\/lt\/download_file\/[0-9a-f-]{36}\.letter_es\.txt$/);
    const file = await call(d.kernel, 'GET', url.pathname, null);
    expect(file.status).toBe(200);
    expect(String(file.headers['content-disposition'])).toContain('letter_es.txt');
    expect(file.raw.toString('utf8')).toBe('[es] friend. Dear\n\n[es] soon. you See\n');
    // The same file is in its owner's document list, counted as any other.
    const list = await call(d.kernel, 'GET', '/api/transFile/list', owner.token);
    expect(list.body.data.records[0]).toMatchObject({ name: 'letter.txt', status: 'completed' });
    // An unknown or malformed download id is LibreTranslate's 404.
    expect((await call(d.kernel, 'GET', '/api/lt/download_file/00000000-0000-4000-8000-000000000000.x.txt', null)).status).toBe(404);
    expect((await call(d.kernel, 'GET', '/api/lt/download_file/nothing', null)).body).toEqual({ error: 'Invalid filename' });
  }, 60_000);

  it('answers LibreTranslate errors: no key, a key without the permission, a missing part, an empty or unsupported file', async () => {
    const txt = { name: 'a.txt', content: 'Hello.' };
    expect(await translateFile({ source: 'en', target: 'es' }, txt)).toEqual({ status: 403, body: { error: 'Please contact the server operator to get an API key' } });
    expect((await translateFile({ source: 'en', target: 'es', api_key: 'lp_wrong' }, txt)).body).toEqual({ error: 'Invalid API key' });
    const refused = await translateFile({ source: 'en', target: 'es', api_key: readerKey }, txt);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toContain('transFile:use');
    expect((await translateFile({ source: 'en', target: 'es', api_key: key })).body).toEqual({ error: 'Invalid request: missing file parameter' });
    expect((await translateFile({ target: 'es', api_key: key }, txt)).body).toEqual({ error: 'Invalid request: missing source parameter' });
    const empty = await translateFile({ source: 'en', target: 'es', api_key: key }, { name: 'e.txt', content: '' });
    expect(empty).toEqual({ status: 400, body: { error: 'e.txt: cannot upload an empty file' } });
    const exe = await translateFile({ source: 'en', target: 'es', api_key: key }, { name: 'run.exe', content: Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]) });
    expect(exe.status).toBe(400);
    expect(exe.body.error).toContain('run.exe: not a supported format');
  });

  it('detects the source language of a file sent with source auto', async () => {
    const res = await translateFile({ source: 'auto', target: 'es', api_key: key }, { name: 'auto.txt', content: 'The weather is very nice today and we are going to the beach with our friends.\n' });
    expect(res.status).toBe(200);
    const file = await call(d.kernel, 'GET', new URL(res.body.translatedFileUrl).pathname, null);
    expect(file.raw.toString('utf8')).toMatch(/^\[es\] friends\. our with/);
  }, 60_000);
});
