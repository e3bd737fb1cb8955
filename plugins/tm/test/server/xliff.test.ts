import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole, readXliffWithToolkit, requireTool, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// Issue 23 item 5: a memory exports as XLIFF 1.2 and 2.1 (its entries' texts, inline codes as g/x and
// pc/ph, review state, notes), read by translate-toolkit, and imports XLIFF (1.2, 2.x) and PO as well as
// TMX, read by the format registry's readers: an export imported into a new memory gives the same entries.

let k: TestKernel;
let token: string;
const dir = mkdtempSync(join(tmpdir(), 'tm-xliff-'));
const toolkit = requireTool('po2tmx', { files: ['/usr/bin/python3'], debian: 'translate-toolkit' });

async function call(method: string, url: string, payload?: unknown, locale = 'en-US') {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { jwt: token, cookie: `locale=${locale}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body, headers: res.headers };
}

async function upload(libraryId: number, name: string, content: string, locale = 'en-US') {
  const boundary = '----tmxliff';
  const fields = { libraryId: String(libraryId), sourceLang: 'en', targetLang: 'es' };
  const parts: Buffer[] = [];
  for (const [n, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n--${boundary}--\r\n`));
  const res = await k.app.inject({ method: 'POST', url: '/api/TM/import', headers: { jwt: token, cookie: `locale=${locale}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}

async function memory(name: string): Promise<number> {
  const created = await call('POST', '/api/TM/library/add', { name, ownership: 'all', users: [] });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.data.id;
}

const entries = async (libraryId: number) =>
  ((await call('GET', `/api/TM/entry/list?libraryId=${libraryId}&pageSize=100`)).body.data.records as Array<{ id: number; source: string; target: string; status: string }>)
    .map((e) => [e.source, e.target])
    .sort((a, b) => a[0]!.localeCompare(b[0]!));

const TMX = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header creationtool="t" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" srclang="en" datatype="html"/>
<body>
  <tu tuid="press"><note>Toolbar button</note><tuv xml:lang="en"><seg>Press <bpt i="1">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> now.<ph x="2">&lt;br/&gt;</ph></seg></tuv><tuv xml:lang="es"><seg>Pulse <bpt i="1">&lt;b&gt;</bpt>Guardar<ept i="1">&lt;/b&gt;</ept> ahora.<ph x="2">&lt;br/&gt;</ph></seg></tuv></tu>
  <tu><tuv xml:lang="en"><seg>The contract is valid &amp; signed.</seg></tuv><tuv xml:lang="es"><seg>El contrato es válido y firmado.</seg></tuv></tu>
  <tu><tuv xml:lang="en"><seg>Close the window.</seg></tuv><tuv xml:lang="es"><seg>Cierre la ventana.</seg></tuv></tu>
</body></tmx>`;

let source: number;
beforeAll(async () => {
  k = await startTestKernel({ plugins: ['tm', 'formats-text', 'service'] });
  await createUserWithRole(k, 'tmx-owner', 'Owner-Passw0rd!', 'tmx owners', ['tm:view', 'tm:library', 'tm:add', 'tm:edit', 'tm:review', 'tm:import', 'tm:export']);
  token = await k.login('tmx-owner', 'Owner-Passw0rd!');
  source = await memory('Source memory');
  const imported = await upload(source, 'seed.tmx', TMX);
  expect(imported.body.data, JSON.stringify(imported.body)).toMatchObject({ imported: 3, rejected: 0 });
  // One entry reviewed: exported as approved/reviewed, the others as translated.
  const first = (await call('GET', `/api/TM/entry/list?libraryId=${source}&text=contract`)).body.data.records[0].id;
  expect((await call('POST', '/api/TM/entry/review', { ids: [first], action: 'pass' })).status).toBe(200);
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

describe('memory XLIFF export and bilingual imports', () => {
  it.skipIf(!toolkit)('XLIFF 1.2 export: translate-toolkit reads every entry with its codes, state and note', async () => {
    const res = await call('GET', `/api/TM/export?libraryId=${source}&scope=all&format=xliff12`);
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/xliff\+xml/);
    expect(String(res.headers['content-disposition'])).toMatch(/\.xlf$/);
    writeFileSync(join(dir, 'memory.xlf'), res.body);
    const read = readXliffWithToolkit(join(dir, 'memory.xlf'));
    expect([read.source, read.target]).toEqual(['en', 'es']);
    const byId = new Map(read.units.map((u) => [u.source, u]));
    expect(byId.get('Press <1>Save</1> now.<2/>')).toMatchObject({ id: expect.stringMatching(/press$/), target: 'Pulse <1>Guardar</1> ahora.<2/>', state: 'translated', approved: false, notes: 'Toolbar button' });
    expect(byId.get('The contract is valid & signed.')).toMatchObject({ target: 'El contrato es válido y firmado.', state: 'translated', approved: true });
    expect(read.units).toHaveLength(3);
  });

  it('XLIFF 1.2 and 2.1 exports import into a new memory as the same entries', async () => {
    const want = await entries(source);
    for (const format of ['xliff12', 'xliff21'] as const) {
      const res = await call('GET', `/api/TM/export?libraryId=${source}&scope=all&format=${format}`);
      expect(res.status).toBe(200);
      if (format === 'xliff21') {
        expect(res.body).toContain('<source xml:space="preserve">Press <pc id="1">Save</pc> now.<ph id="2"/></source>');
        expect(res.body).toMatch(/<segment state="reviewed">\s*<source xml:space="preserve">The contract is valid &amp; signed\.<\/source>/);
      }
      const copy = await memory(`Copy ${format}`);
      const imported = await upload(copy, `memory.${format === 'xliff21' ? 'xliff' : 'xlf'}`, res.body);
      expect(imported.body.data, JSON.stringify(imported.body)).toMatchObject({ imported: 3, rejected: 0 });
      expect(await entries(copy)).toEqual(want);
      const again = await call('GET', `/api/TM/export?libraryId=${copy}&scope=all&format=xliff12`);
      expect(again.body).toContain('<source xml:space="preserve">Press <g id="1">Save</g> now.<x id="2"/></source>');
      expect(again.body).toContain('<note>Toolbar button</note>');
    }
  });

  it('imports a PO file: translated entries in, fuzzy and empty ones refused with their reason', async () => {
    const po = `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: es\\n"\n\n#. A greeting\nmsgid "Hello %s, welcome"\nmsgstr "Hola %s, bienvenido"\n\n#, fuzzy\nmsgid "Open the file"\nmsgstr "Abrir archivo"\n\nmsgid "Print"\nmsgstr ""\n`;
    const target = await memory('From PO');
    const res = await upload(target, 'app.po', po);
    expect(res.body.data, JSON.stringify(res.body)).toMatchObject({ imported: 1, rejected: 2 });
    expect(res.body.data.rejections.map((r: { reason: string }) => r.reason)).toEqual(['the translation is marked as needing work (fuzzy)', 'the unit has no translation']);
    const list = (await call('GET', `/api/TM/entry/list?libraryId=${target}`)).body.data.records;
    expect(list.map((e: { source: string; target: string }) => [e.source, e.target])).toEqual([['Hello <1/>, welcome', 'Hola <1/>, bienvenido']]);
  });

  it('refuses a malformed XLIFF with the reader\'s line and column in both languages, importing nothing', async () => {
    const target = await memory('Refused');
    const broken = `<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="a" source-language="en" target-language="es" datatype="plaintext"><body>\n<trans-unit id="1"><source>One</source><target>Uno</target></trans-unit>\n<trans-unit id="2" id="3"><source>Two</source></trans-unit></body></file></xliff>`;
    const en = await upload(target, 'bad.xlf', broken);
    expect(en.status).toBe(400);
    expect(en.body.msg).toMatch(/^bad\.xlf: not a valid XLIFF file \(xliff: not well-formed XML: .*line 4, column \d+\)\)$/);
    const zh = await upload(target, 'bad.xlf', broken, 'zh-CN');
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toMatch(/^bad\.xlf：不是有效的 XLIFF 文件（xliff: not well-formed XML: .*line 4, column \d+\)）$/);
    const other = await upload(target, 'de.xlf', broken.replace('source-language="en"', 'source-language="de"').replace(' id="3"', ''));
    expect(other.status).toBe(400);
    expect(other.body.msg).toBe('de.xlf: the file is de → es, not en → es');
    expect(await entries(target)).toEqual([]);
  });
});
