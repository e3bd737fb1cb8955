import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { platformLanguage, readTmx, variantIn, writeTmx, type TmxUnit } from '../../src/interchange/index.js';

// TMX 1.4b read from files other tools write (levels 1 and 2, language variants, several tuv per
// tu), and our output checked by xmllint against the TMX 1.4b DTD and read back by translate-toolkit.

const DTD = join(import.meta.dirname, '..', '..', 'src', 'interchange', 'tmx14.dtd');
const dir = mkdtempSync(join(tmpdir(), 'tmx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE tmx SYSTEM "tmx14.dtd">
<tmx version="1.4">
  <header creationtool="OmegaT" creationtoolversion="6" segtype="sentence" o-tmf="OmegaT TMX" adminlang="EN-US" srclang="EN-US" datatype="plaintext"/>
  <body>
    <tu tuid="1">
      <prop type="x-domain">legal</prop>
      <note>From the 2024 contract</note>
      <tuv xml:lang="EN-US"><seg>The &lt;contract&gt; is &amp; remains valid.</seg></tuv>
      <tuv xml:lang="es-ES"><seg>El &lt;contrato&gt; es y sigue siendo válido.</seg></tuv>
      <tuv xml:lang="fr"><seg>Le contrat reste valable.</seg></tuv>
    </tu>
    <tu>
      <tuv xml:lang="en"><seg>Press <bpt i="1">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> now<ph x="2">&lt;br/&gt;</ph>and <hi type="em">wait</hi>.</seg></tuv>
      <tuv xml:lang="es"><seg>Pulse <bpt i="1">&lt;b&gt;</bpt>Guardar<ept i="1">&lt;/b&gt;</ept> ahora<ph x="2">&lt;br/&gt;</ph>y <hi type="em">espere</hi>.</seg></tuv>
    </tu>
    <tu>
      <tuv xml:lang="zh-Hans"><seg><![CDATA[红色的车]]></seg></tuv>
      <tuv xml:lang="en-GB"><seg>The red car</seg></tuv>
    </tu>
  </body>
</tmx>`;

async function readAll(text: string, chunk = 7): Promise<{ units: TmxUnit[]; srclang: string }> {
  let srclang = '';
  // Tiny chunks: every construct is cut across chunk boundaries somewhere.
  const pieces = Array.from({ length: Math.ceil(text.length / chunk) }, (_, i) => Buffer.from(text.slice(i * chunk, (i + 1) * chunk)));
  const units: TmxUnit[] = [];
  for await (const u of readTmx(pieces, (h) => (srclang = h.srclang))) units.push(u);
  return { units, srclang };
}

async function text(gen: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const s of gen) out += s;
  return out;
}

describe('TMX 1.4b', () => {
  it('reads units with their variants in platform codes, props, notes, entities and CDATA, in chunks of any size', async () => {
    const { units, srclang } = await readAll(SAMPLE);
    expect(srclang).toBe('EN-US');
    expect(units).toHaveLength(3);
    expect(units[0]).toMatchObject({ tuid: '1', props: { 'x-domain': 'legal' }, notes: ['From the 2024 contract'] });
    expect(units[0]!.variants.map((v) => v.lang)).toEqual(['en', 'es', 'fr']);
    expect(variantIn(units[0]!, 'en-US')!.text).toBe('The <contract> is & remains valid.');
    expect(variantIn(units[2]!, 'zh-CN')!.text).toBe('红色的车');
    expect(platformLanguage('zh-Hant-TW')).toBe('zh-TW');
  });

  it('keeps level-2 inline markup as numbered placeholders with the native code', async () => {
    const { units } = await readAll(SAMPLE, 3);
    const en = variantIn(units[1]!, 'en')!;
    expect(en.text).toBe('Press <1>Save</1> now<2/>and <3>wait</3>.');
    expect(en.tags['1']).toEqual({ kind: 'paired', original: '<b>', closing: '</b>' });
    expect(en.tags['2']).toEqual({ kind: 'standalone', original: '<br/>' });
    expect(en.tags['3']).toMatchObject({ kind: 'paired', closing: '</hi>' });
  });

  it('refuses what is no TMX', async () => {
    await expect(readAll('<?xml version="1.0"?><martif/>')).rejects.toThrow(/not a TMX document/);
    await expect(readAll('<tmx><body><tu><tuv xml:lang="en"><seg>x &nbsp; y</seg></tuv></tu></body></tmx>')).rejects.toThrow(/unknown entity/);
  });

  it('writes TMX that validates against the TMX 1.4b DTD and that translate-toolkit reads back unit for unit', async () => {
    const { units } = await readAll(SAMPLE);
    const many: TmxUnit[] = [...units];
    for (let i = 0; i < 50; i++) many.push({ variants: [{ lang: 'en', text: `Line ${i} & <more> "quoted"`, tags: {} }, { lang: 'es', text: `Línea ${i} y más`, tags: {} }], props: {}, notes: [] });
    const file = join(dir, 'out.tmx');
    writeFileSync(file, await text(writeTmx(many, { srclang: 'en' })));
    execFileSync('xmllint', ['--noout', '--dtdvalid', DTD, file], { stdio: 'pipe' });
    // Our own reading of what we wrote gives the same texts and tags back.
    const back = await readAll(await text(writeTmx(many, { srclang: 'en' })), 64);
    expect(back.units.map((u) => variantIn(u, 'en')?.text)).toEqual(many.map((u) => variantIn(u, 'en')?.text));
    expect(variantIn(back.units[1]!, 'es')!.tags).toEqual(variantIn(units[1]!, 'es')!.tags);
    // Debian's interpreter: the python3 first on PATH may be another one, without translate-toolkit.
    const script = [
      'import json, sys',
      'from translate.storage import tmx',
      'store = tmx.tmxfile(open(sys.argv[1], "rb"), sourcelanguage="en", targetlanguage="es")',
      'print(json.dumps([[u.source, u.target] for u in store.units if u.source]))',
    ].join('\n');
    const read = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' })) as [string, string][];
    expect(read.length).toBe(many.filter((u) => variantIn(u, 'en')).length);
    expect(read[0]).toEqual(['The <contract> is & remains valid.', 'El <contrato> es y sigue siendo válido.']);
    expect(read[3]).toEqual(['Line 0 & <more> "quoted"', 'Línea 0 y más']);
  });
});
