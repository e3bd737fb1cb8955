import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeZip } from '@linguaport/sdk/interchange';
import type { FormatRegistry } from '@linguaport/sdk/shared';
import { readXliffWithToolkit, requireTool, startTestKernel, textSeenByLibreOffice, type TestKernel } from '@linguaport/sdk/testing';
import { changeSegment, deliverFile, deliverXliff, importSegments, lockSegments, revisionsOf, segmentsOf, StaleSegmentError, type Segment } from '../../server/segments.js';
import type { CatDatabase } from '../../server/tables.js';

// The segment store on the real kernel's database (PGlite, or PostgreSQL when DATABASE_URL is set),
// reading and writing files through the deployment's format registry (formats-office, formats-text).

let kernel: TestKernel;
let db: Kysely<CatDatabase>;
let formats: FormatRegistry;

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['formats-office', 'formats-text', 'cat', { id: 'cat-probe', path: join(import.meta.dirname, '..', 'fixtures', 'cat-probe') }], builtinEngine: false });
  db = kernel.database.db as unknown as Kysely<CatDatabase>;
  formats = (globalThis as Record<symbol, unknown>)[Symbol.for('linguaport.test.catFormats')] as FormatRegistry;
}, 120_000);

afterAll(async () => {
  await kernel?.shutdown();
});

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const str = (b: Uint8Array) => Buffer.from(b).toString('utf8');
let nextFile = 1;

// As Okapi/Trados-style tools write 1.2: approved and signed-off targets, a translated one, one that
// needs review, an empty one; codes as <g>, <x/> and <ph>.
const XLIFF12 = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="guide.html" source-language="en-US" target-language="fr-FR" datatype="html">
    <body>
      <trans-unit id="1" approved="yes">
        <source>Click <g id="1">Save</g> to keep<x id="2"/> your work.</source>
        <target state="final">Cliquez sur <g id="1">Enregistrer</g> pour garder<x id="2"/> votre travail.</target>
      </trans-unit>
      <trans-unit id="2">
        <source>Press <ph id="1">&lt;kbd&gt;Enter&lt;/kbd&gt;</ph> now.</source>
        <target state="translated">Appuyez sur <ph id="1">&lt;kbd&gt;Enter&lt;/kbd&gt;</ph> maintenant.</target>
      </trans-unit>
      <trans-unit id="3">
        <source>The file is open.</source>
        <target state="needs-review-translation" state-qualifier="mt-suggestion">Le fichier est ouvert.</target>
      </trans-unit>
      <trans-unit id="4">
        <source>Nothing here yet.</source>
      </trans-unit>
      <trans-unit id="5">
        <source>Signed off.</source>
        <target state="signed-off">Validé.</target>
      </trans-unit>
      <trans-unit id="6">
        <source>The file is open.</source>
        <target state="new"></target>
      </trans-unit>
    </body>
  </file>
