import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { XmlError } from '@linguaport/sdk/interchange';
import { placeholderNumbers, restoreTags, type InlineTag } from '@linguaport/sdk/shared';
import { randomText, seededRandom, tmx2po } from '@linguaport/sdk/testing';
import { codeDatatype, nativeCode, readTmx, sourceVariant, TmxDatatype, tmxProblemReason, variantIn, writeTmx, type TmxHeader, type TmxUnit } from '../src/index.js';

// TMX 1.4b read from files other tools write (levels 1 and 2, language variants, several tuv per tu,
// props and notes), and our output checked by xmllint against the TMX 1.4b DTD kept in the repo and
// read back by translate-toolkit (TMX -> PO, counted by pocount).

const DTD = join(import.meta.dirname, '..', 'src', 'tmx14.dtd');
const dir = mkdtempSync(join(tmpdir(), 'tmx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LEVEL1 = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE tmx SYSTEM "tmx14.dtd">
<tmx version="1.4">
  <header creationtool="OmegaT" creationtoolversion="6" segtype="sentence" o-tmf="OmegaT TMX" adminlang="EN-US" srclang="EN-US" datatype="plaintext">
    <prop type="x-project">Contracts</prop>
    <note>Exported for the legal team</note>
  </header>
  <body>
    <tu tuid="1" creationid="anna" creationdate="20240102T030405Z">
      <prop type="x-domain">legal</prop>
      <prop type="x-domain">finance</prop>
      <note>From the 2024 contract</note>
      <tuv xml:lang="EN-us"><seg>The &lt;contract&gt; is &amp; remains valid.</seg></tuv>
      <tuv xml:lang="es-ES" changeid="luis"><prop type="x-status">final</prop><seg>El &lt;contrato&gt; es y sigue siendo válido.</seg></tuv>
      <tuv xml:lang="fr"><seg>Le contrat reste valable.</seg></tuv>
    </tu>
    <tu srclang="es">
      <tuv lang="en"><seg>Second</seg></tuv>
      <tuv lang="ES"><seg>Segundo</seg></tuv>
    </tu>
    <tu>
      <tuv xml:lang="zh-Hans"><seg><![CDATA[红色的车 <b>]]></seg></tuv>
      <tuv xml:lang="en-GB"><seg>The red car &#x263A;</seg></tuv>
    </tu>
    <tu><tuv xml:lang="en"><seg/></tuv><tuv xml:lang="de"><seg>Leer</seg></tuv></tu>
  </body>
</tmx>`;

const LEVEL2 = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header creationtool="Trados" creationtoolversion="9" segtype="sentence" o-tmf="TW4Win" adminlang="en" srclang="*all*" datatype="html"/>
<body>
  <tu>
    <tuv xml:lang="en"><seg>Press <bpt i="1" x="1" type="bold">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> now<ph x="2" type="lb">&lt;br/&gt;</ph>and <hi x="3" type="em">wait</hi>.</seg></tuv>
    <tuv xml:lang="es"><seg><hi x="3" type="em">Espere</hi> y pulse <bpt i="7" x="1" type="bold">&lt;b&gt;</bpt>Guardar<ept i="7">&lt;/b&gt;</ept><ph x="2" type="lb">&lt;br/&gt;</ph>.</seg></tuv>
  </tu>
  <tu>
    <tuv xml:lang="en"><seg><it pos="begin" type="italic">&lt;i&gt;</it>Half a span and <ut>{\\b}</ut>text <ph>&lt;img src="<sub>alt text</sub>"/&gt;</ph> 2 &lt;1&gt; literal</seg></tuv>
    <tuv xml:lang="es"><seg><bpt i="1">&lt;u&gt;</bpt>Sin cierre</seg></tuv>
  </tu>
</body></tmx>`;

async function readAll(text: string | Buffer, chunk = 7): Promise<{ units: TmxUnit[]; header: TmxHeader | null }> {
  let header: TmxHeader | null = null;
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  // Tiny chunks: every construct is cut across chunk boundaries somewhere (multi-byte characters too).
  const pieces = Array.from({ length: Math.ceil(bytes.length / chunk) }, (_, i) => bytes.subarray(i * chunk, (i + 1) * chunk));
  const units: TmxUnit[] = [];
  for await (const u of readTmx(pieces, { onHeader: (h) => (header = h) })) units.push(u);
  return { units, header };
}

async function collect(gen: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const s of gen) out += s;
  return out;
}

function validate(xml: string, name: string): string {
  const file = join(dir, name);
  writeFileSync(file, xml);
  execFileSync('xmllint', ['--noout', '--dtdvalid', DTD, file], { stdio: 'pipe' });
  return file;
}

describe('reading TMX 1.4b', () => {
  it('reads level 1: variants in platform codes, several tuv, header, props and notes of tu and tuv, entities and CDATA', async () => {
    for (const chunk of [1, 3, 7, 64, 100_000]) {
      const { units, header } = await readAll(LEVEL1, chunk);
      expect(header).toMatchObject({ srclang: 'EN-US', sourceLanguage: 'en', props: [{ type: 'x-project', value: 'Contracts' }], notes: ['Exported for the legal team'] });
      expect(header!.attrs.creationtool).toBe('OmegaT');
      expect(units).toHaveLength(4);
      const [first, second, third, fourth] = units as [TmxUnit, TmxUnit, TmxUnit, TmxUnit];
      expect(first).toMatchObject({ tuid: '1', attrs: { creationid: 'anna', creationdate: '20240102T030405Z' }, notes: ['From the 2024 contract'] });
      expect(first.props).toEqual([{ type: 'x-domain', value: 'legal' }, { type: 'x-domain', value: 'finance' }]);
      expect(first.variants.map((v) => [v.lang, v.xmlLang])).toEqual([['en', 'EN-us'], ['es', 'es-ES'], ['fr', 'fr']]);
      expect(variantIn(first, 'en-US')!.text).toBe('The <contract> is & remains valid.');
      expect(variantIn(first, 'es')).toMatchObject({ attrs: { changeid: 'luis' }, props: [{ type: 'x-status', value: 'final' }] });
      expect(sourceVariant(first, header)!.lang).toBe('en');
      // TMX 1.1's lang attribute; the unit's own srclang wins over the header's.
      expect(second.srclang).toBe('es');
      expect(sourceVariant(second, header)!.text).toBe('Segundo');
      expect(variantIn(third, 'zh-CN')!.text).toBe('红色的车 <b>');
      expect(variantIn(third, 'en')!.text).toBe('The red car ☺');
      expect(variantIn(fourth, 'en')).toMatchObject({ text: '', tags: {} });
    }
  });

  it('keeps level-2 inline markup as numbered placeholders, numbered by x across languages, with the TMX markup kept', async () => {
    const { units, header } = await readAll(LEVEL2, 3);
    expect(header).toMatchObject({ srclang: '*all*', sourceLanguage: null });
    const en = variantIn(units[0]!, 'en')!;
    const es = variantIn(units[0]!, 'es')!;
    expect(en.text).toBe('Press <1>Save</1> now<2/>and <3>wait</3>.');
    expect(es.text).toBe('<3>Espere</3> y pulse <1>Guardar</1><2/>.');
    expect(en.tags['1']).toEqual({ kind: 'paired', original: '<bpt i="1" x="1" type="bold">&lt;b&gt;</bpt>', closing: '<ept i="1">&lt;/b&gt;</ept>' });
    expect(en.tags['2']).toEqual({ kind: 'standalone', original: '<ph x="2" type="lb">&lt;br/&gt;</ph>' });
    expect(en.tags['3']).toEqual({ kind: 'paired', original: '<hi x="3" type="em">', closing: '</hi>' });
    expect(es.tags['1']!.original).toBe('<bpt i="7" x="1" type="bold">&lt;b&gt;</bpt>');
    expect(nativeCode(en.tags['1']!.original)).toBe('<b>');
    expect(nativeCode(en.tags['1']!.closing!)).toBe('</b>');
    // Sub-flows stay inside the mark's markup; `it` and `ut` stand alone; a literal "<1>" stays text
    // (so the marks take other numbers); a bpt without its ept becomes a standalone mark.
    const en2 = variantIn(units[1]!, 'en')!;
    expect(en2.text).toBe('<2/>Half a span and <3/>text <4/> 2 <1> literal');
    expect(en2.tags['2']).toEqual({ kind: 'standalone', original: '<it pos="begin" type="italic">&lt;i&gt;</it>' });
    expect(en2.tags['3']!.original).toBe('<ut>{\\b}</ut>');
    expect(en2.tags['4']!.original).toBe('<ph>&lt;img src="<sub>alt text</sub>"/&gt;</ph>');
    expect(nativeCode(en2.tags['4']!.original)).toBe('<img src="alt text"/>');
    expect(en2.tags['1']).toBeUndefined();
    expect(variantIn(units[1]!, 'es')).toMatchObject({ text: '<1/>Sin cierre', tags: { '1': { kind: 'standalone' } } });
  });

  it('marks a segment whose bpt/ept pairing is broken with the problem, and still reads its text', async () => {
    const seg = (inner: string) => `<tu><tuv xml:lang="en"><seg>${inner}</seg></tuv></tu>`;
    const xml = `<tmx version="1.4"><header srclang="en"/><body>${[
      seg('Fine <bpt i="1">&lt;b&gt;</bpt>bold<ept i="1">&lt;/b&gt;</ept>, <bpt i="2">&lt;i&gt;</bpt>twice<ept i="2">&lt;/i&gt;</ept>.'),
      seg('An <ept i="2">&lt;/b&gt;</ept>end before <bpt i="2">&lt;b&gt;</bpt>its start.'),
      seg('Two <bpt i="3">&lt;b&gt;</bpt>a<ept i="3">&lt;/b&gt;</ept> <bpt i="3">&lt;i&gt;</bpt>b<ept i="3">&lt;/i&gt;</ept>.'),
      seg('Never <bpt i="4">&lt;b&gt;</bpt>closed.'),
    ].join('')}</body></tmx>`;
    const { units } = await readAll(xml);
    expect(units.map((u) => u.variants[0]!.problem)).toEqual([undefined, { code: 'ept-first', i: '2' }, { code: 'duplicate-i', i: '3' }, { code: 'unclosed', i: '4' }]);
    expect(units[3]!.variants[0]!.text).toBe('Never <1/>closed.');
    expect(tmxProblemReason({ code: 'ept-first', i: '2' })['en-US']).toMatch(/^unbalanced bpt\/ept i=2: /);
    expect(tmxProblemReason({ code: 'unclosed', i: '4' })['zh-CN']).toMatch(/^bpt\/ept 不配对 i=4：/);
  });

  it('tells the datatype of codes: html, xml, rtf, unknown when mixed, plaintext without codes', () => {
    const paired = (open: string, close: string) => ({ kind: 'paired' as const, original: open, closing: close });
    expect(codeDatatype(paired('<bpt i="1">&lt;b&gt;</bpt>', '<ept i="1">&lt;/b&gt;</ept>'))).toBe('html');
    expect(codeDatatype(paired('<w:r>', '</w:r>'))).toBe('xml');
    expect(codeDatatype({ kind: 'standalone', original: '<ut>{\\b}</ut>' })).toBe('rtf');
    expect(codeDatatype({ kind: 'standalone', original: '<ph x="1"/>' })).toBeNull();
    const d = new TmxDatatype();
    expect(d.value).toBe('plaintext');
    d.add({ 1: paired('<b>', '</b>') });
    expect(d.value).toBe('html');
    d.add({ 1: { kind: 'standalone', original: '{\\par}' } });
    expect(d.value).toBe('unknown');
  });

  it('reads UTF-16 files with their byte-order mark and UTF-8 with one', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(LEVEL1.replace('UTF-8', 'UTF-16'), 'utf16le')]);
    expect((await readAll(le, 5)).units).toHaveLength(4);
    const be = Buffer.from(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(LEVEL1.replace('UTF-8', 'UTF-16'), 'utf16le').swap16()]));
    expect(variantIn((await readAll(be, 11)).units[2]!, 'zh-CN')!.text).toBe('红色的车 <b>');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(LEVEL1)]);
    expect((await readAll(bom, 2)).units).toHaveLength(4);
  });

  it('refuses what is no TMX, malformed XML, other encodings and bytes that are no UTF-8, with the reason', async () => {
    await expect(readAll('<?xml version="1.0"?><martif/>')).rejects.toThrow(/not a TMX document/);
    await expect(readAll('just text')).rejects.toThrow(XmlError);
    await expect(readAll('<tmx><body><tu><tuv xml:lang="en"><seg>x &nbsp; y</seg></tuv></tu></body></tmx>')).rejects.toThrow(/unknown entity/);
    await expect(readAll('<tmx><body><tu><tuv xml:lang="en"><seg>x')).rejects.toThrow(/ends/);
    await expect(readAll('<tmx><body></tmx></body>x')).rejects.toThrow(XmlError);
    await expect(readAll('<?xml version="1.0" encoding="ISO-8859-1"?><tmx/>')).rejects.toThrow(/ISO-8859-1/);
    await expect(readAll(Buffer.concat([Buffer.from('<tmx><body><tu><tuv xml:lang="en"><seg>'), Buffer.from([0xc3, 0x28]), Buffer.from('</seg></tuv></tu></body></tmx>')]))).rejects.toThrow(/UTF-8/);
  });

  it('reads a Node stream of 1,000,000 units in well under a minute and in constant memory', async () => {
    const n = 1_000_000;
    function* generate() {
      yield '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header creationtool="x" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" srclang="en-US" datatype="plaintext"/><body>\n';
      let batch = '';
      for (let i = 1; i <= n; i++) {
        batch += `<tu tuid="${i}"><prop type="x-n">${i}</prop><tuv xml:lang="en-US"><seg>Sentence number ${i} has <bpt i="1">&lt;b&gt;</bpt>bold<ept i="1">&lt;/b&gt;</ept> words in it.</seg></tuv><tuv xml:lang="es-ES"><seg>La frase ${i} tiene palabras.</seg></tuv></tu>\n`;
        if (i % 500 === 0) {
          yield Buffer.from(batch);
          batch = '';
        }
      }
      yield '</body></tmx>\n';
    }
    global.gc?.();
    const before = process.memoryUsage();
    const started = performance.now();
    let count = 0;
    let peak = 0;
    let last: TmxUnit | null = null;
    for await (const u of readTmx(Readable.from(generate(), { objectMode: false }))) {
      count++;
      last = u;
      if (count % 50_000 === 0) peak = Math.max(peak, process.memoryUsage().rss - before.rss);
    }
    const seconds = (performance.now() - started) / 1000;
    expect(count).toBe(n);
    expect(last!.variants[0]!.text).toBe(`Sentence number ${n} has <1>bold</1> words in it.`);
    expect(seconds).toBeLessThan(45);
    expect(peak).toBeLessThan(300 * 1024 * 1024);
  }, 120_000);
});

