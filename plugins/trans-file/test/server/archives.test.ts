import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until, zipOfRepeats } from '@linguaport/sdk/testing';
import { call, multipart, peerEs, startDocKernel, userWith, type DocKernel } from './support.js';

// /transFileDog: a zip archive (or a folder) translated in one go and downloaded as one archive with
// the same paths, untranslatable files copied unchanged; Debian's unzip reads what we write.

let d: DocKernel;
let u: { userId: number; token: string };
let other: { userId: number; token: string };
const dir = mkdtempSync(join(tmpdir(), 'dog-test-'));

beforeAll(async () => {
  d = await startDocKernel();
  u = await userWith(d.kernel, 'doguser', ['transFile:use', 'transFileDog:use']);
  other = await userWith(d.kernel, 'dogother', ['transFile:use', 'transFileDog:use']);
}, 60_000);
afterAll(() => d?.close());

async function send(token: string, fields: Record<string, string | string[]>, files: Array<{ name: string; content: string | Buffer }>, field: string) {
  const body = multipart(fields, files, field);
  const res = await d.kernel.app.inject({ method: 'POST', url: '/api/transFileDog/upload', headers: { jwt: token, 'content-type': body.contentType, 'accept-language': 'en-US' }, payload: body.payload });
  return res.json();
}

function finished(id: number) {
  return until(async () => {
    const job = (await call(d.kernel, 'GET', `/api/transFileDog/get/${id}`, u.token)).body.data;
    return (job.status === 'completed' || job.status === 'failed') && job;
  }, { timeout: 60_000, interval: 150, what: `archive ${id} to finish` });
}

/** A zip made by Debian's own zip tool, so our reader is checked against another implementation. */
function zipOf(files: Record<string, string | Buffer>): Buffer {
  const src = mkdtempSync(join(dir, 'src-'));
  for (const [name, content] of Object.entries(files)) {
    execFileSync('mkdir', ['-p', join(src, name, '..')]);
    writeFileSync(join(src, name), content);
  }
  execFileSync('zip', ['-qr', join(src, 'out.zip'), ...Object.keys(files)], { cwd: src });
  return readFileSync(join(src, 'out.zip'));
}

