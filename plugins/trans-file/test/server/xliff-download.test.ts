import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXliffWithToolkit, requireTool } from '@linguaport/sdk/testing';
import { call, EN, startDocKernel, upload, userWith, waitForFile, ZH, type DocKernel } from './support.js';

// Every document job downloads as XLIFF 1.2 and 2.1 (issue 23 item 5): the same units, sources,
// targets, states and inline codes, read by translate-toolkit (1.2) and by the platform's own XLIFF
// reader on a new upload (2.1: the toolkit has no XLIFF 2 reader).

let d: DocKernel;
let alice: { userId: number; token: string };
const toolkit = requireTool('po2tmx', { files: ['/usr/bin/python3'], debian: 'translate-toolkit' });

beforeAll(async () => {
  d = await startDocKernel({ plugins: ['formats-text'] });
  alice = await userWith(d.kernel, 'alice', ['transFile:use']);
});
afterAll(() => d?.close());

const XLIFF = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="app" source-language="en" target-language="es" datatype="plaintext">
    <body>
      <trans-unit id="approved" approved="yes">
        <source>Open the <g id="b">file</g></source>
        <target state="translated">Abrir el <g id="b">archivo</g></target>
        <note>A menu item</note>
      </trans-unit>
      <trans-unit id="code">
        <source>Click <g id="1">Save</g> now<x id="2"/></source>
      </trans-unit>
      <trans-unit id="fuzzy">
        <source>Save the file</source>
        <target state="needs-review-translation">Guardar archivo</target>
      </trans-unit>
    </body>
  </file>
</xliff>
`;
const HTML = '<html><body><p>Press <b>Print</b> to print<br>the page</p><p>Close the window</p></body></html>';

async function translated(name: string, content: string, fields: Record<string, string> = {}): Promise<number> {
  const res = await upload(d.kernel, alice.token, { sourceLang: 'en', targetLang: 'es', ...fields }, [{ name, content }]);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  const id = res.body.data[0].id;
  await waitForFile(d.kernel, alice.token, id, (f) => f.status === 'completed', 60_000);
  return id;
}
const unitsOf = async (id: number) => (await call(d.kernel, 'GET', `/api/transFile/units/${id}?pageNum=1&pageSize=100`, alice.token)).body.data.records as Array<{ source: string; target: string; origin: string }>;

function withToolkit(xml: string) {
  const dir = mkdtempSync(join(tmpdir(), 'xliff-dl-'));
  try {
    writeFileSync(join(dir, 'out.xlf'), xml);
    return readXliffWithToolkit(join(dir, 'out.xlf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('XLIFF downloads of a document job', () => {
  it.skipIf(!toolkit)('XLIFF 1.2 of an XLIFF and an HTML job: translate-toolkit reads the same units, states and inline codes', async () => {
    for (const [name, content] of [['app.xlf', XLIFF], ['page.html', HTML]] as const) {
      const id = await translated(name, content);
      const res = await call(d.kernel, 'GET', `/api/transFile/download/${id}?kind=xliff12`, alice.token);
      expect(res.status).toBe(200);
      expect(String(res.headers['content-type'])).toMatch(/^application\/xliff\+xml/);
      expect(String(res.headers['content-disposition'])).toMatch(name === 'app.xlf' ? /app_en_es\.xlf/ : /page_en_es\.html\.xlf/);
      const xml = res.raw.toString('utf8');
      const read = withToolkit(xml);
      expect([read.source, read.target]).toEqual(['en', 'es']);
      const units = await unitsOf(id);
      expect(read.units.map((u) => [u.source, u.target])).toEqual(units.map((u) => [u.source, u.target]));
      // Machine output needs review; a target kept from the file keeps its approval.
      for (const [k, u] of read.units.entries()) {
        if (units[k]!.origin.startsWith('engine')) expect([u.state, u.qualifier, u.approved]).toEqual(['needs-review-translation', 'mt-suggestion', false]);
      }
      if (name === 'app.xlf') {
        expect(read.units[0]).toMatchObject({ source: 'Open the <1>file</1>', target: 'Abrir el <1>archivo</1>', state: 'translated', approved: true, notes: 'A menu item' });
        expect(read.units[1]!.source).toBe('Click <1>Save</1> now<2/>');
        expect(read.units[1]!.target).toMatch(/<1>.*<\/1>.*<2\/>|<2\/>.*<1>.*<\/1>/);
      } else {
        expect(xml).toContain('<source xml:space="preserve">Press <g id="1">Print</g> to print<x id="2"/>the page</source>');
      }
    }
  }, 120_000);

  it('XLIFF 2.1: pc/ph codes and segment states, read back by the platform as the same units and targets', async () => {
    const id = await translated('app2.xlf', XLIFF);
    const res = await call(d.kernel, 'GET', `/api/transFile/download/${id}?kind=xliff21`, alice.token);
    expect(res.status).toBe(200);
    const xml = res.raw.toString('utf8');
    expect(xml).toMatch(/<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="en" trgLang="es">/);
    expect(xml).toContain('<source xml:space="preserve">Click <pc id="1">Save</pc> now<ph id="2"/></source>');
    expect(xml).toMatch(/<segment state="reviewed">\s*<source xml:space="preserve">Open the <pc id="1">file<\/pc><\/source>\s*<target xml:space="preserve">Abrir el <pc id="1">archivo<\/pc><\/target>/);
    expect(xml).toMatch(/<segment state="translated" subState="linguaport:mt=[^"]+">\s*<source xml:space="preserve">Save the file<\/source>/);
    expect(xml).toContain('<notes>\n        <note>A menu item</note>\n      </notes>');
    const units = await unitsOf(id);
    const again = await translated('again.xlf', xml, { existingTargets: 'keepAll' });
    expect((await unitsOf(again)).map((u) => [u.source, u.target, u.origin])).toEqual(units.map((u) => [u.source, u.target, 'file']));
  }, 120_000);

  it('refuses the XLIFF of another user\'s or an unknown job, in both languages', async () => {
    const id = await translated('mine.xlf', XLIFF);
    const bob = await userWith(d.kernel, 'bob', ['transFile:use']);
    const en = await call(d.kernel, 'GET', `/api/transFile/download/${id}?kind=xliff12`, bob.token, undefined, EN);
    expect(en.status).toBe(404);
    expect(en.body.msg).toMatch(/not found/i);
    const zh = await call(d.kernel, 'GET', '/api/transFile/download/99999?kind=xliff21', alice.token, undefined, ZH);
    expect(zh.status).toBe(404);
    expect(zh.body.msg).toMatch(/不存在/);
  }, 120_000);
});
