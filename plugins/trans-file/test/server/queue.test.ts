import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startDocKernel, upload, userWith, waitForFile, ZH, type DocKernel } from './support.js';

// The queue: files run one after another, the owner's file-translation priority first, then the
// oldest; a full queue answers 3027; terminate, retry and delete follow the documentFile machine.
// The engine answers after 250 ms, so files stay in the queue long enough to be seen there.

let d: DocKernel;
let low: { userId: number; token: string };
let high: { userId: number; token: string };

const OPTIONS = { sourceLang: 'en', targetLang: 'es' };
/** A text of `n` paragraphs, each a sentence of its own (several engine batches). */
const paragraphs = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `Sentence ${i + 1} of ${tag} is here.`).join('\n\n');

beforeAll(async () => {
  d = await startDocKernel({ delayMs: 250 });
  low = await userWith(d.kernel, 'lowpri', ['transFile:use']);
  high = await userWith(d.kernel, 'highpri', ['transFile:use']);
  // The user administration stores each user's file-translation priority (0 lowest .. 9).
  await d.kernel.database.db.updateTable('users').set({ priority: 9 }).where('id', '=', high.userId).execute();
});
afterAll(() => d?.close());

const started = async (id: number) => (await d.kernel.database.db.selectFrom('trans_file_files').select('started_at').where('id', '=', id).executeTakeFirstOrThrow()).started_at;

