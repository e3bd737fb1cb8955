import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, EN, openSocket, peerEs, startDocKernel, upload, userWith, waitForFile, ZH, type DocKernel } from './support.js';

// Uploading, refusing and translating plain text files end to end in a real kernel, with a
// LibreTranslate-compatible engine on loopback whose answers the test can predict.

let d: DocKernel;
let alice: { userId: number; token: string };
let bob: { userId: number; token: string };
let manager: { userId: number; token: string };

const OPTIONS = { sourceLang: 'en', targetLang: 'es' };
const TEXT = 'The red car is fast.\n\nA second paragraph\nwith two lines.\n\n12345\n';

beforeAll(async () => {
  d = await startDocKernel();
  alice = await userWith(d.kernel, 'alice', ['transFile:use']);
  bob = await userWith(d.kernel, 'bob', ['transFile:use']);
  manager = await userWith(d.kernel, 'maria', ['transFile:use', 'transFile:manage']);
});
afterAll(() => d?.close());

const storedFiles = () => {
  const dir = join(d.kernel.config.dataDir, 'files', 'trans-file', 'files');
  return existsSync(dir) ? readdirSync(dir) : [];
};
const fileCount = async () => Number((await d.kernel.database.db.selectFrom('trans_file_files').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('document upload and translation', () => {
  it('translates a text file paragraph by paragraph, pushes its progress and counts the document', async () => {
    const socket = await openSocket(d.kernel, alice.token);
    const res = await upload(d.kernel, alice.token, OPTIONS, [{ name: 'notes.txt', content: TEXT }]);
    expect(res.body.code).toBe(200);
    const [row] = res.body.data;
    expect(row).toMatchObject({ name: 'notes.txt', format: 'txt', sourceLang: 'en', targetLang: 'es', bilingual: false, segments: 3, size: Buffer.byteLength(TEXT) });
    expect(row.characters).toBe('The red car is fast.'.length + 'A second paragraph'.length + 'with two lines.'.length + 5);
    expect(['queued', 'translating', 'completed']).toContain(row.status);

    const done = await waitForFile(d.kernel, alice.token, row.id, (f) => f.status === 'completed');
    expect(done).toMatchObject({ percent: 100, segmentsDone: 3, resultName: 'notes_es.txt' });
    const file = await call(d.kernel, 'GET', `/api/transFile/download/${row.id}`, alice.token);
    expect(file.status).toBe(200);
    expect(String(file.headers['content-disposition'])).toContain('notes_es.txt');
    // Line breaks inside a paragraph stay (placeholders travel as html, where the peer reverses the
    // words between tags and adds no prefix); numbers alone are not sent.
    expect(file.raw.toString('utf8')).toBe(`${peerEs('The red car is fast.')}\n\nparagraph second A\nlines. two with\n\n12345\n`);

    // Progress reached the owner's console over the WebSocket, ending completed at 100 %.
    await expect.poll(() => socket.messages.some((m) => m.type === 'transFile.changed' && m.payload.id === row.id && m.payload.status === 'completed' && m.payload.percent === 100)).toBe(true);
    expect(socket.messages.some((m) => m.type === 'transFile.changed' && m.payload.id === row.id && m.payload.status === 'translating')).toBe(true);
    socket.close();

    // One document on the owner's usage, with its characters on the document channel.
    await expect
      .poll(async () => {
        const r = await d.kernel.database.db.selectFrom('usage_records').select(['documents', 'characters']).where('user_id', '=', alice.userId).where('channel', '=', 'document').executeTakeFirst();
        return r ? { documents: Number(r.documents), characters: Number(r.characters) > 0 } : null;
      })
      .toEqual({ documents: 1, characters: true });
  });

  it('refuses an empty file, a renamed executable, an unknown type and an oversized file in both languages, storing nothing', async () => {
    const before = await fileCount();
    const stored = storedFiles().length;
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64)]);
    const cases = [
      { file: { name: 'empty.txt', content: '' }, en: 'empty.txt: cannot upload an empty file', zh: 'empty.txt：不能上传空文件', reason: 'empty' },
      { file: { name: 'setup.txt', content: elf }, en: 'setup.txt: not a supported format', zh: 'setup.txt：不支持的文件格式', reason: 'notSupported' },
      { file: { name: 'tool.exe', content: elf }, en: 'tool.exe: not a supported format', zh: 'tool.exe：不支持的文件格式', reason: 'notSupported' },
    ];
    for (const c of cases) {
      const en = await upload(d.kernel, alice.token, OPTIONS, [c.file], EN);
      expect(en.status).toBe(400);
      expect(en.body.msg).toContain(c.en);
      expect(en.body.data.refused).toEqual([{ name: c.file.name, reason: c.reason }]);
      const zh = await upload(d.kernel, alice.token, OPTIONS, [c.file], ZH);
      expect(zh.body.msg).toContain(c.zh);
    }
    // With a good file beside a bad one, nothing at all is taken.
    const mixed = await upload(d.kernel, alice.token, OPTIONS, [{ name: 'good.txt', content: 'Fine text.' }, cases[0]!.file]);
    expect(mixed.status).toBe(400);

    await call(d.kernel, 'PUT', '/api/transFile/settings', d.adminToken, { maxFiles: 2, maxFileMb: 1, queueLength: 500, defaultQuotaMb: 2048 });
    const big = await upload(d.kernel, alice.token, OPTIONS, [{ name: 'big.txt', content: 'word '.repeat(220_000) }]);
    expect(big.status).toBe(400);
    expect(big.body.msg).toContain('big.txt: file upload error, a file may be at most 1 MB');
    const many = await upload(d.kernel, alice.token, OPTIONS, [1, 2, 3].map((n) => ({ name: `${n}.txt`, content: 'Text.' })), ZH);
    expect(many.body.msg).toBe('文件上传错误：一次最多上传 2 个文件');
    await call(d.kernel, 'PUT', '/api/transFile/settings', d.adminToken, { maxFiles: 20, maxFileMb: 50, queueLength: 500, defaultQuotaMb: 2048 });

    const same = await upload(d.kernel, alice.token, { sourceLang: 'en', targetLang: 'en' }, [{ name: 'a.txt', content: 'Text.' }]);
    expect(same.body.msg).toBe('The source and target languages must differ');
    expect(await fileCount()).toBe(before);
    expect(storedFiles().length).toBe(stored);
  });

  it('keeps files to their owner, shows every user\'s to a manager, and checks the manager key on the server', async () => {
    const res = await upload(d.kernel, alice.token, OPTIONS, [{ name: 'private.txt', content: 'Only for Alice.' }]);
    const id = res.body.data[0].id;
    await waitForFile(d.kernel, alice.token, id, (f) => f.status === 'completed');
    expect((await call(d.kernel, 'GET', `/api/transFile/get/${id}`, bob.token)).status).toBe(404);
    expect((await call(d.kernel, 'GET', `/api/transFile/download/${id}`, bob.token)).status).toBe(404);
    expect((await call(d.kernel, 'DELETE', `/api/transFile/delete?ids=${id}`, bob.token)).status).toBe(404);
    expect((await call(d.kernel, 'GET', '/api/transFile/list?all=true', bob.token)).status).toBe(403);
    const bobs = await call(d.kernel, 'GET', '/api/transFile/list', bob.token);
    expect(bobs.body.data.records.map((r: { id: number }) => r.id)).not.toContain(id);
    const all = await call(d.kernel, 'GET', '/api/transFile/list?all=true&name=private', manager.token);
    expect(all.body.data.records).toEqual([expect.objectContaining({ id, ownerName: 'alice' })]);
    expect((await call(d.kernel, 'GET', `/api/transFile/download/${id}`, manager.token)).status).toBe(200);
    expect((await call(d.kernel, 'PUT', '/api/transFile/settings', alice.token, { maxFiles: 1, maxFileMb: 1, queueLength: 1, defaultQuotaMb: 1 })).status).toBe(403);
  });

  it('filters and pages the list', async () => {
    const token = bob.token;
    for (const n of [1, 2, 3]) await upload(d.kernel, token, OPTIONS, [{ name: `page-${n}.txt`, content: `Page ${n} text.` }]);
    const page1 = await call(d.kernel, 'GET', '/api/transFile/list?pageNum=1&pageSize=2&name=page-', token);
    expect(page1.body.data.total).toBe(3);
    expect(page1.body.data.records.map((r: { name: string }) => r.name)).toEqual(['page-3.txt', 'page-2.txt']);
    const page2 = await call(d.kernel, 'GET', '/api/transFile/list?pageNum=2&pageSize=2&name=page-', token);
    expect(page2.body.data.records.map((r: { name: string }) => r.name)).toEqual(['page-1.txt']);
    for (const r of [...page1.body.data.records, ...page2.body.data.records]) await waitForFile(d.kernel, token, r.id, (f) => f.status === 'completed');
    const completed = await call(d.kernel, 'GET', '/api/transFile/list?status=completed&targetLang=es&name=page-', token);
    expect(completed.body.data.total).toBe(3);
    const none = await call(d.kernel, 'GET', '/api/transFile/list?status=failed&name=page-', token);
    expect(none.body.data.total).toBe(0);
  });

  it('writes a bilingual text, a side-by-side table and a PDF when asked', async () => {
    const res = await upload(d.kernel, alice.token, { ...OPTIONS, resultType: 'bilingual' }, [{ name: 'pair.txt', content: 'Good morning.\n\nSee you soon.\n' }]);
    const bi = await waitForFile(d.kernel, alice.token, res.body.data[0].id, (f) => f.status === 'completed');
    expect(bi.bilingual).toBe(true);
    const text = (await call(d.kernel, 'GET', `/api/transFile/download/${bi.id}`, alice.token)).raw.toString('utf8');
    expect(text).toBe(`Good morning.\n${peerEs('Good morning.')}\n\nSee you soon.\n${peerEs('See you soon.')}\n`);

    const table = await upload(d.kernel, alice.token, { ...OPTIONS, resultType: 'table', withPdf: 'true' }, [{ name: 'table.txt', content: 'Good morning.\n\nSee you soon.\n' }]);
    const done = await waitForFile(d.kernel, alice.token, table.body.data[0].id, (f) => f.status === 'completed', 90_000);
    expect(done).toMatchObject({ resultName: 'table_es_table.txt.docx', pdfStatus: 'converted' });
    const docx = (await call(d.kernel, 'GET', `/api/transFile/download/${done.id}`, alice.token)).raw;
    expect(docx.subarray(0, 2).toString()).toBe('PK');
    const pdf = await call(d.kernel, 'GET', `/api/transFile/download/${done.id}?kind=pdf`, alice.token);
    expect(pdf.status).toBe(200);
    expect(pdf.raw.subarray(0, 5).toString()).toBe('%PDF-');
  }, 120_000);
});
