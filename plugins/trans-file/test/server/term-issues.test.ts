import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueText } from '@linguaport/sdk/shared';
import { call, startDocKernel, upload, waitForFile, type DocKernel } from './support.js';

// Term warnings are shown where a document's result is shown (issue 22 item 3): the term hook's
// findings on each sentence are kept with it and come back with the units of the document view.

let d: DocKernel;
let base: number;

beforeAll(async () => {
  d = await startDocKernel({ plugins: ['term', 'formats-text'] });
  const created = await call(d.kernel, 'POST', '/api/term/library/add', d.adminToken, { name: 'Forbidden words', ownership: 'all', kind: 'shared', users: [] });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  base = created.body.data.id;
  // The loopback engine answers with the words reversed, so its output keeps the source's English word.
  const term = await call(d.kernel, 'POST', '/api/term/entry/add', d.adminToken, { libraryId: base, source: 'gadget', target: 'gadget', forbidden: true, sourceLang: 'en', targetLang: 'es' });
  expect(term.status, JSON.stringify(term.body)).toBe(200);
}, 120_000);
afterAll(() => d?.close());

describe('term warnings in the document view', () => {
  it('keeps the term hook’s finding with its sentence, worded in the reader’s language', async () => {
    const res = await upload(d.kernel, d.adminToken, { sourceLang: 'en', targetLang: 'es', termBases: String(base) }, [{ name: 'one.txt', content: 'The gadget works well.\n\nNothing to say here.\n' }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.data[0].id as number;
    await waitForFile(d.kernel, d.adminToken, id, (f) => f.status === 'completed' || f.status === 'failed');
    const units = (await call(d.kernel, 'GET', `/api/transFile/units/${id}`, d.adminToken)).body.data.records as Array<{ source: string; sentences: Array<{ issues?: Array<{ code: string; message: string; params?: Record<string, string> }> }> | null }>;
    const flagged = units.find((u) => u.source.startsWith('The gadget'))!;
    // One sentence, kept because of its finding.
    expect(flagged.sentences).toHaveLength(1);
    const issue = flagged.sentences![0]!.issues!.find((i) => i.code === 'term-forbidden')!;
    expect(issue).toBeTruthy();
    expect(issueText(issue, 'en-US')).toContain('which the term base forbids for “gadget”');
    expect(issueText(issue, 'zh-CN')).toContain('禁用');
    // A paragraph with nothing to say keeps no sentence list.
    expect(units.find((u) => u.source.startsWith('Nothing'))!.sentences).toBeNull();
  });
});
