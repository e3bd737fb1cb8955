import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, EN, peerEs, startDocKernel, upload, userWith, waitForFile, ZH, type DocKernel } from './support.js';

// The previews of a completed file: paragraph by paragraph with editing written back into the
// result (and its PDF), and the rendered pages of original and translation.

let d: DocKernel;
let owner: { userId: number; token: string };
let other: { userId: number; token: string };
let fileId: number;

const TEXT = 'First paragraph here.\n\nSecond one\nover two lines.\n\nThird & last <one>.\n';

beforeAll(async () => {
  d = await startDocKernel();
  owner = await userWith(d.kernel, 'paula', ['transFile:use']);
  other = await userWith(d.kernel, 'oscar', ['transFile:use']);
  const res = await upload(d.kernel, owner.token, { sourceLang: 'en', targetLang: 'es', withPdf: 'true' }, [{ name: 'story.txt', content: TEXT }]);
  fileId = res.body.data[0].id;
  await waitForFile(d.kernel, owner.token, fileId, (f) => f.status === 'completed', 60_000);
}, 90_000);
afterAll(() => d?.close());

describe('previews', () => {
  it('lists the paragraphs with their translations, in order, paged and searchable', async () => {
    const all = await call(d.kernel, 'GET', `/api/transFile/units/${fileId}`, owner.token);
    expect(all.body.data.total).toBe(3);
    expect(all.body.data.records.map((u: { idx: number; source: string; target: string }) => [u.idx, u.source, u.target])).toEqual([
      [0, 'First paragraph here.', peerEs('First paragraph here.')],
      [1, 'Second one<1/>over two lines.', 'one Second<1/>lines. two over'],
      [2, 'Third & last <one>.', '<one>. last & Third'],
    ]);
    const page = await call(d.kernel, 'GET', `/api/transFile/units/${fileId}?pageNum=2&pageSize=1`, owner.token);
    expect(page.body.data.records.map((u: { idx: number }) => u.idx)).toEqual([1]);
    const found = await call(d.kernel, 'GET', `/api/transFile/units/${fileId}?q=SECOND`, owner.token);
    expect(found.body.data.records.map((u: { idx: number }) => u.idx)).toEqual([1]);
    expect((await call(d.kernel, 'GET', `/api/transFile/units/${fileId}`, other.token)).status).toBe(404);
  });

  it('writes an edited paragraph into the result file and its PDF, and refuses an empty edit', async () => {
    const before = (await call(d.kernel, 'GET', `/api/transFile/download/${fileId}?kind=pdf`, owner.token)).raw;
    const edit = await call(d.kernel, 'PUT', `/api/transFile/units/${fileId}/0`, owner.token, { target: 'Primer párrafo aquí.' });
    expect(edit.body.data).toMatchObject({ idx: 0, target: 'Primer párrafo aquí.', edited: true, origin: 'edited' });
    const text = (await call(d.kernel, 'GET', `/api/transFile/download/${fileId}`, owner.token)).raw.toString('utf8');
    expect(text.split('\n\n')[0]).toBe('Primer párrafo aquí.');
    const after = (await call(d.kernel, 'GET', `/api/transFile/download/${fileId}?kind=pdf`, owner.token)).raw;
    expect(after.subarray(0, 5).toString()).toBe('%PDF-');
    expect(after.equals(before)).toBe(false);

    const empty = await call(d.kernel, 'PUT', `/api/transFile/units/${fileId}/1`, owner.token, { target: '   ' });
    expect(empty.status).toBe(400);
    expect((await call(d.kernel, 'PUT', `/api/transFile/units/${fileId}/99`, owner.token, { target: 'x' }, ZH)).body.msg).toBe('没有第 99 段');
    expect((await call(d.kernel, 'PUT', `/api/transFile/units/${fileId}/1`, other.token, { target: 'mine' })).status).toBe(404);
    const unchanged = await call(d.kernel, 'GET', `/api/transFile/units/${fileId}?pageSize=3`, owner.token);
    expect(unchanged.body.data.records[1].target).toBe('one Second<1/>lines. two over');
  }, 60_000);

  it('serves an edit in the download (result and PDF) as soon as the preview shows the edited paragraph', async () => {
    const before = (await call(d.kernel, 'GET', `/api/transFile/download/${fileId}?kind=pdf`, owner.token)).raw;
    // The paragraph's line break (`<1/>`) is kept: the tag check refuses a target without it.
    const editing = call(d.kernel, 'PUT', `/api/transFile/units/${fileId}/1`, owner.token, { target: 'Segundo párrafo,<1/>corregido.' });
    // The paragraph shows as soon as it is stored; its result and PDF are still being written then
    // (LibreOffice takes about a second for the PDF), and a download must wait for them.
    await expect
      .poll(async () => (await call(d.kernel, 'GET', `/api/transFile/units/${fileId}?pageSize=3`, owner.token)).body.data.records[1].target, { timeout: 30_000, interval: 10 })
      .toBe('Segundo párrafo,<1/>corregido.');
    const [text, pdf] = await Promise.all([
      call(d.kernel, 'GET', `/api/transFile/download/${fileId}`, owner.token),
      call(d.kernel, 'GET', `/api/transFile/download/${fileId}?kind=pdf`, owner.token),
    ]);
    expect((await editing).status).toBe(200);
    expect(text.raw.toString('utf8').split('\n\n')[1]).toBe('Segundo párrafo,\ncorregido.');
    const written = (await call(d.kernel, 'GET', `/api/transFile/download/${fileId}?kind=pdf`, owner.token)).raw;
    expect(written.equals(before)).toBe(false);
    expect(pdf.raw.equals(written)).toBe(true);
  }, 60_000);

  it('renders original and translation as page images on demand', async () => {
    const start = await call(d.kernel, 'POST', `/api/transFile/preview/${fileId}`, owner.token);
    expect(['preparing', 'prepared']).toContain(start.body.data.status);
    await expect.poll(async () => (await call(d.kernel, 'GET', `/api/transFile/preview/${fileId}`, owner.token)).body.data.status, { timeout: 60_000, interval: 250 }).toBe('prepared');
    const state = (await call(d.kernel, 'GET', `/api/transFile/preview/${fileId}`, owner.token)).body.data;
    expect(state.sourcePages).toBeGreaterThanOrEqual(1);
    expect(state.targetPages).toBeGreaterThanOrEqual(1);
    const png = await call(d.kernel, 'GET', `/api/transFile/preview/${fileId}/target/1`, owner.token);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.raw.subarray(1, 4).toString()).toBe('PNG');
    expect((await call(d.kernel, 'GET', `/api/transFile/preview/${fileId}/target/1`, other.token)).status).toBe(404);

    // An edit makes the rendered pages stale: the preview must be prepared again.
    await call(d.kernel, 'PUT', `/api/transFile/units/${fileId}/2`, owner.token, { target: 'Tercero y último.' });
    expect((await call(d.kernel, 'GET', `/api/transFile/get/${fileId}`, owner.token)).body.data.previewStatus).toBe('notPreviewed');
    expect((await call(d.kernel, 'GET', `/api/transFile/preview/${fileId}/target/1`, owner.token)).body.code).toBe(2067);
  }, 90_000);
});

