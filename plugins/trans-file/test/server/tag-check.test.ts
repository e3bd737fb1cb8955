import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, EN, startDocKernel, upload, userWith, waitForFile, ZH, type DocKernel } from './support.js';

// Issue 22 item 4: a translation whose inline tags do not match its source is refused wherever it is
// saved (the paragraph edit of a document, a memory entry added or edited, the "write to memory" of
// the document view, which is the memory's add), naming the tag in both languages, and nothing is kept.

let d: DocKernel;
let owner: { userId: number; token: string };
let fileId: number;
let memoryId: number;

const HTML = '<html><body><p>Press <b>Print</b> to start<br>now.</p></body></html>';

beforeAll(async () => {
  d = await startDocKernel({ plugins: ['formats-text', 'tm'] });
  owner = await userWith(d.kernel, 'tina', ['transFile:use', 'tm:view', 'tm:add', 'tm:edit', 'tm:library']);
  const res = await upload(d.kernel, owner.token, { sourceLang: 'en', targetLang: 'es' }, [{ name: 'guide.html', content: HTML }]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  fileId = res.body.data[0].id;
  await waitForFile(d.kernel, owner.token, fileId, (f) => f.status === 'completed', 60_000);
  const memory = await call(d.kernel, 'POST', '/api/TM/library/add', owner.token, { name: 'Guides', ownership: 'all', kind: 'shared', users: [] });
  expect(memory.status, JSON.stringify(memory.body)).toBe(200);
  memoryId = memory.body.data.id;
}, 120_000);
afterAll(() => d?.close());

const units = async () => (await call(d.kernel, 'GET', `/api/transFile/units/${fileId}`, owner.token)).body.data.records as Array<{ idx: number; source: string; target: string; edited: boolean }>;
const entries = async () => (await call(d.kernel, 'GET', `/api/TM/entry/list?libraryId=${memoryId}`, owner.token)).body.data.total as number;

describe('tag check on save', () => {
  it('refuses a paragraph edit whose tags do not match, naming the tag in both languages, and keeps the paragraph and the result', async () => {
    const [unit] = await units();
    expect(unit!.source).toBe('Press <1>Print</1> to start<2/>now.');
    const result = (await call(d.kernel, 'GET', `/api/transFile/download/${fileId}`, owner.token)).raw;
    const broken = [
      // The glyphs the old paragraph view drew, typed as text: the bold is lost.
      { target: 'Pulse ⟨1⟩Imprimir⟨/1⟩ para empezar<2/>ya.', en: 'tag <1> is missing', zh: '缺少标记 <1>' },
      { target: 'Pulse <1>Imprimir para empezar<2/>ya.', en: 'tag </1> is missing', zh: '缺少标记 </1>' },
      { target: 'Pulse <1>Imprimir</1> <1>para</1> empezar<2/>ya.', en: 'tag <1> appears more often than in the source', zh: '标记 <1> 重复' },
      { target: 'Pulse </1>Imprimir<1> para empezar<2/>ya.', en: 'tag </1> closes before it opens', zh: '标记 </1> 在开始标记之前出现' },
      { target: 'Pulse <1>Imprimir</1> para empezar<2/><3/>ya.', en: 'tag <3/> is not in the source', zh: '原文中没有标记 <3/>' },
    ];
    for (const b of broken) {
      const en = await call(d.kernel, 'PUT', `/api/transFile/units/${fileId}/0`, owner.token, { target: b.target }, EN);
      expect(en.status, JSON.stringify(en.body)).toBe(400);
      expect(en.body.msg).toContain('The tags of the translation do not match the source');
      expect(en.body.msg).toContain(b.en);
      const zh = await call(d.kernel, 'PUT', `/api/transFile/units/${fileId}/0`, owner.token, { target: b.target }, ZH);
      expect(zh.status).toBe(400);
      expect(zh.body.msg).toContain('译文的标记与原文不一致');
      expect(zh.body.msg).toContain(b.zh);
    }
    const [after] = await units();
    expect(after).toMatchObject({ target: unit!.target, edited: false });
    expect((await call(d.kernel, 'GET', `/api/transFile/download/${fileId}`, owner.token)).raw.equals(result)).toBe(true);

    const good = await call(d.kernel, 'PUT', `/api/transFile/units/${fileId}/0`, owner.token, { target: 'Pulse <1>Imprimir</1> para empezar<2/>ya.' });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect((await call(d.kernel, 'GET', `/api/transFile/download/${fileId}`, owner.token)).raw.toString('utf8')).toContain('Pulse <b>Imprimir</b> para empezar<br>ya.');
  }, 60_000);

  it('refuses to write a pair with broken tags to a memory (add, add both ways, edit) and keeps nothing', async () => {
    const source = 'Press <1>Print</1> to start<2/>now.';
    const add = (target: string, headers = EN, bidirectional = false) =>
      call(d.kernel, 'POST', '/api/TM/entry/add', owner.token, { libraryId: memoryId, source, target, sourceLang: 'en', targetLang: 'es', bidirectional }, headers);
    const en = await add('Pulse ⟨1⟩Imprimir⟨/1⟩ para empezar<2/>ya.');
    expect(en.status, JSON.stringify(en.body)).toBe(400);
    expect(en.body.msg).toContain('tag <1> is missing');
    expect(en.body.msg).toContain('"⟨1⟩" looks like a tag but is text');
    const zh = await add('Pulse <1>Imprimir para empezar<2/>ya.', ZH, true);
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toContain('缺少标记 </1>');
    expect(await entries()).toBe(0);

    const ok = await add('Pulse <1>Imprimir</1> para empezar<2/>ya.');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const id = ok.body.data[0].id as number;
    const edit = await call(d.kernel, 'PUT', '/api/TM/entry/update', owner.token, { id, source, target: 'Pulse <1>Imprimir</1> para empezar ya.' }, ZH);
    expect(edit.status).toBe(400);
    expect(edit.body.msg).toContain('缺少标记 <2/>');
    const list = (await call(d.kernel, 'GET', `/api/TM/entry/list?libraryId=${memoryId}`, owner.token)).body.data.records;
    expect(list.map((e: { target: string }) => e.target)).toEqual(['Pulse <1>Imprimir</1> para empezar<2/>ya.']);
    // A plain pair without tags is what it always was.
    expect((await call(d.kernel, 'POST', '/api/TM/entry/add', owner.token, { libraryId: memoryId, source: 'Print', target: 'Imprimir', sourceLang: 'en', targetLang: 'es' })).status).toBe(200);
  }, 60_000);
});