</xliff>
`;

// As XLIFF 2 tools write it: segment states, <pc> and <ph/> codes.
const XLIFF20 = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="de">
  <file id="f1">
    <unit id="u1">
      <segment state="final">
        <source>Open <pc id="1">the menu</pc>.</source>
        <target>Öffnen Sie <pc id="1">das Menü</pc>.</target>
      </segment>
    </unit>
    <unit id="u2">
      <segment state="translated">
        <source>Line<ph id="1"/>break.</source>
        <target>Zeilen<ph id="1"/>umbruch.</target>
      </segment>
    </unit>
    <unit id="u3">
      <segment state="reviewed">
        <source>Reviewed.</source>
        <target>Geprüft.</target>
      </segment>
    </unit>
    <unit id="u4">
      <segment>
        <source>Draft only.</source>
        <target>Nur Entwurf.</target>
      </segment>
    </unit>
    <unit id="u5">
      <segment>
        <source>Empty.</source>
      </segment>
    </unit>
  </file>
</xliff>
`;

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
function docx(paragraphs: string[]): Uint8Array {
  const body = paragraphs.map((p) => `<w:p>${p}</w:p>`).join('');
  return new Uint8Array(
    writeZip([
      { name: '[Content_Types].xml', data: Buffer.from('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>') },
      { name: '_rels/.rels', data: Buffer.from('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>') },
      { name: 'word/document.xml', data: Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body>${body}</w:body></w:document>`) },
    ]),
  );
}
const run = (t: string, bold = false) => `<w:r>${bold ? '<w:rPr><w:b/></w:rPr>' : ''}<w:t xml:space="preserve">${t}</w:t></w:r>`;
const DOCX = docx([
  run('The report is ready. ') + run('Read it', true) + run(' before Monday.'),
  run('Thank you.'),
  run('The report is ready.'),
  run('12.5'),
]);

async function all(fileId: number): Promise<Segment[]> {
  return segmentsOf(db, fileId);
}

/** Every row of the store's tables, to prove a refusal changed nothing. */
async function digest(): Promise<string> {
  const segments = await sql`select * from cat_segments order by id`.execute(db);
  const revisions = await sql`select * from cat_segment_revisions order by id`.execute(db);
  const imports = await sql`select * from cat_segment_imports order by file_id`.execute(db);
  return JSON.stringify([segments.rows, revisions.rows, imports.rows]);
}

async function drain(pieces: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const p of pieces) out += p;
  return out;
}

describe('importing a file into segments', () => {
  it('keeps an XLIFF 1.2 file’s targets with their states mapped in, inline codes structured', async () => {
    const fileId = nextFile++;
    const result = await importSegments(db, formats, { fileId, fileName: 'guide.xlf', bytes: utf8(XLIFF12), sourceLanguage: 'en' });
    expect(result).toMatchObject({ format: 'xliff', segments: 6, paragraphs: 6, repeated: 1 });
    const segs = await all(fileId);
    expect(segs.map((s) => [s.unitId, s.state, s.origin?.kind ?? null, s.origin?.fileState ?? null])).toEqual([
      ['1', 'reviewConfirmed', 'file', 'final approved'],
      ['2', 'confirmed', 'file', 'translated'],
      ['3', 'unconfirmed', 'file', 'needs-review-translation'],
      ['4', 'unconfirmed', null, null],
      ['5', 'reviewConfirmed', 'file', 'signed-off'],
      // An empty target is no target.
      ['6', 'unconfirmed', null, null],
    ]);
    expect(segs[0]).toMatchObject({ source: 'Click <1>Save</1> to keep<2/> your work.', target: 'Cliquez sur <1>Enregistrer</1> pour garder<2/> votre travail.', version: 1, locked: false });
    expect(segs[0]!.tags).toEqual({ 1: { kind: 'paired', original: '<g id="1">', closing: '</g>' }, 2: { kind: 'standalone', original: '<x id="2"/>' } });
    expect(segs[1]!.tags['1']).toMatchObject({ kind: 'standalone', original: '<ph id="1">&lt;kbd&gt;Enter&lt;/kbd&gt;</ph>' });
    expect(segs[3]!.target).toBeNull();
    // Unit 6 repeats unit 3's source.
    expect(segs.map((s) => s.marks.repeated)).toEqual([false, false, false, false, false, true]);
  });

  it('maps XLIFF 2 segment states in and keeps <pc>/<ph> codes', async () => {
    const fileId = nextFile++;
    await importSegments(db, formats, { fileId, fileName: 'menu.xlf', bytes: utf8(XLIFF20), sourceLanguage: 'en' });
    const segs = await all(fileId);
    expect(segs.map((s) => [s.unitId, s.state, s.target])).toEqual([
      ['u1', 'reviewConfirmed', 'Öffnen Sie <1>das Menü</1>.'],
      ['u2', 'confirmed', 'Zeilen<1/>umbruch.'],
      ['u3', 'reviewConfirmed', 'Geprüft.'],
      ['u4', 'unconfirmed', 'Nur Entwurf.'],
      ['u5', 'unconfirmed', null],
    ]);
    expect(segs[0]!.tags['1']).toMatchObject({ kind: 'paired', original: '<pc id="1">', closing: '</pc>' });
    expect(segs[1]!.tags['1']).toMatchObject({ kind: 'standalone', original: '<ph id="1"/>' });
  });

  it('takes a project’s own state mapping', async () => {
    const fileId = nextFile++;
    await importSegments(db, formats, { fileId, fileName: 'guide.xlf', bytes: utf8(XLIFF12), sourceLanguage: 'en', states: { byNative: { 'needs-review-translation': 'confirmed' }, byStage: { final: 'confirmed' } } });
    const segs = await all(fileId);
    expect(segs.map((s) => s.state)).toEqual(['confirmed', 'confirmed', 'confirmed', 'unconfirmed', 'confirmed', 'unconfirmed']);
  });

  it('cuts a docx’s paragraphs into sentences with their codes, position and repetitions', async () => {
    const fileId = nextFile++;
    const result = await importSegments(db, formats, { fileId, fileName: 'report.docx', bytes: DOCX, sourceLanguage: 'en' });
    expect(result).toMatchObject({ format: 'docx', paragraphs: 4, segments: 5, repeated: 1 });
    const segs = await all(fileId);
    expect(segs.map((s) => [s.paragraph, s.position, s.source, s.state, s.target, s.marks.repeated])).toEqual([
      [0, 0, 'The report is ready.', 'unconfirmed', null, false],
      [0, 1, '<1>Read it</1> before Monday.', 'unconfirmed', null, false],
      [1, 0, 'Thank you.', 'unconfirmed', null, false],
      [2, 0, 'The report is ready.', 'unconfirmed', null, true],
      [3, 0, '12.5', 'unconfirmed', null, false],
    ]);
    expect(segs[1]!.tags['1']).toMatchObject({ kind: 'paired' });
    expect(segs[0]!.tags).toEqual({});
  });

  it('lets one of two imports of the same file at once win, whole, and refuses the other', async () => {
    const fileId = nextFile++;
    const both = await Promise.allSettled([0, 1].map(() => importSegments(db, formats, { fileId, fileName: 'guide.xlf', bytes: utf8(XLIFF12), sourceLanguage: 'en' })));
    expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((both.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ code: 409 });
    expect((await all(fileId)).map((s) => s.unitId)).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('a retried task takes over an import its crashed process left unfinished; without restart it is refused', async () => {
    const fileId = nextFile++;
    // What a process that died mid-import leaves: the claim and some segments.
    await sql`insert into cat_segment_imports (file_id, format) values (${fileId}, 'xliff')`.execute(db);
    await sql`insert into cat_segments (file_id, paragraph, unit_id, position, source, source_key) values (${fileId}, 0, '1', 0, 'half', 'k')`.execute(db);
    await expect(importSegments(db, formats, { fileId, fileName: 'guide.xlf', bytes: utf8(XLIFF12), sourceLanguage: 'en' })).rejects.toMatchObject({ code: 409 });
    expect(await importSegments(db, formats, { fileId, fileName: 'guide.xlf', bytes: utf8(XLIFF12), sourceLanguage: 'en', restart: true })).toMatchObject({ segments: 6 });
    expect((await all(fileId)).map((s) => s.source)).not.toContain('half');
    // Finished now: even a restart is refused.
    await expect(importSegments(db, formats, { fileId, fileName: 'guide.xlf', bytes: utf8(XLIFF12), sourceLanguage: 'en', restart: true })).rejects.toMatchObject({ code: 409 });
  });

  it('an aborted or failed import leaves nothing and can be done again', async () => {
    const fileId = nextFile++;
    const stop = new AbortController();
    stop.abort();
    await expect(importSegments(db, formats, { fileId, fileName: 'guide.xlf', bytes: utf8(XLIFF12), sourceLanguage: 'en', signal: stop.signal })).rejects.toThrow();
    await expect(importSegments(db, formats, { fileId, fileName: 'guide.xlf', bytes: utf8('<xliff version="1.2"><file><body><trans-unit id="1"><source>a</trans-unit>'), sourceLanguage: 'en' })).rejects.toMatchObject({ code: 400 });
    expect(await all(fileId)).toEqual([]);
    expect(await importSegments(db, formats, { fileId, fileName: 'guide.xlf', bytes: utf8(XLIFF12), sourceLanguage: 'en' })).toMatchObject({ segments: 6 });
  });

  it('refuses a second import of a file, an unsupported format and a broken file, changing nothing', async () => {
    const fileId = nextFile++;
    await importSegments(db, formats, { fileId, fileName: 'guide.xlf', bytes: utf8(XLIFF12), sourceLanguage: 'en' });
    const before = await digest();
    await expect(importSegments(db, formats, { fileId, fileName: 'guide.xlf', bytes: utf8(XLIFF12), sourceLanguage: 'en' })).rejects.toMatchObject({ code: 409 });
    await expect(importSegments(db, formats, { fileId: nextFile++, fileName: 'a.unknownext', bytes: utf8('x'), sourceLanguage: 'en' })).rejects.toMatchObject({ code: 400, messages: { 'zh-CN': expect.any(String), 'en-US': expect.stringContaining('not supported') } });
    await expect(importSegments(db, formats, { fileId: nextFile++, fileName: 'broken.xlf', bytes: utf8('<xliff version="1.2"><file><body><trans-unit id="1"><source>a</trans-unit>'), sourceLanguage: 'en' })).rejects.toMatchObject({ code: 400 });
    expect(await digest()).toBe(before);
  });
});

describe('changing targets', () => {
  it('keeps every change as a revision and refuses a stale version with both texts, changing nothing', async () => {
    const fileId = nextFile++;
    await importSegments(db, formats, { fileId, fileName: 'report.docx', bytes: DOCX, sourceLanguage: 'en' });
    const [first] = await all(fileId);
    const a = await changeSegment(db, { segmentId: first!.id, version: 1, authorId: 7, target: 'Le rapport est prêt.', actions: ['confirm'] });
    expect(a).toMatchObject({ version: 2, target: 'Le rapport est prêt.', state: 'confirmed', editorId: 7, origin: { kind: 'human' } });
    const b = await changeSegment(db, { segmentId: first!.id, version: 2, authorId: 8, target: 'Le rapport est terminé.', origin: { kind: 'memory', score: 87, memoryId: 3 } });
    expect(b).toMatchObject({ version: 3, state: 'unconfirmed', origin: { kind: 'memory', score: 87, memoryId: 3 } });

    const before = await digest();
    const stale = await changeSegment(db, { segmentId: first!.id, version: 2, authorId: 7, target: 'Mon texte.' }).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(StaleSegmentError);
    expect(stale).toMatchObject({ code: 409, data: { yourTarget: 'Mon texte.', currentTarget: 'Le rapport est terminé.', currentVersion: 3, yourVersion: 2, currentEditorId: 8 } });
    expect((stale as StaleSegmentError).messages?.['zh-CN']).toContain('版本 3');
    expect(await digest()).toBe(before);

    expect(await revisionsOf(db, first!.id)).toMatchObject([
      { version: 2, authorId: 7, oldTarget: null, newTarget: 'Le rapport est prêt.', oldState: 'unconfirmed', newState: 'confirmed', origin: 'human' },
      { version: 3, authorId: 8, oldTarget: 'Le rapport est prêt.', newTarget: 'Le rapport est terminé.', oldState: 'confirmed', newState: 'unconfirmed', origin: 'memory' },
    ]);
    // History cannot be rewritten, whoever tries.
    await expect(sql`update cat_segment_revisions set new_target = 'x' where segment_id = ${first!.id}`.execute(db)).rejects.toThrow(/append-only/);
  });

  it('takes one of two writes on the same version at once and refuses the other with both texts', async () => {
    const fileId = nextFile++;
    await importSegments(db, formats, { fileId, fileName: 'report.docx', bytes: DOCX, sourceLanguage: 'en' });
    const [, , third] = await all(fileId);
    const both = await Promise.allSettled(['Merci.', 'Merci beaucoup.'].map((target, k) => changeSegment(db, { segmentId: third!.id, version: 1, authorId: 10 + k, target })));
    const won = both.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<Segment>;
    const lost = both.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(won.value.version).toBe(2);
    expect(lost.reason).toBeInstanceOf(StaleSegmentError);
    expect(lost.reason.data).toMatchObject({ currentTarget: won.value.target, currentVersion: 2 });
    expect([lost.reason.data.yourTarget, won.value.target].sort()).toEqual(['Merci beaucoup.', 'Merci.']);
    expect((await revisionsOf(db, third!.id)).map((r) => r.newTarget)).toEqual([won.value.target]);
  });

  it('moves states only as the sentence machine allows, and not on a locked segment', async () => {
    const fileId = nextFile++;
    await importSegments(db, formats, { fileId, fileName: 'report.docx', bytes: DOCX, sourceLanguage: 'en' });
    const [, second] = await all(fileId);
    const before = await digest();
    await expect(changeSegment(db, { segmentId: second!.id, version: 1, authorId: 1, actions: ['reviewConfirm'] })).rejects.toMatchObject({ code: 409 });
    // A reviewer may not confirm a translation in the translator's place.
    await expect(changeSegment(db, { segmentId: second!.id, version: 1, authorId: 1, target: 'x', actions: ['confirm'], actor: 'reviewer' })).rejects.toMatchObject({ code: 409 });
    await expect(changeSegment(db, { segmentId: second!.id, version: 1, authorId: 1, target: 'x'.repeat(100_001) })).rejects.toMatchObject({ code: 400 });
    await expect(changeSegment(db, { segmentId: 987_654, version: 1, authorId: 1, target: 'x' })).rejects.toMatchObject({ code: 404 });
    expect(await digest()).toBe(before);

    expect(await lockSegments(db, fileId, true, [second!.id])).toBe(1);
    const locked = await digest();
    await expect(changeSegment(db, { segmentId: second!.id, version: 1, authorId: 1, target: 'x' })).rejects.toMatchObject({ code: 409, data: { segmentId: second!.id } });
    expect(await digest()).toBe(locked);
    await lockSegments(db, fileId, false);

    const confirmed = await changeSegment(db, { segmentId: second!.id, version: 1, authorId: 1, target: '<1>Lisez-le</1> avant lundi.', actions: ['confirm'], actor: 'assignee' });
    const reviewed = await changeSegment(db, { segmentId: second!.id, version: confirmed.version, authorId: 2, actions: ['reviewConfirm'], actor: 'reviewer' });
    expect(reviewed).toMatchObject({ state: 'reviewConfirmed', target: '<1>Lisez-le</1> avant lundi.', version: 3, editorId: 2 });
    // Nothing to change: no revision.
    expect(await changeSegment(db, { segmentId: second!.id, version: 3, authorId: 2, target: '<1>Lisez-le</1> avant lundi.' })).toMatchObject({ version: 3 });
    expect((await revisionsOf(db, second!.id)).length).toBe(2);
  });
});

describe('delivering a file', () => {
  const toolkit = requireTool('po2tmx', { files: ['/usr/bin/python3'], debian: 'translate-toolkit' });

  async function translatedXliff12(): Promise<{ fileId: number; segs: Segment[] }> {
    const fileId = nextFile++;
    await importSegments(db, formats, { fileId, fileName: 'guide.xlf', bytes: utf8(XLIFF12), sourceLanguage: 'en' });
    const segs = await all(fileId);
    // Unit 2 re-edited and confirmed; unit 4 translated, unconfirmed; unit 3 confirmed as it is.
    await changeSegment(db, { segmentId: segs[1]!.id, version: 1, authorId: 1, target: 'Tapez <1/> tout de suite.', actions: ['confirm'] });
    await changeSegment(db, { segmentId: segs[3]!.id, version: 1, authorId: 1, target: 'Rien ici pour l’instant.', origin: { kind: 'engine', engine: 'apertium' } });
    await changeSegment(db, { segmentId: segs[2]!.id, version: 1, authorId: 1, actions: ['confirm'] });
    return { fileId, segs };
  }

  it.runIf(toolkit)('as XLIFF 1.2 that translate-toolkit reads with the states mapped out and codes restored', async () => {
    const { fileId } = await translatedXliff12();
    const xml = await drain(deliverXliff(db, { fileId, version: '1.2', sourceLanguage: 'en-US', targetLanguage: 'fr-FR', original: 'guide.xlf' }));
    const dir = mkdtempSync(join(tmpdir(), 'cat-xliff-'));
    try {
      writeFileSync(join(dir, 'out.xlf'), xml);
      const read = readXliffWithToolkit(join(dir, 'out.xlf'));
      expect(read).toMatchObject({ source: 'en-US', target: 'fr-FR' });
      expect(read.units.map((u) => [u.id.split('\u0004').pop(), u.state, u.approved, u.target])).toEqual([
        ['1', 'final', true, 'Cliquez sur <1>Enregistrer</1> pour garder<2/> votre travail.'],
        ['2', 'translated', false, 'Tapez <1/> tout de suite.'],
        ['3', 'translated', false, 'Le fichier est ouvert.'],
        ['4', 'needs-translation', false, 'Rien ici pour l’instant.'],
        ['5', 'final', true, 'Validé.'],
        // No target element: the toolkit's empty target.
        ['6', null, false, ''],
      ]);
      expect(read.units[0]!.source).toBe('Click <1>Save</1> to keep<2/> your work.');
      expect(read.units[3]!.qualifier).toBe('mt-suggestion');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('as XLIFF 2.1 with final, translated and initial states, read back by the format layer', async () => {
    const { fileId } = await translatedXliff12();
    const xml = await drain(deliverXliff(db, { fileId, version: '2.1', sourceLanguage: 'en-US', targetLanguage: 'fr-FR', original: 'guide.xlf' }));
    expect(xml).toContain('<pc id="1">Enregistrer</pc>');
    expect([...xml.matchAll(/<segment state="(\w+)"/g)].map((m) => m[1])).toEqual(['final', 'translated', 'translated', 'initial', 'final', 'initial']);
    expect(xml).not.toContain('subState');
    const back = await formats.byId('xliff')!.parse(utf8(xml));
    expect(back.units.map((u) => [u.id, u.state?.stage, u.target ?? null])).toEqual([
      ['1', 'final', 'Cliquez sur <1>Enregistrer</1> pour garder<2/> votre travail.'],
      ['2', 'translated', 'Tapez <1/> tout de suite.'],
      ['3', 'translated', 'Le fichier est ouvert.'],
      ['4', 'draft', 'Rien ici pour l’instant.'],
      ['5', 'final', 'Validé.'],
      ['6', 'new', null],
    ]);
  });

  it('in its own XLIFF format: untouched targets exactly as they came, changed ones with their new state', async () => {
    const { fileId } = await translatedXliff12();
    const out = str(await deliverFile(db, formats, { fileId, fileName: 'guide.xlf', bytes: utf8(XLIFF12), sourceLanguage: 'en', targetLanguage: 'fr-FR' }));
    // The approved unit is byte for byte what the other tool wrote.
    expect(out).toContain('<trans-unit id="1" approved="yes">\n        <source>Click <g id="1">Save</g> to keep<x id="2"/> your work.</source>\n        <target state="final">Cliquez sur <g id="1">Enregistrer</g> pour garder<x id="2"/> votre travail.</target>');
    const back = await formats.byId('xliff')!.parse(utf8(out));
    expect(back.units.map((u) => [u.id, u.state?.stage, u.target ?? null])).toEqual([
      ['1', 'final', 'Cliquez sur <1>Enregistrer</1> pour garder<2/> votre travail.'],
      ['2', 'translated', 'Tapez <1/> tout de suite.'],
      ['3', 'translated', 'Le fichier est ouvert.'],
      ['4', 'draft', 'Rien ici pour l’instant.'],
      ['5', 'final', 'Validé.'],
      ['6', 'new', null],
    ]);
    expect(out).toContain('<ph id="1">&lt;kbd&gt;Enter&lt;/kbd&gt;</ph> tout de suite.');
  });

  it('as a docx: translated sentences in place, the rest in the source, codes restored; LibreOffice opens it', async () => {
    const fileId = nextFile++;
    await importSegments(db, formats, { fileId, fileName: 'report.docx', bytes: DOCX, sourceLanguage: 'en' });
    const segs = await all(fileId);
    await changeSegment(db, { segmentId: segs[0]!.id, version: 1, authorId: 1, target: 'Le rapport est prêt.', actions: ['confirm'] });
    await changeSegment(db, { segmentId: segs[1]!.id, version: 1, authorId: 1, target: 'Lisez-le <1>avant lundi</1>.' });
    const out = await deliverFile(db, formats, { fileId, fileName: 'report.docx', bytes: DOCX, sourceLanguage: 'en', targetLanguage: 'fr' });
    const back = await formats.byId('docx')!.parse(out);
    expect(back.units.map((u) => u.source)).toEqual(['Le rapport est prêt. Lisez-le <1>avant lundi</1>.', 'Thank you.', 'The report is ready.', '12.5']);
    expect(str(await formats.byId('docx')!.write(back, back.units))).toBeDefined();
    if (requireTool('soffice', { debian: 'libreoffice-writer-nogui' })) {
      const seen = textSeenByLibreOffice({ 'report.docx': out }, 'txt:Text (encoded):UTF8');
      expect(seen['report.docx']!.replace(/\r/g, '')).toContain('Le rapport est prêt. Lisez-le avant lundi.\nThank you.\nThe report is ready.\n12.5');
    }
  }, 120_000);
});

describe('a large file', () => {
  it('imports 20,000 XLIFF segments in batches without holding the event loop, and delivers them', async () => {
    const units = Array.from({ length: 20_000 }, (_, i) => `      <trans-unit id="t${i}"><source>Sentence number ${i % 15_000} with <g id="1">bold</g> text.</source>${i % 3 === 0 ? `<target state="translated">Phrase ${i} avec <g id="1">gras</g>.</target>` : ''}</trans-unit>\n`).join('');
    const bytes = utf8(`<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="big.txt" source-language="en" target-language="fr" datatype="plaintext"><body>\n${units}</body></file></xliff>\n`);
    const fileId = nextFile++;
    // The longest wait of the event loop once segments are being written (the parse before is the
    // format layer's, in its worker process).
    let writing = false;
    let longest = 0;
    let last = performance.now();
    const tick = setInterval(() => {
      const now = performance.now();
      if (writing) longest = Math.max(longest, now - last);
      last = now;
    }, 10);
    const started = performance.now();
    let reports = 0;
    let firstWrite = 0;
    try {
      const result = await importSegments(db, formats, {
        fileId,
        fileName: 'big.xlf',
        bytes,
        sourceLanguage: 'en',
        onProgress: () => {
          if (!reports++) {
            firstWrite = performance.now() - started;
            writing = true;
          }
        },
      });
      expect(result).toMatchObject({ segments: 20_000, repeated: 5_000 });
    } finally {
      clearInterval(tick);
    }
    const took = performance.now() - started;
    console.log(`import of 20,000 XLIFF 1.2 segments on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}: ${Math.round(took)} ms (parsed and first batch written at ${Math.round(firstWrite)} ms), longest event-loop wait while writing ${Math.round(longest)} ms`);
    // Batches of 250 rows, each its own statement: 80 of them, the loop free between them, so no wait
    // comes near the time of all the writing (one INSERT of every row would be all of it).
    expect(reports).toBeGreaterThanOrEqual(80);
    expect(longest).toBeLessThan((took - firstWrite) / 3);
    const xml = await drain(deliverXliff(db, { fileId, version: '1.2', sourceLanguage: 'en', targetLanguage: 'fr', original: 'big.txt' }));
    expect(xml.match(/<trans-unit /g)?.length).toBe(20_000);
  }, 300_000);
});