describe('edits racing each other', () => {
  it('keeps every answered edit in the result when several paragraphs are edited at once, and refuses an edit once the result is removed', async () => {
    const editor = await userWith(d.kernel, 'fiona', ['transFile:use', 'fileManager:use']);
    const paragraphs = Array.from({ length: 200 }, (_, i) => `Paragraph number ${i} of the long story.`);
    const res = await upload(d.kernel, editor.token, { sourceLang: 'en', targetLang: 'es' }, [{ name: 'long.txt', content: `${paragraphs.join('\n\n')}\n` }]);
    const id = res.body.data[0].id;
    await waitForFile(d.kernel, editor.token, id, (f) => f.status === 'completed', 60_000);
    for (let round = 0; round < 2; round++) {
      const edited = Array.from({ length: 12 }, (_, k) => k * 15 + round);
      const answers = await Promise.all(edited.map((idx) => call(d.kernel, 'PUT', `/api/transFile/units/${id}/${idx}`, editor.token, { target: `Edición ${round}.${idx}` })));
      expect(answers.map((a) => a.status)).toEqual(edited.map(() => 200));
      const text = (await call(d.kernel, 'GET', `/api/transFile/download/${id}`, editor.token)).raw.toString('utf8').split('\n\n');
      for (const idx of edited) expect(text[idx], `paragraph ${idx} after round ${round}`).toBe(`Edición ${round}.${idx}`);
    }

    // Its result removed in the file manager: an edit has nothing to write into, says so in both
    // languages (never a 500) and changes nothing.
    expect((await call(d.kernel, 'DELETE', `/api/fileManager/delete?items=file:${id}:result`, editor.token)).body.data).toEqual({ deleted: 1 });
    for (const [headers, msg] of [[EN, 'File not found: long.txt'], [ZH, '文件不存在：long.txt']] as const) {
      const refused = await call(d.kernel, 'PUT', `/api/transFile/units/${id}/5`, editor.token, { target: 'Sin archivo.' }, headers);
      expect([refused.status, refused.body.code, refused.body.msg]).toEqual([200, 2067, msg]);
    }
    const unit = await call(d.kernel, 'GET', `/api/transFile/units/${id}?pageSize=6`, editor.token);
    expect(unit.body.data.records[5]).toMatchObject({ target: peerEs('Paragraph number 5 of the long story.'), edited: false });
  }, 90_000);
});