describe('archive translation', () => {
  it('translates every readable file of a zip and gives the folder back translated, other files unchanged', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const zip = zipOf({ 'docs/intro.txt': 'Welcome to the guide.\n', 'docs/deep/steps.txt': 'Open the box.\n\nPlug it in.\n', 'logo.png': png, 'notes/empty.txt': '' });
    const res = await send(u.token, { sourceLang: 'en', targetLang: 'es' }, [{ name: 'guide.zip', content: zip }], 'archive');
    expect(res.code).toBe(200);
    expect(res.data).toMatchObject({ name: 'guide.zip', files: 2 });
    expect(res.data.skipped).toEqual([
      { name: 'logo.png', reason: 'notSupported' },
      { name: 'notes/empty.txt', reason: 'empty' },
    ]);
    const job = await finished(res.data.id);
    expect(job).toMatchObject({ status: 'completed', completed: 2, percent: 100 });
    const full = (await call(d.kernel, 'GET', `/api/transFileDog/get/${job.id}`, u.token)).body.data;
    expect(full.documents.map((f: { name: string; status: string }) => [f.name, f.status])).toEqual([
      ['docs/deep/steps.txt', 'completed'],
      ['docs/intro.txt', 'completed'],
    ]);

    const got = await call(d.kernel, 'GET', `/api/transFileDog/download/${job.id}`, u.token);
    expect(String(got.headers['content-disposition'])).toContain('guide_es.zip');
    const out = join(dir, 'result.zip');
    writeFileSync(out, got.raw);
    const listed = execFileSync('unzip', ['-Z1', out]).toString('utf8').trim().split('\n').sort();
    expect(listed).toEqual(['docs/deep/steps.txt', 'docs/intro.txt', 'logo.png', 'notes/empty.txt']);
    expect(execFileSync('unzip', ['-p', out, 'docs/intro.txt']).toString('utf8')).toBe(`${peerEs('Welcome to the guide.')}\n`);
    expect(execFileSync('unzip', ['-p', out, 'docs/deep/steps.txt']).toString('utf8')).toBe(`${peerEs('Open the box.')}\n\n${peerEs('Plug it in.')}\n`);
    expect(execFileSync('unzip', ['-p', out, 'logo.png']).equals(png)).toBe(true);
    execFileSync('unzip', ['-tq', out]);

    expect((await call(d.kernel, 'GET', `/api/transFileDog/download/${job.id}`, other.token)).status).toBe(404);
    // The documents are in the owner's list too, marked as the archive's.
    const docs = await call(d.kernel, 'GET', `/api/transFile/list?jobId=${job.id}`, u.token);
    expect(docs.body.data.total).toBe(2);
  }, 90_000);

  it('takes a folder (files with their relative paths) the same way', async () => {
    const res = await send(u.token, { sourceLang: 'en', targetLang: 'es', paths: JSON.stringify(['site/a.txt', 'site/sub/b.txt']) }, [{ name: 'a.txt', content: 'First file.\n' }, { name: 'b.txt', content: 'Second file.\n' }], 'files');
    expect(res.code).toBe(200);
    expect(res.data.name).toBe('site.zip');
    const job = await finished(res.data.id);
    const out = join(dir, 'folder.zip');
    writeFileSync(out, (await call(d.kernel, 'GET', `/api/transFileDog/download/${job.id}`, u.token)).raw);
    expect(execFileSync('unzip', ['-p', out, 'site/sub/b.txt']).toString('utf8')).toBe(`${peerEs('Second file.')}\n`);
  }, 90_000);

  it('refuses an archive bomb on its declared sizes, and one whose header lies while it is inflated, storing nothing', async () => {
    const line = 'Open the box and plug it in.\n';
    const times = Math.ceil((600 * 1024 * 1024) / line.length);
    const before = (await call(d.kernel, 'GET', '/api/transFileDog/list?pageNum=1&pageSize=50', u.token)).body.data.total;
    const bomb = await zipOfRepeats([{ name: 'docs/a.txt', repeat: line, times }]);
    expect(bomb.length).toBeLessThan(4 * 1024 * 1024);
    const refused = await send(u.token, { sourceLang: 'en', targetLang: 'es' }, [{ name: 'bomb.zip', content: bomb }], 'archive');
    expect(refused.code).toBe(400);
    expect(refused.msg).toMatch(/bomb\.zip: the part docs\/a\.txt unpacks to more than 512 MB/);
    const liar = await zipOfRepeats([{ name: 'docs/a.txt', repeat: line, times, declaredSize: 100 }]);
    const stopped = await send(u.token, { sourceLang: 'en', targetLang: 'es' }, [{ name: 'liar.zip', content: liar }], 'archive');
    expect(stopped.code).toBe(400);
    expect(stopped.msg).toMatch(/liar\.zip: the part docs\/a\.txt unpacks to more than its declared size/);
    expect((await call(d.kernel, 'GET', '/api/transFileDog/list?pageNum=1&pageSize=50', u.token)).body.data.total).toBe(before);
  });

  it('refuses an archive that is no zip, holds nothing to translate, or climbs out of its folder, and deletes a job with its documents', async () => {
    expect((await send(u.token, { sourceLang: 'en', targetLang: 'es' }, [{ name: 'x.zip', content: 'plain text' }], 'archive')).msg).toContain('x.zip: not a readable zip archive');
    const images = zipOf({ 'a.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]) });
    expect((await send(u.token, { sourceLang: 'en', targetLang: 'es' }, [{ name: 'img.zip', content: images }], 'archive')).msg).toBe('img.zip: no file in it can be translated');
    const climbing = await send(u.token, { sourceLang: 'en', targetLang: 'es', paths: JSON.stringify(['../../etc/passwd']) }, [{ name: 'p.txt', content: 'x' }], 'files');
    expect(climbing.code).toBe(400);

    const res = await send(u.token, { sourceLang: 'en', targetLang: 'es' }, [{ name: 'small.zip', content: zipOf({ 'one.txt': 'One.\n' }) }], 'archive');
    const job = await finished(res.data.id);
    expect((await call(d.kernel, 'DELETE', `/api/transFileDog/delete?ids=${job.id}`, other.token)).status).toBe(404);
    expect((await call(d.kernel, 'DELETE', `/api/transFileDog/delete?ids=${job.id}`, u.token)).body.data).toEqual({ deleted: 1 });
    expect((await call(d.kernel, 'GET', `/api/transFile/list?jobId=${job.id}`, u.token)).body.data.total).toBe(0);
  }, 90_000);
});