/** A random unit: texts with native-code tags at placeholder numbers that do not occur as text. */
function randomUnit(random: () => number, i: number): TmxUnit {
  const variant = (lang: string) => {
    let text = randomText(random, 80);
    const next = placeholderNumbers(text);
    const tags: Record<string, InlineTag> = {};
    const marks = Math.floor(random() * 4);
    // Places between characters that cut neither a placeholder already there nor a surrogate pair.
    const safe = (from = 0) => {
      const inside = new Set<number>();
      for (const m of text.matchAll(/<\/?\d+\/?>/g)) for (let p = m.index! + 1; p < m.index! + m[0].length; p++) inside.add(p);
      const places = Array.from({ length: text.length + 1 - from }, (_, p) => p + from).filter((p) => !inside.has(p) && !/[\uDC00-\uDFFF]/.test(text[p] ?? ''));
      return places[Math.floor(random() * places.length)]!;
    };
    for (let k = 0; k < marks; k++) {
      const n = next();
      const at = safe();
      if (random() < 0.5) {
        tags[n] = { kind: 'standalone', original: `<img src="a${k}.png"/>` };
        text = `${text.slice(0, at)}<${n}/>${text.slice(at)}`;
      } else {
        tags[n] = { kind: 'paired', original: `<span class="c${k}">`, closing: '</span>' };
        text = `${text.slice(0, at)}<${n}>${text.slice(at)}`;
        const end = safe(at + `<${n}>`.length);
        text = `${text.slice(0, end)}</${n}>${text.slice(end)}`;
      }
    }
    return { lang, text, tags };
  };
  return { tuid: String(i), variants: [variant('en'), variant('zh-CN')], props: random() < 0.3 ? [{ type: 'x-i', value: `v&<${i}>` }] : [], notes: random() < 0.3 ? [`note ${i}`] : [] };
}