describe('the document queue', () => {
  it('serves the owner with the higher priority first, then the older file', async () => {
    const first = (await upload(d.kernel, low.token, OPTIONS, [{ name: 'first.txt', content: paragraphs(1200, 'first') }])).body.data[0];
    await waitForFile(d.kernel, low.token, first.id, (f) => f.status === 'translating');
    const older = (await upload(d.kernel, low.token, OPTIONS, [{ name: 'older-low.txt', content: paragraphs(3, 'older') }])).body.data[0];
    const newer = (await upload(d.kernel, low.token, OPTIONS, [{ name: 'newer-low.txt', content: paragraphs(3, 'newer') }])).body.data[0];
    const urgent = (await upload(d.kernel, high.token, OPTIONS, [{ name: 'urgent.txt', content: paragraphs(3, 'urgent') }])).body.data[0];
    expect([older.status, newer.status, urgent.status]).toEqual(['queued', 'queued', 'queued']);
    for (const [f, token] of [[older, low.token], [newer, low.token], [urgent, high.token]] as const) await waitForFile(d.kernel, token, f.id, (x) => x.status === 'completed', 60_000);
    const order = [
      { name: 'urgent', at: new Date((await started(urgent.id))!).getTime() },
      { name: 'older', at: new Date((await started(older.id))!).getTime() },
      { name: 'newer', at: new Date((await started(newer.id))!).getTime() },
    ].sort((a, b) => a.at - b.at);
    expect(order.map((o) => o.name)).toEqual(['urgent', 'older', 'newer']);
  }, 90_000);

  it('answers queue full (3027) past the configured length, storing nothing', async () => {
    const busy = (await upload(d.kernel, low.token, OPTIONS, [{ name: 'busy.txt', content: paragraphs(1200, 'busy') }])).body.data[0];
    await waitForFile(d.kernel, low.token, busy.id, (f) => f.status === 'translating');
    await call(d.kernel, 'PUT', '/api/transFile/settings', d.adminToken, { maxFiles: 20, maxFileMb: 50, queueLength: 1, defaultQuotaMb: 2048 });
    const before = (await call(d.kernel, 'GET', '/api/transFile/list', low.token)).body.data.total;
    const full = await upload(d.kernel, low.token, OPTIONS, [{ name: 'waiting.txt', content: 'One more.' }]);
    expect(full.body.code).toBe(3027);
    expect(full.body.msg).toBe('Queue full (at most 1 files waiting or translating): try again later');
    const fullZh = await upload(d.kernel, low.token, OPTIONS, [{ name: 'waiting.txt', content: 'One more.' }], ZH);
    expect(fullZh.body.msg).toContain('队列已满');
    expect((await call(d.kernel, 'GET', '/api/transFile/list', low.token)).body.data.total).toBe(before);
    await call(d.kernel, 'PUT', '/api/transFile/settings', d.adminToken, { maxFiles: 20, maxFileMb: 50, queueLength: 500, defaultQuotaMb: 2048 });
    await waitForFile(d.kernel, low.token, busy.id, (f) => f.status === 'completed', 60_000);
  }, 90_000);

  it('terminates only a translating file, downloads only a completed one, and a retry finishes without sending finished batches again', async () => {
    const res = await upload(d.kernel, low.token, OPTIONS, [{ name: 'long.txt', content: paragraphs(1000, 'long') }]);
    const id = res.body.data[0].id;
    const running = await waitForFile(d.kernel, low.token, id, (f) => f.status === 'translating' && f.segmentsDone >= 60);
    expect((await call(d.kernel, 'GET', `/api/transFile/download/${id}`, low.token)).status).toBe(409);
    const stopped = await call(d.kernel, 'POST', `/api/transFile/terminate/${id}`, low.token);
    expect(stopped.body.data.status).toBe('terminated');
    const again = await call(d.kernel, 'POST', `/api/transFile/terminate/${id}`, low.token);
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('Cannot terminate a file that is terminated');
    const after = (await call(d.kernel, 'GET', `/api/transFile/get/${id}`, low.token)).body.data;
    expect(after.segmentsDone).toBeGreaterThanOrEqual(running.segmentsDone);

    // The batches finished before the stop (stored with their translation) must not reach the engine again.
    const finished = await d.kernel.database.db.selectFrom('trans_file_units').select('source').where('file_id', '=', id).where('target', 'is not', null).execute();
    expect(finished.length).toBeGreaterThanOrEqual(60);
    const seen = new Set(finished.map((u) => u.source));
    const mark = d.peer.requests.length;
    const retried = await call(d.kernel, 'POST', `/api/transFile/retry/${id}`, low.token);
    expect(retried.body.data.status).toMatch(/queued|translating/);
    await waitForFile(d.kernel, low.token, id, (f) => f.status === 'completed', 60_000);
    const resent = d.peer.requests.slice(mark).flatMap((r) => (Array.isArray(r.body.q) ? (r.body.q as string[]) : [])).filter((q) => seen.has(q));
    expect(resent).toEqual([]);
    const text = (await call(d.kernel, 'GET', `/api/transFile/download/${id}`, low.token)).raw.toString('utf8');
    expect(text.split('\n\n')).toHaveLength(1000);
    expect(text.split('\n\n').every((p) => p.startsWith('[es] '))).toBe(true);
    expect((await call(d.kernel, 'POST', `/api/transFile/terminate/${id}`, low.token)).status).toBe(409);
  }, 90_000);

  it('deletes a file with its stored parts, cancelling its translation', async () => {
    const res = await upload(d.kernel, low.token, OPTIONS, [{ name: 'gone.txt', content: paragraphs(1000, 'gone') }]);
    const id = res.body.data[0].id;
    await waitForFile(d.kernel, low.token, id, (f) => f.status === 'translating');
    const row = await d.kernel.database.db.selectFrom('trans_file_files').select(['task_id', 'source_key']).where('id', '=', id).executeTakeFirstOrThrow();
    const del = await call(d.kernel, 'DELETE', `/api/transFile/delete?ids=${id}`, low.token);
    expect(del.body.data).toEqual({ deleted: 1 });
    expect((await call(d.kernel, 'GET', `/api/transFile/get/${id}`, low.token)).status).toBe(404);
    expect(await d.kernel.database.db.selectFrom('trans_file_units').select('idx').where('file_id', '=', id).execute()).toEqual([]);
    const task = await call(d.kernel, 'GET', `/api/tasks/${row.task_id}`, low.token);
    await expect.poll(async () => (await call(d.kernel, 'GET', `/api/tasks/${row.task_id}`, low.token)).body.data.state).toBe('cancelled');
    expect(task.status).toBe(200);
  }, 60_000);
});
