import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { XmlError } from '@linguaport/sdk/interchange';
import { randomText, seededRandom } from '@linguaport/sdk/testing';
import { administrativeStatus, readTbx, TbxError, writeTbx, type TbxConcept, type TbxHeader, type TbxTerm } from '../src/tbx.js';

// TBX read from files as other tools write them (v2 martif with tig and ntig, v3 tbx in dca and dct
// style), and our TBX-Basic output checked by xmllint against the schemas kept in the repo
// (tbx-basic/) and read back by translate-toolkit's TBX reader.

const SCHEMAS = join(import.meta.dirname, '..', 'src', 'tbx-basic');
// Debian's interpreter: the python3 first on PATH may be another one, without translate-toolkit.
const PYTHON = '/usr/bin/python3';
const dir = mkdtempSync(join(tmpdir(), 'tbx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const V2 = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE martif SYSTEM "TBXcoreStructV02.dtd">
<martif type="TBX-Basic" xml:lang="en-US">
  <martifHeader>
    <fileDesc>
      <titleStmt><title>Automotive &amp; energy</title></titleStmt>
      <sourceDesc><p>Exported from another tool</p></sourceDesc>
    </fileDesc>
    <encodingDesc><p type="XCSURI">TBXBasicXCSV02.xcs</p></encodingDesc>
  </martifHeader>
  <text>
    <body>
      <termEntry id="eid-1">
        <descrip type="subjectField">Automotive</descrip>
        <note>Checked by the legal team</note>
        <langSet xml:lang="zh-Hans-CN">
          <descrip type="definition">储存电能的装置。</descrip>
          <ntig>
            <termGrp>
              <term>电池</term>
              <termNote type="termType">fullForm</termNote>
              <termNote type="administrativeStatus">admittedTerm-admn-sts</termNote>
            </termGrp>
            <descrip type="context">请在夜间给电池充电。</descrip>
          </ntig>
        </langSet>
        <langSet xml:lang="en-US">
          <descrip type="definition">A device that stores electrical energy.</descrip>
          <tig>
            <term>battery</term>
            <termNote type="partOfSpeech">noun</termNote>
            <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote>
            <descrip type="context">Charge the battery &lt;overnight&gt;.</descrip>
          </tig>
          <tig>
            <term>accumulator</term>
            <termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote>
            <note>Old usage</note>
          </tig>
        </langSet>
        <langSet xml:lang="zh-CN">
          <tig><term>蓄电池</term><termNote type="normativeAuthorization">supersededTerm</termNote></tig>
        </langSet>
      </termEntry>
      <termEntry id="eid-2">
        <langSet xml:lang="en"><descrip type="definition">Only a definition</descrip></langSet>
      </termEntry>
      <termEntry>
        <descripGrp><descrip type="subjectField">Energy</descrip><admin type="source">ISO</admin></descripGrp>
        <langSet xml:lang="fr-FR"><tig><term>pile <hi type="italic">à</hi> combustible</term></tig></langSet>
        <langSet xml:lang="en-GB"><tig><term>fuel cell</term></tig><tig><term/></tig></langSet>
        <langSet><tig><term>no language</term></tig></langSet>
      </termEntry>
    </body>
  </text>
</martif>
`;

const V3 = `<?xml version="1.0" encoding="UTF-8"?>
<?xml-model href="TBXcoreStructV03_TBX-Basic_integrated.rng" type="application/xml" schematypens="http://relaxng.org/ns/structure/1.0"?>
<tbx type="TBX-Basic" style="dca" xml:lang="zh-CN" xmlns="urn:iso:std:iso:30042:ed-2">
  <tbxHeader>
    <fileDesc>
      <titleStmt><title>医疗术语</title></titleStmt>
      <sourceDesc><p>Hospital glossary</p></sourceDesc>
    </fileDesc>
  </tbxHeader>
  <text>
    <body>
      <conceptEntry id="c-100">
        <descrip type="subjectField">Medicine</descrip>
        <langSec xml:lang="en-US">
          <descrip type="definition">An acute viral respiratory infection.</descrip>
          <termSec>
            <term>influenza</term>
            <descrip type="context">Influenza season starts in October.</descrip>
            <note>Also "flu"</note>
          </termSec>
          <termSec>
            <term>grippe</term>
            <termNote type="administrativeStatus">supersededTerm-admn-sts</termNote>
          </termSec>
        </langSec>
        <langSec xml:lang="zh-CN">
          <descrip type="definition">由病毒引起的急性呼吸道传染病。</descrip>
          <termSec>
            <term>流行性感冒</term>
            <termNote type="partOfSpeech">noun</termNote>
            <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote>
          </termSec>
          <termSec><term>流感</term><termNote type="termType">shortForm</termNote></termSec>
        </langSec>
      </conceptEntry>
      <conceptEntry id="c-101"><note>Empty draft</note></conceptEntry>
      <conceptEntry id="c-102">
        <langSec xml:lang="zh-TW"><termSec><term>流行性感冒</term></termSec></langSec>
      </conceptEntry>
    </body>
  </text>
</tbx>
`;

const V3_DCT = `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dct" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2" xmlns:basic="http://www.tbxinfo.net/ns/basic" xmlns:min="http://www.tbxinfo.net/ns/min">
<tbxHeader><fileDesc><sourceDesc><p>dct</p></sourceDesc></fileDesc></tbxHeader>
<text><body>
<conceptEntry id="d1"><min:subjectField>Law</min:subjectField>
<langSec xml:lang="en"><basic:definition>A binding agreement.</basic:definition>
<termSec><term>contract</term><min:partOfSpeech>noun</min:partOfSpeech><basic:administrativeStatus>preferredTerm-admn-sts</basic:administrativeStatus><basic:context>Sign the contract.</basic:context></termSec></langSec>
<langSec xml:lang="zh-Hant"><termSec><term>合約</term><basic:administrativeStatus>deprecatedTerm-admn-sts</basic:administrativeStatus></termSec></langSec>
</conceptEntry></body></text></tbx>
`;

interface Reading {
  concepts: TbxConcept[];
  header: TbxHeader | null;
  warnings: Array<[string, number]>;
}

async function readAll(text: string | Buffer, chunk = 7): Promise<Reading> {
  let header: TbxHeader | null = null;
  const warnings: Array<[string, number]> = [];
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  // Tiny chunks: every construct is cut across chunk boundaries somewhere (multi-byte characters too).
  const pieces = Array.from({ length: Math.ceil(bytes.length / chunk) }, (_, i) => bytes.subarray(i * chunk, (i + 1) * chunk));
  const concepts: TbxConcept[] = [];
  for await (const c of readTbx(pieces, { onHeader: (h) => (header = h), onWarning: (message, line) => warnings.push([message, line]) })) concepts.push(c);
  return { concepts, header, warnings };
}

async function collect(gen: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const s of gen) out += s;
  return out;
}

/** The 1-based line of the `nth` occurrence of `needle`. */
function lineOf(text: string, needle: string, nth = 1): number {
  let at = -1;
  for (let i = 0; i < nth; i++) at = text.indexOf(needle, at + 1);
  if (at === -1) throw new Error(`${needle} not in the sample`);
  return text.slice(0, at).split('\n').length;
}

function xmllint(xml: string, name: string, ...args: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, xml);
  execFileSync('/usr/bin/xmllint', ['--noout', ...args, file], { stdio: 'pipe' });
  return file;
}

const validateV2 = (xml: string, name: string) => xmllint(xml, name, '--dtdvalid', join(SCHEMAS, 'tbx-basic-v2.dtd'));
const validateV3 = (xml: string, name: string) => xmllint(xml, name, '--relaxng', join(SCHEMAS, 'tbx-basic-v3.rng'));

const term = (text: string, more: Partial<TbxTerm> = {}): TbxTerm => ({ term: text, forbidden: false, ...more });

describe('reading TBX', () => {
  it('reads TBX v2: tig and ntig, several terms per language, forbidden terms, notes, definitions, subject fields, header', async () => {
    for (const chunk of [1, 3, 7, 64, 100_000]) {
      const { concepts, header, warnings } = await readAll(V2, chunk);
      expect(header).toEqual({ version: 2, dialect: 'TBX-Basic', title: 'Automotive & energy', sourceLanguage: 'en', xmlLang: 'en-US' });
      expect(concepts).toHaveLength(2);
      expect(concepts[0]).toEqual({
        id: 'eid-1',
        subjectField: 'Automotive',
        note: 'Checked by the legal team',
        // The definition of the file's source language, though another language's came first.
        definition: 'A device that stores electrical energy.',
        languages: [
          {
            // zh-Hans-CN and zh-CN are one platform language: their terms are one list.
            lang: 'zh-CN',
            terms: [
              term('电池', { termType: 'fullForm', administrativeStatus: 'admittedTerm-admn-sts', context: '请在夜间给电池充电。' }),
              term('蓄电池', { administrativeStatus: 'supersededTerm-admn-sts', forbidden: true }),
            ],
          },
          {
            lang: 'en',
            terms: [
              term('battery', { partOfSpeech: 'noun', administrativeStatus: 'preferredTerm-admn-sts', context: 'Charge the battery <overnight>.' }),
              term('accumulator', { administrativeStatus: 'deprecatedTerm-admn-sts', forbidden: true, note: 'Old usage' }),
            ],
          },
        ],
      });
      expect(concepts[1]).toEqual({ subjectField: 'Energy', languages: [{ lang: 'fr', terms: [term('pile à combustible')] }, { lang: 'en', terms: [term('fuel cell')] }] });
      expect(warnings).toEqual([
        [expect.stringMatching(/eid-2.*no term/), lineOf(V2, '</termEntry>', 2)],
        ['a term with no text is skipped', lineOf(V2, '<term/>')],
        [expect.stringMatching(/without xml:lang/), lineOf(V2, '<langSet>')],
      ]);
    }
  });

  it('reads TBX v3 (dca): conceptEntry, langSec, termSec, the source language’s definition, a concept without terms skipped', async () => {
    for (const chunk of [2, 13, 100_000]) {
      const { concepts, header, warnings } = await readAll(V3, chunk);
      expect(header).toEqual({ version: 3, dialect: 'TBX-Basic', title: '医疗术语', sourceLanguage: 'zh-CN', xmlLang: 'zh-CN' });
      expect(concepts).toEqual([
        {
          id: 'c-100',
          subjectField: 'Medicine',
          definition: '由病毒引起的急性呼吸道传染病。',
          languages: [
            { lang: 'en', terms: [term('influenza', { context: 'Influenza season starts in October.', note: 'Also "flu"' }), term('grippe', { administrativeStatus: 'supersededTerm-admn-sts', forbidden: true })] },
            { lang: 'zh-CN', terms: [term('流行性感冒', { partOfSpeech: 'noun', administrativeStatus: 'preferredTerm-admn-sts' }), term('流感', { termType: 'shortForm' })] },
          ],
        },
        { id: 'c-102', languages: [{ lang: 'zh-TW', terms: [term('流行性感冒')] }] },
      ]);
      expect(warnings).toEqual([[expect.stringMatching(/c-101.*no term/), lineOf(V3, '<conceptEntry id="c-101">')]]);
    }
  });

  it('reads TBX v3 with data categories as elements (dct)', async () => {
    const { concepts, header } = await readAll(V3_DCT, 5);
    expect(header).toMatchObject({ version: 3, sourceLanguage: 'en' });
    expect(concepts).toEqual([
      {
        id: 'd1',
        subjectField: 'Law',
        definition: 'A binding agreement.',
        languages: [
          { lang: 'en', terms: [term('contract', { partOfSpeech: 'noun', administrativeStatus: 'preferredTerm-admn-sts', context: 'Sign the contract.' })] },
          { lang: 'zh-TW', terms: [term('合約', { administrativeStatus: 'deprecatedTerm-admn-sts', forbidden: true })] },
        ],
      },
    ]);
  });

  it('reads administrative statuses in the forms files write them', () => {
    const cases: Record<string, string> = {
      'preferredTerm-admn-sts': 'preferredTerm-admn-sts',
      deprecatedTerm: 'deprecatedTerm-admn-sts',
      Superseded: 'supersededTerm-admn-sts',
      ' admittedTerm-admn-sts ': 'admittedTerm-admn-sts',
      'standardizedTerm-admn-sts': 'standardizedTerm-admn-sts',
    };
    for (const [value, want] of Object.entries(cases)) expect(administrativeStatus(value), value).toBe(want);
  });

  it('refuses malformed XML and what is no TBX with the line where reading stopped', async () => {
    const broken = V2.replace('<term>accumulator</term>', '<term>accumulator</tig>');
    await expect(readAll(broken)).rejects.toThrow(new RegExp(`^line ${lineOf(broken, 'accumulator')}: </tig> closes <term>`));
    const entity = V2.replace('Old usage', 'Old &nbsp; usage');
    await expect(readAll(entity)).rejects.toThrow(new RegExp(`^line ${lineOf(entity, 'Old &nbsp;')}: unknown entity`));
    const cut = V3.slice(0, V3.indexOf('<conceptEntry id="c-102">'));
    await expect(readAll(cut)).rejects.toThrow(/^line \d+: the document ends/);
    const bare = V3.replace('Medicine', 'Medicine & surgery');
    await expect(readAll(bare)).rejects.toThrow(new RegExp(`^line ${lineOf(bare, 'Medicine & ')}: a bare &`));
    await expect(readAll('<?xml version="1.0"?>\n<tmx version="1.4"/>')).rejects.toThrow(/^line 2: not a TBX document: the root element is <tmx>/);
    await expect(readAll('just text')).rejects.toThrow(XmlError);
    await expect(readAll('<?xml version="1.0" encoding="ISO-8859-1"?><martif/>')).rejects.toThrow(/ISO-8859-1/);
    await expect(readAll(Buffer.concat([Buffer.from('<martif>\n<text><body><termEntry><langSet xml:lang="en"><tig><term>'), Buffer.from([0xc3, 0x28]), Buffer.from('</term></tig></langSet></termEntry></body></text></martif>')]))).rejects.toThrow(/UTF-8/);
    const err = await readAll(broken).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TbxError);
    expect((err as TbxError).line).toBe(lineOf(broken, 'accumulator'));
  });

  it('reads UTF-16 files and UTF-8 with a byte-order mark', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(V3.replace('UTF-8', 'UTF-16'), 'utf16le')]);
    expect((await readAll(le, 5)).concepts).toHaveLength(2);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(V2)]);
    expect((await readAll(bom, 2)).concepts).toHaveLength(2);
  });
});

const STATUSES = ['preferredTerm-admn-sts', 'admittedTerm-admn-sts', 'deprecatedTerm-admn-sts', 'supersededTerm-admn-sts'];
const LANGS = ['en', 'zh-CN', 'zh-TW', 'fr', 'de', 'ja'];

/** Text with something in it besides white space: a term. */
function randomTerm(random: () => number): string {
  const text = randomText(random, 30);
  return text.trim() ? text : `term ${text}x`;
}

/** A random concept: 1 to 3 languages in random order, 1 to 3 terms each, each field present or not. */
function randomConcept(random: () => number, i: number): TbxConcept {
  const maybe = <T>(value: () => T): T | undefined => (random() < 0.4 ? value() : undefined);
  const langs = [...LANGS].sort(() => random() - 0.5).slice(0, 1 + Math.floor(random() * 3));
  const concept: TbxConcept = {
    id: `c${i}`,
    languages: langs.map((lang) => ({
      lang,
      terms: Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
        const t: TbxTerm = { term: randomTerm(random), forbidden: false };
        const status = maybe(() => STATUSES[Math.floor(random() * STATUSES.length)]!);
        if (status) {
          t.administrativeStatus = status;
          t.forbidden = status.startsWith('deprecated') || status.startsWith('superseded');
        }
        const pos = maybe(() => ['noun', 'verb', 'adjective', 'other'][Math.floor(random() * 4)]!);
        if (pos) t.partOfSpeech = pos;
        const type = maybe(() => ['fullForm', 'acronym', 'abbreviation', 'phrase'][Math.floor(random() * 4)]!);
        if (type) t.termType = type;
        const context = maybe(() => randomText(random, 80));
        if (context !== undefined) t.context = context;
        const note = maybe(() => randomText(random, 40));
        if (note !== undefined) t.note = note;
        return t;
      }),
    })),
  };
  const subjectField = maybe(() => randomText(random, 20));
  if (subjectField !== undefined) concept.subjectField = subjectField;
  const definition = maybe(() => randomText(random, 120));
  if (definition !== undefined) concept.definition = definition;
  const note = maybe(() => randomText(random, 60));
  if (note !== undefined) concept.note = note;
  return concept;
}

/** translate-toolkit's reading of a TBX file: per termEntry its id, source and target, and each langSet's terms. */
const TOOLKIT_READ = `
import json, sys
from translate.storage import tbx
from translate.misc.xml_helpers import getXMLlang
store = tbx.tbxfile(open(sys.argv[1], "rb"))
out = []
for u in store.units:
    langs = [[getXMLlang(ls), [u.getNodeText(tig) for tig in ls.iterchildren(u.namespaced("tig"))]] for ls in u.getlanguageNodes()]
    out.append({"id": u.getid(), "source": u.source, "target": u.target, "languages": langs})
print(json.dumps(out))
`;

describe('writing TBX-Basic', () => {
  for (const version of [2, 3] as const) {
    it(`writes TBX v${version} that validates and reads back as the same concepts (300 seeded concepts)`, async () => {
      const random = seededRandom(30042 + version);
      const concepts = Array.from({ length: 300 }, (_, i) => randomConcept(random, i));
      const xml = await collect(writeTbx(concepts, { version, title: 'Seeded <terms> & "more"', sourceLanguage: 'en' }));
      if (version === 2) validateV2(xml, 'seeded-v2.tbx');
      else validateV3(xml, 'seeded-v3.tbx');
      const { concepts: back, header, warnings } = await readAll(xml, 4093);
      expect(header).toEqual({ version, dialect: 'TBX-Basic', title: 'Seeded <terms> & "more"', sourceLanguage: 'en', xmlLang: 'en' });
      expect(warnings).toEqual([]);
      expect(back).toHaveLength(concepts.length);
      back.forEach((c, i) => expect(c, `concept ${i}`).toEqual(concepts[i]));
    });
  }

  it('writes the hand-written samples back (v2 to v3 and v3 to v2) as the same concepts', async () => {
    for (const [sample, version] of [[V2, 3], [V3, 2], [V3_DCT, 2]] as const) {
      const { concepts, header } = await readAll(sample, 100_000);
      const xml = await collect(writeTbx(concepts, { version, sourceLanguage: header!.sourceLanguage! }));
      if (version === 2) validateV2(xml, 'sample.tbx');
      else validateV3(xml, 'sample.tbx');
      expect((await readAll(xml, 50)).concepts.map(({ id, ...rest }) => (version === 3 && !concepts.find((c) => c.id === id) ? rest : { id, ...rest }))).toEqual(concepts);
    }
  });

  it('makes ids into unique XML names, gives v3 concepts one, and skips what has no term', async () => {
    const concepts: TbxConcept[] = [
      { id: '17', languages: [{ lang: 'en', terms: [term('a')] }] },
      { id: 'c17', languages: [{ lang: 'en', terms: [term('b')] }] },
      { id: 'x y', languages: [{ lang: 'en', terms: [term('c')] }] },
      { languages: [{ lang: 'en', terms: [term('d')] }] },
      { id: 'empty', languages: [{ lang: 'en', terms: [term('  ')] }, { lang: 'fr', terms: [] }] },
      { id: 'x y', languages: [{ lang: 'en', terms: [term('e')] }, { lang: 'fr', terms: [term(' ')] }] },
    ];
    const v3 = await collect(writeTbx(concepts, { version: 3, sourceLanguage: 'en' }));
    validateV3(v3, 'ids.tbx');
    expect((await readAll(v3)).concepts.map((c) => [c.id, c.languages.map((l) => l.lang)])).toEqual([['c17', ['en']], ['c17-2', ['en']], ['x_y', ['en']], ['c4', ['en']], ['x_y-2', ['en']]]);
    const v2 = await collect(writeTbx(concepts, { version: 2, sourceLanguage: 'en' }));
    validateV2(v2, 'ids.tbx');
    expect((await readAll(v2)).concepts.map((c) => c.id)).toEqual(['c17', 'c17-2', 'x_y', undefined, 'x_y-2']);
  });

  it('writes a forbidden term as deprecated and leaves out a status outside TBX-Basic’s picklist', async () => {
    const concepts: TbxConcept[] = [
      {
        id: 'c1',
        languages: [
          {
            lang: 'en',
            terms: [
              term('forbidden', { forbidden: true }),
              term('says preferred', { forbidden: true, administrativeStatus: 'preferredTerm-admn-sts' }),
              term('superseded', { forbidden: true, administrativeStatus: 'superseded' }),
              term('standardized', { administrativeStatus: 'standardizedTerm-admn-sts' }),
            ],
          },
        ],
      },
    ];
    for (const version of [2, 3] as const) {
      const xml = await collect(writeTbx(concepts, { version, sourceLanguage: 'en' }));
      if (version === 2) validateV2(xml, 'status.tbx');
      else validateV3(xml, 'status.tbx');
      const terms = (await readAll(xml)).concepts[0]!.languages[0]!.terms;
      expect(terms.map((t) => [t.administrativeStatus, t.forbidden])).toEqual([
        ['deprecatedTerm-admn-sts', true],
        ['deprecatedTerm-admn-sts', true],
        ['supersededTerm-admn-sts', true],
        [undefined, false],
      ]);
    }
  });

  it('writes well-formed XML whatever the text holds (xmllint)', async () => {
    const nasty = 'a & b < c > d "e" \'f\' ]]> \u0001 \r\n\t end';
    const concepts: TbxConcept[] = [{ id: 'c1', subjectField: nasty, definition: nasty, note: nasty, languages: [{ lang: 'en', terms: [term(nasty, { context: nasty, note: nasty, partOfSpeech: nasty, termType: nasty })] }] }];
    for (const version of [2, 3] as const) {
      const xml = await collect(writeTbx(concepts, { version, title: nasty, sourceLanguage: 'en' }));
      xmllint(xml, `nasty-v${version}.tbx`);
      const back = (await readAll(xml)).concepts[0]!;
      // Only the control character, which XML cannot carry, is gone.
      expect(back.languages[0]!.terms[0]!.term).toBe(nasty.replace('\u0001', ''));
    }
  });

  it('is read by translate-toolkit: every entry, language and term', async () => {
    const random = seededRandom(12620);
    const concepts = Array.from({ length: 200 }, (_, i) => randomConcept(random, i));
    const { concepts: samples } = await readAll(V2, 100_000);
    concepts.push(...samples.map((c, i) => ({ ...c, id: `sample-${i}` })));
    const file = validateV2(await collect(writeTbx(concepts, { version: 2, sourceLanguage: 'en' })), 'toolkit.tbx');
    const read = JSON.parse(execFileSync(PYTHON, ['-c', TOOLKIT_READ, file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })) as Array<{ id: string; source: string; target: string | null; languages: Array<[string, string[]]> }>;
    expect(read).toHaveLength(concepts.length);
    read.forEach((u, i) => {
      const c = concepts[i]!;
      expect(u.id, `entry ${i}`).toBe(c.id);
      expect(u.languages, `entry ${i}`).toEqual(c.languages.map((l) => [l.lang, l.terms.map((t) => t.term)]));
      expect(u.source, `entry ${i}`).toBe(c.languages[0]!.terms[0]!.term);
      if (c.languages[1]) expect(u.target, `entry ${i}`).toBe(c.languages[1].terms[0]!.term);
    });
  });

  it('writes and reads back 100,000 concepts through a stream in flat memory', async () => {
    const n = 100_000;
    const random = seededRandom(100_000);
    // A pool of concepts reused with fresh ids: the generator itself holds no more than the pool.
    const pool = Array.from({ length: 500 }, (_, i) => randomConcept(random, i));
    function* generate(): Generator<TbxConcept> {
      for (let i = 0; i < n; i++) yield { ...pool[i % pool.length]!, id: `c${i}` };
    }
    // The heap after a full collection: what is held, not the garbage a collection has not yet taken.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const held = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    for (const version of [2, 3] as const) {
      const before = held();
      let peak = 0;
      let rawPeak = 0;
      let count = 0;
      let bytes = 0;
      const started = performance.now();
      const stream = Readable.from(
        (async function* () {
          for await (const s of writeTbx(generate(), { version, sourceLanguage: 'en' })) {
            bytes += Buffer.byteLength(s);
            yield Buffer.from(s);
          }
        })(),
        { objectMode: false },
      );
      for await (const c of readTbx(stream)) {
        const want = pool[count % pool.length]!;
        if (c.id !== `c${count}` || c.languages.length !== want.languages.length) throw new Error(`concept ${count} read back as ${JSON.stringify(c).slice(0, 200)}`);
        count++;
        if (count % 1000 === 0) rawPeak = Math.max(rawPeak, process.memoryUsage().heapUsed - before);
        if (count % 10_000 === 0) peak = Math.max(peak, held() - before);
      }
      const seconds = (performance.now() - started) / 1000;
      console.log(`TBX v${version}: ${n} concepts, ${(bytes / 1e6).toFixed(1)} MB written and read back in ${seconds.toFixed(2)} s, heap held at most ${(peak / 1e6).toFixed(1)} MB more than before (${(rawPeak / 1e6).toFixed(1)} MB with garbage not yet collected)`);
      expect(count).toBe(n);
      expect(peak).toBeLessThan(100 * 1024 * 1024);
      expect(rawPeak).toBeLessThan(200 * 1024 * 1024);
    }
  }, 300_000);
});
