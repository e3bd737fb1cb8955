import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTmx, type TmxHeader, type TmxUnit } from '@linguaport/interchange';
import { createUserWithRole, startTestKernel, tmx2po, type TestKernel } from '@linguaport/sdk/testing';

// What a TMX unit says besides its texts survives import and export (issue 23 item 3): tuid, dates,
// usage, props and notes of the unit and of each tuv; notes in the entry list and in matches; the
// header's datatype and o-tmf per memory, and an honest datatype; a unit with a broken bpt/ept pairing
// refused with its own reason while the others import.

let k: TestKernel;
let owner: string;
const dir = mkdtempSync(join(tmpdir(), 'tm-metadata-'));

async function call(method: string, url: string, payload?: unknown, locale = 'en-US') {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { jwt: owner, cookie: `locale=${locale}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body, raw: res };
}

async function upload(libraryId: number, sourceLang: string, targetLang: string, name: string, content: string, locale = 'en-US') {
  const boundary = '----tmmetadata';
  const parts: Buffer[] = [];
  for (const [n, v] of Object.entries({ libraryId: String(libraryId), sourceLang, targetLang })) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n--${boundary}--\r\n`));
  const res = await k.app.inject({ method: 'POST', url: '/api/TM/import', headers: { jwt: owner, cookie: `locale=${locale}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}

async function memory(name: string): Promise<number> {
  const res = await call('POST', '/api/TM/library/add', { name, ownership: 'all', kind: 'shared', users: [] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id;
}

async function readAll(xml: string): Promise<{ header: TmxHeader; units: TmxUnit[] }> {
  let header: TmxHeader | undefined;
  const units: TmxUnit[] = [];
  for await (const u of readTmx([xml], (h) => (header = h))) units.push(u);
  return { header: header!, units };
}

const TMX = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4">
  <header creationtool="SDL Trados" creationtoolversion="9.0" datatype="html" segtype="sentence" adminlang="en-US" srclang="en-US" o-tmf="TW4Win 2.0" creationdate="20200101T000000Z"/>
  <body>
    <tu tuid="legal-0001" creationdate="20190304T101112Z" creationid="ANNA" changedate="20210506T070809Z" changeid="BORIS" usagecount="7" lastusagedate="20220102T030405Z">
      <note>Contract clause: keep the formal register.</note>
      <prop type="x-domain">Legal</prop>
      <prop type="x-client">ACME &amp; Sons</prop>
      <prop type="x-domain">Contracts</prop>
      <tuv xml:lang="en-US" creationid="ANNA" creationdate="20190304T101112Z"><prop type="x-origin">source file</prop><seg>Press <bpt i="1" x="1">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> before you sign.</seg></tuv>
      <tuv xml:lang="de-DE" changeid="BORIS" changedate="20210506T070809Z"><note>Checked by the legal team.</note><seg>Drücken Sie <bpt i="1" x="1">&lt;b&gt;</bpt>Speichern<ept i="1">&lt;/b&gt;</ept>, bevor Sie unterschreiben.</seg></tuv>
    </tu>
    <tu tuid="legal-0002" usagecount="0">
      <prop type="x-review-state">checked</prop>
      <tuv xml:lang="en-US"><seg>The contract ends on 31 May.</seg></tuv>
      <tuv xml:lang="de-DE"><seg>Der Vertrag endet am 31. Mai.</seg></tuv>
    </tu>
    <tu>
      <tuv xml:lang="en-US"><seg>Both parties keep a copy.</seg></tuv>
      <tuv xml:lang="de-DE"><seg>Beide Parteien behalten eine Kopie.</seg></tuv>
    </tu>
  </body>
</tmx>
`;

const tmxWith = (header: string, units: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n  <header ${header} creationtool="t" creationtoolversion="1" segtype="sentence" adminlang="en" srclang="en"/>\n  <body>\n${units}  </body>\n</tmx>\n`;
const unit = (en: string, de: string) => `    <tu><tuv xml:lang="en"><seg>${en}</seg></tuv><tuv xml:lang="de"><seg>${de}</seg></tuv></tu>\n`;

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['tm'] });
  await createUserWithRole(k, 'tm-metadata', 'Metadata-Passw0rd!', 'memory owners', ['tm:view', 'tm:library', 'tm:add', 'tm:edit', 'tm:review', 'tm:import', 'tm:export']);
  owner = await k.login('tm-metadata', 'Metadata-Passw0rd!');
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

describe('TMX metadata survives a round trip', () => {
  it('keeps tuid, dates, usage, props and notes of units and variants, and writes them back (translate-toolkit reads the export)', async () => {
    const id = await memory('Legal metadata');
    const imported = await upload(id, 'en-US', 'de-DE', 'legal.tmx', TMX);
    expect(imported.body.data, JSON.stringify(imported.body)).toMatchObject({ imported: 3, rejected: 0 });

    // The entry list shows each entry's notes and metadata.
    const list = (await call('GET', `/api/TM/entry/list?libraryId=${id}&pageSize=10&sortBy=createdAt&sortOrder=asc`)).body.data.records as Array<{ id: number; source: string; notes: string[]; metadata: Record<string, unknown> }>;
    const first = list.find((e) => e.source.startsWith('Press'))!;
    expect(first.notes).toEqual(['Contract clause: keep the formal register.', 'Checked by the legal team.']);
    expect(first.metadata).toMatchObject({ tuid: 'legal-0001', attrs: { usagecount: '7', creationid: 'ANNA' }, props: [{ type: 'x-domain', value: 'Legal' }, { type: 'x-client', value: 'ACME & Sons' }, { type: 'x-domain', value: 'Contracts' }] });

    // A match carries the notes for a CAT editor.
    const match = await call('GET', `/api/TM/match?libraryIds=${id}&sourceLang=en-US&targetLang=de-DE&text=${encodeURIComponent('Press <1>Save</1> before you sign it.')}`);
    expect(match.status).toBe(200);
    expect(match.body.data.matches[0]).toMatchObject({ entryId: first.id, notes: ['Contract clause: keep the formal register.', 'Checked by the legal team.'] });

    const res = await call('GET', `/api/TM/export?libraryId=${id}&scope=all`);
    expect(res.status).toBe(200);
    const back = await readAll(res.raw.body);
    const original = await readAll(TMX);
    // The header: the file's datatype and o-tmf.
    expect(back.header.attrs).toMatchObject({ datatype: 'html', 'o-tmf': 'TW4Win 2.0' });
    const strip = (u: TmxUnit) => ({
      tuid: u.tuid,
      attrs: u.attrs,
      notes: u.notes,
      props: u.props.filter((p) => p.type !== 'x-review-state'),
      variants: u.variants.map((v) => ({ tag: v.tag, text: v.text, attrs: v.attrs, notes: v.notes, props: v.props })),
    });
    expect(back.units.slice(0, 2).map(strip)).toEqual(original.units.slice(0, 2).map(strip));
    // The platform's own review state is said once, as the entry's now (not the file's old one).
    expect(back.units[1]!.props.filter((p) => p.type === 'x-review-state')).toEqual([{ type: 'x-review-state', value: 'unchecked' }]);
    // A unit without a tuid gets its entry's id.
    const third = list.find((e) => e.source.startsWith('Both'))!;
    expect(back.units[2]!.tuid).toBe(String(third.id));

    const file = join(dir, 'legal.tmx');
    writeFileSync(file, res.raw.body);
    const toolkit = tmx2po(file, 'en-US', 'de-DE');
    expect(toolkit.pocount).toBe(3);
    const script = 'import json,sys\nfrom translate.storage import tmx\ns=tmx.tmxfile(open(sys.argv[1],"rb"))\nprint(json.dumps([[u.getid(), u.getnotes()] for u in s.units]))';
    const read = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' })) as [string, string][];
    expect(read[0]).toEqual(['legal-0001', 'Contract clause: keep the formal register.\nChecked by the legal team.']);
    expect(read[1]![0]).toBe('legal-0002');
  });

  it('sets the changedate of an edited entry and keeps the rest', async () => {
    const id = await memory('Edited metadata');
    await upload(id, 'en-US', 'de-DE', 'legal.tmx', TMX);
    const list = (await call('GET', `/api/TM/entry/list?libraryId=${id}&pageSize=10`)).body.data.records as Array<{ id: number; source: string; target: string }>;
    const e = list.find((x) => x.source.startsWith('The contract'))!;
    const edited = await call('PUT', '/api/TM/entry/update', { id: e.id, source: e.source, target: 'Der Vertrag läuft am 31. Mai aus.' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.metadata.tuid).toBe('legal-0002');
    expect(edited.body.data.metadata.attrs.usagecount).toBe('0');
    expect(edited.body.data.metadata.attrs.changedate).toMatch(/^\d{8}T\d{6}Z$/);
  });

  it('writes an honest datatype: html or rtf when segments carry such codes, whatever the header said', async () => {
    const html = await memory('Html codes');
    await upload(html, 'en', 'de', 'a.tmx', tmxWith('datatype="plaintext" o-tmf="Other"', unit('Press <bpt i="1">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept>.', 'Drücken Sie <bpt i="1">&lt;b&gt;</bpt>Speichern<ept i="1">&lt;/b&gt;</ept>.')));
    const a = await readAll((await call('GET', `/api/TM/export?libraryId=${html}&scope=all`)).raw.body);
    expect(a.header.attrs).toMatchObject({ datatype: 'html', 'o-tmf': 'Other' });

    const rtf = await memory('Rtf codes');
    await upload(rtf, 'en', 'de', 'b.tmx', tmxWith('datatype="plaintext" o-tmf="Rtf tool"', unit('Press <bpt i="1">{\\b </bpt>Save<ept i="1">}</ept>.', 'Drücken Sie <bpt i="1">{\\b </bpt>Speichern<ept i="1">}</ept>.')));
    const b = await readAll((await call('GET', `/api/TM/export?libraryId=${rtf}&scope=all`)).raw.body);
    expect(b.header.attrs.datatype).toBe('rtf');

    // Plain text stays plaintext, and a memory without an imported header says the platform made it.
    const plain = await memory('Plain text');
    await upload(plain, 'en', 'de', 'c.txt', 'The car is red.\tDas Auto ist rot.\n');
    const c = await readAll((await call('GET', `/api/TM/export?libraryId=${plain}&scope=all`)).raw.body);
    expect(c.header.attrs).toMatchObject({ datatype: 'plaintext', 'o-tmf': 'Linguaport' });
    // An entry made here gets its id and its creation date.
    expect(c.units[0]!.tuid).toMatch(/^\d+$/);
    expect(c.units[0]!.attrs?.creationdate).toMatch(/^\d{8}T\d{6}Z$/);
  });

  it('refuses a unit with a broken bpt/ept pairing with its own reason, in both languages, and imports the others', async () => {
    const units =
      unit('First <bpt i="1">&lt;b&gt;</bpt>good<ept i="1">&lt;/b&gt;</ept> one.', 'Erster <bpt i="1">&lt;b&gt;</bpt>guter<ept i="1">&lt;/b&gt;</ept> Satz.') +
      unit('An end <ept i="2">&lt;/b&gt;</ept>before <bpt i="2">&lt;b&gt;</bpt>its start.', 'Ein Ende vor dem Anfang.') +
      unit('Twice <bpt i="3">&lt;b&gt;</bpt>one<ept i="3">&lt;/b&gt;</ept> and <bpt i="3">&lt;i&gt;</bpt>the same<ept i="3">&lt;/i&gt;</ept>.', 'Zweimal dasselbe.') +
      unit('Never <bpt i="4">&lt;b&gt;</bpt>closed.', 'Nie geschlossen.') +
      unit('The source is fine.', 'Das Ziel <ept i="5">&lt;/b&gt;</ept>nicht.') +
      unit('Last good one.', 'Letzter guter Satz.');
    const file = tmxWith('datatype="html" o-tmf="x"', units);
    const en = await upload(await memory('Broken pairs'), 'en', 'de', 'broken.tmx', file);
    expect(en.status).toBe(200);
    expect(en.body.data).toMatchObject({ imported: 2, rejected: 4 });
    expect(en.body.data.rejections).toEqual([
      { file: 'broken.tmx', row: 2, reason: 'unbalanced bpt/ept i=2: an ept before (or without) its bpt (en)' },
      { file: 'broken.tmx', row: 3, reason: 'duplicated i=3: two bpt of the segment share it (en)' },
      { file: 'broken.tmx', row: 4, reason: 'unbalanced bpt/ept i=4: a bpt whose ept never comes (en)' },
      { file: 'broken.tmx', row: 5, reason: 'unbalanced bpt/ept i=5: an ept before (or without) its bpt (de)' },
    ]);
    const zh = await upload(await memory('Broken pairs zh'), 'en', 'de', 'broken.tmx', file, 'zh-CN');
    expect(zh.body.data.rejections[0].reason).toBe('bpt/ept 不配对 i=2：ept 出现在对应的 bpt 之前（或没有 bpt）（en）');
  });
});