/** A text's tags as native code (what another tool shows). */
const native = (text: string, tags: Record<string, InlineTag>) => restoreTags(text, Object.fromEntries(Object.entries(tags).map(([n, t]) => [n, { ...t, original: nativeCode(t.original), closing: nativeCode(t.closing ?? '') }])));

describe('writing TMX 1.4b', () => {
  it('writes what validates against the TMX 1.4b DTD and reads back the same texts, tags, props and notes (300 seeded units)', async () => {
    const random = seededRandom(1404);
    const units = Array.from({ length: 300 }, (_, i) => randomUnit(random, i));
    const xml = await collect(writeTmx(units, { srclang: 'en', props: [{ type: 'x-memory', value: 'Seeded' }], notes: ['seeded'] }));
    validate(xml, 'seeded.tmx');
    const { units: back, header } = await readAll(xml, 257);
    expect(header).toMatchObject({ srclang: 'en', props: [{ type: 'x-memory', value: 'Seeded' }], notes: ['seeded'] });
    expect(back).toHaveLength(units.length);
    back.forEach((u, i) => {
      const want = units[i]!;
      expect(u.props).toEqual(want.props);
      expect(u.notes).toEqual(want.notes);
      for (const lang of ['en', 'zh-CN']) {
        const a = variantIn(u, lang)!;
        const b = variantIn(want, lang)!;
        // Same placeholders at the same places, and each stands for the same native code.
        expect(a.text, `unit ${i} ${lang}`).toBe(b.text);
        expect(native(a.text, a.tags), `unit ${i} ${lang}`).toBe(native(b.text, b.tags));
      }
    });
  });

  it('writes markup read from a TMX file back as it was read', async () => {
    const { units } = await readAll(LEVEL2);
    const xml = await collect(writeTmx(units, { srclang: '*all*' }));
    validate(xml, 'level2.tmx');
    expect(xml).toContain('<bpt i="1" x="1" type="bold">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept>');
    expect(xml).toContain('<hi x="3" type="em">Espere</hi>');
    expect(xml).toContain('<ph>&lt;img src="<sub>alt text</sub>"/&gt;</ph>');
    // The lone bpt is written as an isolated begin mark.
    expect(xml).toContain('<it pos="begin" x="1">&lt;u&gt;</it>Sin cierre');
    const again = await readAll(xml);
    expect(again.units.map((u) => u.variants.map((v) => v.text))).toEqual(units.map((u) => u.variants.map((v) => v.text)));
  });

  it('keeps the output valid when a translation lost half of a pair or crossed two hi spans', async () => {
    const tags: Record<string, InlineTag> = {
      '1': { kind: 'paired', original: '<b>', closing: '</b>' },
      '2': { kind: 'paired', original: '<hi type="a">', closing: '</hi>' },
      '3': { kind: 'paired', original: '<hi type="b">', closing: '</hi>' },
    };
    const xml = await collect(writeTmx([{ variants: [{ lang: 'en', text: 'a <1>b c <2>d <3>e</2> f</3> <9> g', tags }], props: [], notes: [] }], { srclang: 'en' }));
    validate(xml, 'broken.tmx');
    expect(xml).toContain('<it pos="begin" x="1">&lt;b&gt;</it>');
    expect(xml).toContain('&lt;9&gt;');
  });

  it('is read back by translate-toolkit unit for unit, with the same texts', async () => {
    const { units: level1 } = await readAll(LEVEL1);
    const { units: level2 } = await readAll(LEVEL2);
    const random = seededRandom(7);
    const many: TmxUnit[] = [...level1.slice(0, 1), ...level2.slice(0, 1)];
    for (let i = 0; i < 200; i++) {
      const u = randomUnit(random, i);
      // PO keeps text as is but the toolkit trims nothing; control characters are not text.
      // The conversion skips units without a source text: every one here has one.
      const en = { ...u.variants[0]!, lang: 'en', text: `Unit ${i}: ${u.variants[0]!.text}` };
      many.push({ ...u, variants: [en, { ...u.variants[1]!, lang: 'es' }] });
    }
    const file = validate(await collect(writeTmx(many, { srclang: 'en' })), 'toolkit.tmx');
    const read = tmx2po(file, 'en', 'es');
    expect(read.pocount).toBe(many.length);
    expect(read.units).toHaveLength(many.length);
    read.units.forEach((u, i) => {
      const en = variantIn(many[i]!, 'en')!;
      const es = variantIn(many[i]!, 'es')!;
      expect(u.source, `unit ${i}`).toBe(native(en.text, en.tags));
      expect(u.target, `unit ${i}`).toBe(native(es.text, es.tags));
    });
  });
});
