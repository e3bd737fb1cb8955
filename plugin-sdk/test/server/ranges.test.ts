import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileReply, parseRange } from '../../src/server/ranges.js';
import { seededRandom } from '../../src/testing/formats.js';

const dir = mkdtempSync(join(tmpdir(), 'ranges-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function bytesOf(body: unknown): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

describe('parseRange', () => {
  it('reads first-last, open-ended and suffix ranges, clamped to the file', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=990-2000', 1000)).toEqual({ start: 990, end: 999 });
    expect(parseRange('bytes=500-', 1000)).toEqual({ start: 500, end: 999 });
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
    expect(parseRange('BYTES = 7 - 7', 1000)).toEqual({ start: 7, end: 7 });
  });

  it('answers unsatisfiable past the end, for an empty suffix and for an empty file', () => {
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=1000-1005', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
  });

  it('sends the whole file for no range, another unit, several ranges or nonsense', () => {
    for (const header of [undefined, '', 'items=0-1', 'bytes=0-1,5-6', 'bytes=5-2', 'bytes=-', 'bytes=a-b', 'bytes=99999999999999999999-']) {
      expect(parseRange(header, 1000), String(header)).toBeNull();
    }
  });
});

describe('fileReply', () => {
  const random = seededRandom(14);
  const content = Buffer.from(Array.from({ length: 5000 }, () => Math.floor(random() * 256)));
  const path = join(dir, 'media.bin');
  writeFileSync(path, content);
  const request = (headers: Record<string, string> = {}, method = 'GET') => ({ headers, raw: { method } });

  it('answers 200 with the whole file and says it takes ranges', async () => {
    const reply = await fileReply(request(), path, { contentType: 'video/mp4', headers: { 'content-disposition': 'attachment' } });
    expect(reply.status).toBe(200);
    expect(reply.headers).toMatchObject({ 'accept-ranges': 'bytes', 'content-length': '5000', 'content-disposition': 'attachment' });
    expect(reply.headers!['content-range']).toBeUndefined();
    expect((await bytesOf(reply.body)).equals(content)).toBe(true);
  });

  it('answers 206 with exactly the asked bytes for a hundred random ranges', async () => {
    for (let i = 0; i < 100; i++) {
      const a = Math.floor(random() * 5000);
      const b = a + Math.floor(random() * 800);
      const kind = i % 3;
      const header = kind === 0 ? `bytes=${a}-${b}` : kind === 1 ? `bytes=${a}-` : `bytes=-${b - a + 1}`;
      const start = kind === 2 ? Math.max(0, 5000 - (b - a + 1)) : a;
      const end = kind === 1 || kind === 2 ? 4999 : Math.min(b, 4999);
      const reply = await fileReply(request({ range: header }), path, { contentType: 'video/mp4' });
      expect(reply.status, header).toBe(206);
      expect(reply.headers).toMatchObject({ 'content-range': `bytes ${start}-${end}/5000`, 'content-length': String(end - start + 1) });
      expect((await bytesOf(reply.body)).equals(content.subarray(start, end + 1)), header).toBe(true);
    }
  });

  it('answers 416 with the size for a range past the end, in the request\'s language', async () => {
    const en = await fileReply(request({ range: 'bytes=5000-', cookie: 'locale=en-US' }), path, { contentType: 'video/mp4' });
    expect(en.status).toBe(416);
    expect(en.headers!['content-range']).toBe('bytes */5000');
    expect(JSON.parse(String(en.body))).toMatchObject({ code: 416, msg: 'The requested byte range is outside the file (5000 bytes)' });
    const zh = await fileReply(request({ range: 'bytes=-0', cookie: 'locale=zh-CN' }), path, { contentType: 'video/mp4' });
    expect(JSON.parse(String(zh.body)).msg).toBe('请求的字节范围超出文件大小（5000 字节）');
  });

  it('sends the whole file when If-Range names another version', async () => {
    const first = await fileReply(request(), path, { contentType: 'video/mp4' });
    const same = await fileReply(request({ range: 'bytes=0-9', 'if-range': first.headers!.etag! }), path, { contentType: 'video/mp4' });
    expect(same.status).toBe(206);
    const stale = await fileReply(request({ range: 'bytes=0-9', 'if-range': '"old"' }), path, { contentType: 'video/mp4' });
    expect(stale.status).toBe(200);
    expect(stale.headers!['content-length']).toBe('5000');
    // Read every body: a stream left unread opens its file later, perhaps after the folder is gone.
    expect((await bytesOf(first.body)).equals(content)).toBe(true);
    expect((await bytesOf(same.body)).equals(content.subarray(0, 10))).toBe(true);
    expect((await bytesOf(stale.body)).equals(content)).toBe(true);
  });

  it('answers HEAD with the headers and reads nothing', async () => {
    const reply = await fileReply(request({ range: 'bytes=10-19' }, 'HEAD'), path, { contentType: 'video/mp4' });
    expect(reply.status).toBe(206);
    expect(reply.headers).toMatchObject({ 'content-length': '10', 'content-range': 'bytes 10-19/5000' });
    expect((await bytesOf(reply.body)).length).toBe(0);
  });
});
