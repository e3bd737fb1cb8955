import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTags } from '@linguaport/sdk/shared';
import { call, peerEs, startDocKernel, upload, waitForFile, type DocKernel } from './support.js';

// Documents reuse memories by sentence (issue 22 item 2): inside each paragraph the text is cut into
// sentences with the rules text translation uses; each is looked up in the memories (with its inline
// tags) and only the others go to the engine; the paragraph is written back as one.

let d: DocKernel;
let memory: number;

const KNOWN = 'The red car is fast.';
const KNOWN_ES = 'El coche rojo es rápido.';
const TAGGED = 'Click <1>Save</1> now.';
const TAGGED_ES = 'Pulse <1>Guardar</1> ahora.';

beforeAll(async () => {
  d = await startDocKernel({ plugins: ['tm', 'formats-text'] });
  const lib = await call(d.kernel, 'POST', '/api/TM/library/add', d.adminToken, { name: 'Known', ownership: 'all', kind: 'shared', users: [] });
  expect(lib.status, JSON.stringify(lib.body)).toBe(200);
  memory = lib.body.data.id;
  for (const [source, target] of [
    [KNOWN, KNOWN_ES],
    [TAGGED, TAGGED_ES],
  ]) {
    const res = await call(d.kernel, 'POST', '/api/TM/entry/add', d.adminToken, { libraryId: memory, source, target, sourceLang: 'en', targetLang: 'es' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}, 120_000);
afterAll(() => d?.close());

/** Every text the engine was sent since `from` (the peer's requests). */
const engineInputs = (from: number) =>
  d.peer.requests
    .slice(from)
    .filter((r) => r.path === '/translate')
    .flatMap((r) => (Array.isArray(r.body.q) ? r.body.q : [r.body.q]).map(String));

async function translate(name: string, content: string) {
  const res = await upload(d.kernel, d.adminToken, { sourceLang: 'en', targetLang: 'es', memories: String(memory) }, [{ name, content }]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = res.body.data[0].id as number;
  await waitForFile(d.kernel, d.adminToken, id, (f) => f.status === 'completed' || f.status === 'failed');
  const units = (await call(d.kernel, 'GET', `/api/transFile/units/${id}`, d.adminToken)).body.data.records;
  const result = String((await call(d.kernel, 'GET', `/api/transFile/download/${id}`, d.adminToken)).body);
  return { id, units, result };
}

describe('documents reuse memories by sentence', () => {
  it('takes a known sentence inside a longer paragraph from the memory and sends only the new one to the engine', async () => {
    const from = d.peer.requests.length;
    const { units, result } = await translate('notes.txt', `${KNOWN} Another new sentence.\n`);
    expect(engineInputs(from)).toEqual(['Another new sentence.']);
    expect(units[0].sentences).toEqual([
      { source: KNOWN, target: KNOWN_ES, origin: 'tm:100' },
      { source: 'Another new sentence.', target: peerEs('Another new sentence.'), origin: expect.stringMatching(/^engine:/) },
    ]);
    // One paragraph in the file, as it came.
    expect(units).toHaveLength(1);
    expect(result.trim()).toBe(`${KNOWN_ES} ${peerEs('Another new sentence.')}`);
  });

  it('cuts at a line break inside a paragraph and keeps the break outside the sentences', async () => {
    const from = d.peer.requests.length;
    const { units, result } = await translate('lines.txt', `${KNOWN}\nA second line.\n`);
    expect(engineInputs(from)).toEqual(['A second line.']);
    expect(units[0].sentences.map((s: { source: string; origin: string }) => [s.source, s.origin.split(':')[0]])).toEqual([
      [KNOWN, 'tm'],
      ['A second line.', 'engine'],
    ]);
    expect(result).toBe(`${KNOWN_ES}\n${peerEs('A second line.')}\n`);
  });

  it('does not cut after abbreviations or inside numbers', async () => {
    const from = d.peer.requests.length;
    const text = 'Dr. Smith paid 3.5 dollars in the U.S. Army shop, e.g. for tea.';
    const { units } = await translate('abbr.txt', `${text} ${KNOWN}\n`);
    expect(engineInputs(from)).toEqual([text]);
    expect(units[0].sentences.map((s: { source: string }) => s.source)).toEqual([text, KNOWN]);
  });

  it('looks sentences up with their tags and keeps a pair spanning a sentence end whole', async () => {
    const from = d.peer.requests.length;
    const html = '<html><body><p>Click <b>Save</b> now. One <i>two. Three</i> four. Five.</p></body></html>';
    const { units, result } = await translate('page.html', html);
    expect(units[0].source).toBe('Click <1>Save</1> now. One <2>two. Three</2> four. Five.');
    expect(units[0].sentences.map((s: { source: string; origin: string }) => [s.source, s.origin.split(':')[0]])).toEqual([
      [TAGGED, 'tm'],
      ['One <2>two. Three</2> four.', 'engine'],
      ['Five.', 'engine'],
    ]);
    // The memory's sentence never reached the engine; the pair crossing "two. Three" went whole, as html.
    const sent = engineInputs(from);
    expect(sent.some((q) => q.includes('Save'))).toBe(false);
    expect(sent).toContain('One <span data-t="2">two. Three</span> four.');
    // One paragraph again, its tags as valid as the source's.
    expect(units[0].target).toBe(units[0].sentences.map((s: { target: string }) => s.target).join(' '));
    expect(units[0].target.startsWith(TAGGED_ES)).toBe(true);
    expect(checkTags(units[0].source, units[0].target)).toEqual([]);
    expect(result).toContain('<b>Guardar</b>');
    expect(result).toMatch(/<i>[^<]*<\/i>/);
  });
});
