import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startDocKernel, upload, userWith, waitForFile, ZH, type DocKernel } from './support.js';

// /fileManager: a user's stored files with their jobs, download and delete, and storage quotas.

let d: DocKernel;
let ann: { userId: number; token: string };
let ben: { userId: number; token: string };
let admin: { userId: number; token: string };

const OPTIONS = { sourceLang: 'en', targetLang: 'es' };

beforeAll(async () => {
  d = await startDocKernel();
  ann = await userWith(d.kernel, 'ann', ['transFile:use', 'fileManager:use']);
  ben = await userWith(d.kernel, 'ben', ['transFile:use', 'fileManager:use']);
  admin = await userWith(d.kernel, 'quota-admin', ['fileManager:use', 'fileManager:quota']);
}, 60_000);
afterAll(() => d?.close());

describe('the file manager', () => {
  it('lists uploads and results with sizes and jobs, downloads and deletes them, only the owner\'s', async () => {
    const res = await upload(d.kernel, ann.token, { ...OPTIONS, resultType: 'translated' }, [{ name: 'memo.txt', content: 'A short memo.\n' }]);
    const id = res.body.data[0].id;
    await waitForFile(d.kernel, ann.token, id, (f) => f.status === 'completed');
    const list = await call(d.kernel, 'GET', '/api/fileManager/list?sortBy=name&sortOrder=asc', ann.token);
    expect(list.body.data.records.map((r: { item: string; kind: string; name: string; jobId: number }) => [r.item, r.kind, r.name, r.jobId])).toEqual([
      [`file:${id}:source`, 'source', 'memo.txt', id],
      [`file:${id}:result`, 'result', 'memo_es.txt', id],
    ]);
    expect(list.body.data.records[0].size).toBe(Buffer.byteLength('A short memo.\n'));
    const results = await call(d.kernel, 'GET', '/api/fileManager/list?kind=result', ann.token);
    expect(results.body.data.total).toBe(1);

    const got = await call(d.kernel, 'GET', `/api/fileManager/download?item=file:${id}:result`, ann.token);
    expect(got.raw.toString('utf8')).toBe('[es] memo. short A\n');
    expect((await call(d.kernel, 'GET', `/api/fileManager/download?item=file:${id}:result`, ben.token)).status).toBe(404);
    expect((await call(d.kernel, 'DELETE', `/api/fileManager/delete?items=file:${id}:result`, ben.token)).status).toBe(404);
    expect((await call(d.kernel, 'GET', `/api/fileManager/list`, ben.token)).body.data.total).toBe(0);
    expect((await call(d.kernel, 'GET', '/api/fileManager/download?item=file:x:result', ann.token)).status).toBe(400);

    // A result deleted: the job stays, its download says the file is not found (2067) until a retry.
    expect((await call(d.kernel, 'DELETE', `/api/fileManager/delete?items=file:${id}:result`, ann.token)).body.data).toEqual({ deleted: 1 });
    expect((await call(d.kernel, 'GET', `/api/transFile/download/${id}`, ann.token)).body.code).toBe(2067);
    await call(d.kernel, 'POST', `/api/transFile/retry/${id}`, ann.token);
    await waitForFile(d.kernel, ann.token, id, (f) => f.status === 'completed');
    expect((await call(d.kernel, 'GET', `/api/transFile/download/${id}`, ann.token)).status).toBe(200);

    // The upload deleted: the whole document goes.
    expect((await call(d.kernel, 'DELETE', `/api/fileManager/delete?items=file:${id}:source`, ann.token)).body.data).toEqual({ deleted: 1 });
    expect((await call(d.kernel, 'GET', `/api/transFile/get/${id}`, ann.token)).status).toBe(404);
    expect((await call(d.kernel, 'GET', '/api/fileManager/list', ann.token)).body.data.total).toBe(0);
  });

  it('refuses an upload over the user\'s quota, lets administrators set quotas, and checks their key', async () => {
    expect((await call(d.kernel, 'PUT', '/api/fileManager/quota', ben.token, { userIds: [ben.userId], quotaMb: 100 })).status).toBe(403);
    expect((await call(d.kernel, 'GET', '/api/fileManager/quotas', ben.token)).status).toBe(403);
    expect((await call(d.kernel, 'PUT', '/api/fileManager/quota', admin.token, { userIds: [ben.userId], quotaMb: 1 })).body.data).toEqual({ updated: 1 });
    const quotas = await call(d.kernel, 'GET', '/api/fileManager/quotas?name=ben', admin.token);
    expect(quotas.body.data.records).toEqual([expect.objectContaining({ userId: ben.userId, username: 'ben', quotaMb: 1, ownQuota: true, usedBytes: 0 })]);

    const first = await upload(d.kernel, ben.token, OPTIONS, [{ name: 'half.txt', content: 'word '.repeat(120_000) }]);
    expect(first.body.code).toBe(200);
    await waitForFile(d.kernel, ben.token, first.body.data[0].id, (f) => f.status === 'completed', 60_000);
    const usage = (await call(d.kernel, 'GET', '/api/fileManager/usage', ben.token)).body.data;
    expect(usage.usedBytes).toBeGreaterThan(600_000);
    const over = await upload(d.kernel, ben.token, OPTIONS, [{ name: 'more.txt', content: 'word '.repeat(60_000) }], ZH);
    expect(over.status).toBe(400);
    expect(over.body.msg).toContain('存储空间不足');
    expect((await call(d.kernel, 'GET', '/api/fileManager/list?kind=source', ben.token)).body.data.total).toBe(1);

    // Back to the default (2 GB): the same upload goes.
    await call(d.kernel, 'PUT', '/api/fileManager/quota', admin.token, { userIds: [ben.userId], quotaMb: null });
    expect((await call(d.kernel, 'GET', '/api/fileManager/usage', ben.token)).body.data).toMatchObject({ ownQuota: false, quotaMb: 2048 });
    expect((await upload(d.kernel, ben.token, OPTIONS, [{ name: 'more.txt', content: 'word '.repeat(60_000) }])).body.code).toBe(200);
  }, 90_000);
});
