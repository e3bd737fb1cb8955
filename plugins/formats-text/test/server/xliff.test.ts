// Database: none
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { escapeXml } from '@linguaport/sdk/interchange';
import type { TranslationUnit } from '@linguaport/sdk/shared';
import { checkIdentityRoundTrip, randomText, requireTool, seededRandom } from '@linguaport/sdk/testing';
import { describe, expect, it } from 'vitest';
import { xliffFormat } from '../../server/formats/xliff.js';

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const upper = (source: string) => source.replace(/[a-z]+/g, (w) => w.toUpperCase());

const XLIFF12 = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="app.properties" source-language="en" target-language="fr" datatype="plaintext">
    <body>
      <trans-unit id="greet" resname="greeting">
        <source>Hello <g id="1">world</g>!<x id="2"/> &amp; more</source>
        <target state="needs-review-translation">Bonjour <g id="1">monde</g>!<x id="2"/> &amp; plus</target>
        <note>Shown at start</note>
      </trans-unit>
      <trans-unit id="click">
        <source>Click <bpt id="1">&lt;b&gt;</bpt>here<ept id="1">&lt;/b&gt;</ept> or <ph id="2">{0}</ph>.</source>
      </trans-unit>
      <trans-unit id="code" translate="no">
        <source>MAX_SIZE</source>
      </trans-unit>
      <group id="g1">
        <trans-unit id="empty">
          <source>Line one
Line two &lt;tag&gt; "quoted"</source>
          <target/>
        </trans-unit>
      </group>
    </body>
  </file>
</xliff>
`;

const XLIFF21 = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="en-US">
  <file id="f1">
    <notes><note>File note</note></notes>
    <unit id="u1">
      <notes><note category="context">Button label</note></notes>
      <segment id="s1">
        <source>Press <pc id="1">Save</pc><ph id="2"/> now.</source>
      </segment>
      <ignorable>
        <source> </source>
      </ignorable>
      <segment id="s2" state="initial">
        <source>Then <sc id="3"/>wait<ec startRef="3"/> <mrk id="m1" translate="yes">please</mrk>.</source>
        <target>Dann <sc id="3"/>warten<ec startRef="3"/> <mrk id="m1" translate="yes">bitte</mrk>.</target>
      </segment>
    </unit>
    <unit id="u2" translate="no">
      <segment><source>Do not touch</source></segment>
    </unit>
  </file>
</xliff>
`;

async function translate(bytes: Uint8Array, to: (unit: TranslationUnit) => string, language?: string) {
  const file = await xliffFormat.parse(bytes);
  const units = file.units.map((u) => ({ ...u, target: to(u) }));
  const written = await xliffFormat.write(file, units, language ? { targetLanguage: language } : {});
  const back = await xliffFormat.parse(written);
  expect(back.units.map((u) => u.target ?? '')).toEqual(units.map((u) => u.target));
  expect(back.units.map((u) => u.source)).toEqual(file.units.map((u) => u.source));
  return { written: text(written), back };
}

const toolkit = requireTool('po2tmx', { files: ['/usr/bin/python3'], debian: 'translate-toolkit' });

function readWithToolkit(xml: string): { source: string; target: string; units: Array<[string, string | null]> } {
  const dir = mkdtempSync(join(tmpdir(), 'xliff-test-'));
  try {
    writeFileSync(join(dir, 'out.xlf'), xml);
    const script = `
import json, sys
from translate.storage import xliff
store = xliff.xlifffile(open(sys.argv[1], "rb"))
print(json.dumps({"source": store.getsourcelanguage(), "target": store.gettargetlanguage(), "units": [[str(u.source), None if u.target is None else str(u.target)] for u in store.units]}))
`;
    return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, join(dir, 'out.xlf')], { encoding: 'utf8' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('XLIFF format', () => {
  it('reads XLIFF 1.2 trans-units: inline codes as placeholders, targets, notes, languages, translate="no" skipped', async () => {
    const file = await xliffFormat.parse(utf8(XLIFF12));
    expect(file.sourceLanguage).toBe('en');
    expect(file.targetLanguage).toBe('fr');
    expect(file.units.map((u) => [u.id, u.source, u.target])).toEqual([
      ['greet', 'Hello <1>world</1>!<2/> & more', 'Bonjour <1>monde</1>!<2/> & plus'],
      ['click', 'Click <1/>here<2/> or <3/>.', undefined],
      ['empty', 'Line one\nLine two <tag> "quoted"', undefined],
    ]);
    expect(file.units[0]!.tags).toEqual({ 1: { kind: 'paired', original: '<g id="1">', closing: '</g>' }, 2: { kind: 'standalone', original: '<x id="2"/>' } });
    expect(file.units[1]!.tags['1']).toEqual({ kind: 'standalone', original: '<bpt id="1">&lt;b&gt;</bpt>' });
    expect(file.units[0]!.context).toMatchObject({ part: 'app.properties', style: 'greeting', note: 'Shown at start' });
  });

  it('reads XLIFF 2.1 segments: pc, ph, sc, ec and mrk as placeholders; ignorables and translate="no" skipped', async () => {
    const file = await xliffFormat.parse(utf8(XLIFF21));
    expect(file.sourceLanguage).toBe('en-US');
    expect(file.targetLanguage).toBeUndefined();
    expect(file.units.map((u) => [u.id, u.source, u.target])).toEqual([
      ['u1/s1', 'Press <1>Save</1><2/> now.', undefined],
      ['u1/s2', 'Then <1/>wait<2/> <3>please</3>.', 'Dann <1/>warten<2/> <3>bitte</3>.'],
    ]);
    expect(file.units[0]!.context.note).toBe('Button label');
  });

  it('gives back the same bytes for both versions, with CRLF and a byte-order mark', async () => {
    await checkIdentityRoundTrip(xliffFormat, utf8(XLIFF12), '1.2');
    await checkIdentityRoundTrip(xliffFormat, utf8(XLIFF21), '2.1');
    await checkIdentityRoundTrip(xliffFormat, utf8('\uFEFF' + XLIFF12.replace(/\n/g, '\r\n')), '1.2 BOM CRLF');
  });

  it('writes 1.2 targets: replaced, inserted after the source, filled where empty, with state and target-language', async () => {
    const { written, back } = await translate(utf8(XLIFF12), (u) => upper(u.source), 'de');
    expect(back.targetLanguage).toBe('de');
    expect(written).toContain('<file original="app.properties" source-language="en" target-language="de" datatype="plaintext">');
    expect(written).toContain('<target state="translated">HELLO <g id="1">WORLD</g>!<x id="2"/> &amp; MORE</target>\n        <note>Shown at start</note>');
    expect(written).toContain('<source>Click <bpt id="1">&lt;b&gt;</bpt>here<ept id="1">&lt;/b&gt;</ept> or <ph id="2">{0}</ph>.</source>\n        <target state="translated">CLICK <bpt id="1">&lt;b&gt;</bpt>HERE<ept id="1">&lt;/b&gt;</ept> OR <ph id="2">{0}</ph>.</target>\n      </trans-unit>');
    expect(written).toContain('<target state="translated">LINE ONE\nLINE TWO &lt;TAG&gt; "QUOTED"</target>');
    expect(written).toContain('<trans-unit id="code" translate="no">\n        <source>MAX_SIZE</source>\n      </trans-unit>');
  });

  it('writes 2.1 targets with the segment state and trgLang', async () => {
    const { written } = await translate(utf8(XLIFF21), (u) => upper(u.source), 'de-DE');
    expect(written).toContain('<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="en-US" trgLang="de-DE">');
    expect(written).toContain('<segment id="s1" state="translated">\n        <source>Press <pc id="1">Save</pc><ph id="2"/> now.</source>\n        <target>PRESS <pc id="1">SAVE</pc><ph id="2"/> NOW.</target>\n      </segment>');
    expect(written).toContain('<segment id="s2" state="translated">');
    expect(written).toContain('<target>THEN <sc id="3"/>WAIT<ec startRef="3"/> <mrk id="m1" translate="yes">PLEASE</mrk>.</target>');
    expect(written).toContain('<unit id="u2" translate="no">\n      <segment><source>Do not touch</source></segment>');
  });

  it('leaves a unit without a new target as it was', async () => {
    const file = await xliffFormat.parse(utf8(XLIFF12));
    const out = text(await xliffFormat.write(file, [{ ...file.units[1]!, target: 'Cliquez <1/>ici<2/> ou <3/>.' }]));
    expect(out.replace(/\n\s*<target state="translated">Cliquez[^\n]*<\/target>/, '')).toBe(XLIFF12);
  });

  it('round-trips 200 seeded random texts in both versions', async () => {
    const random = seededRandom(1212);
    for (let i = 0; i < 200; i++) {
      const a = escapeXml(randomText(random, 120));
      const b = escapeXml(randomText(random, 120));
      const sample =
        i % 2
          ? `<xliff version="1.2"><file original="x" source-language="en" datatype="plaintext"><body>\n<trans-unit id="a"><source>x ${a}<g id="1">${b}</g></source><target>${b}</target></trans-unit>\n<trans-unit id="b"><source>${b}<x id="1"/>y</source></trans-unit></body></file></xliff>`
          : `<xliff version="2.0" srcLang="en"><file id="f"><unit id="a"><segment><source>x ${a}<pc id="1">${b}</pc></source></segment><segment><source>${b} <ph id="2"/>y</source><target>${a}</target></segment></unit></file></xliff>`;
      await checkIdentityRoundTrip(xliffFormat, utf8(sample), `seed 1212 #${i}`);
      await translate(utf8(sample), (u) => 'Ü ' + upper(u.source));
    }
  });

  it.skipIf(!toolkit)('writes XLIFF 1.2 that translate-toolkit reads with the same targets', async () => {
    const { written } = await translate(utf8(XLIFF12), (u) => upper(u.source), 'de');
    const read = readWithToolkit(written);
    expect(read.source).toBe('en');
    expect(read.target).toBe('de');
    expect(read.units).toEqual([
      ['Hello world! & more', 'HELLO WORLD! & MORE'],
      ['Click <b>here</b> or {0}.', 'CLICK <b>HERE</b> OR {0}.'],
      ['MAX_SIZE', null],
      // The toolkit folds white space where xml:space is not "preserve".
      ['Line one Line two <tag> "quoted"', 'LINE ONE LINE TWO <TAG> "QUOTED"'],
    ]);
  });

  it('refuses a truncated file, another XML root, an unknown entity and binary data', async () => {
    await expect(xliffFormat.parse(utf8(XLIFF12.slice(0, 400)))).rejects.toThrow(/xliff: the file ends (before|inside)/);
    await expect(xliffFormat.parse(utf8('<?xml version="1.0"?><html><body/></html>'))).rejects.toThrow(/xliff: the root element is <html>, not <xliff>/);
    await expect(xliffFormat.parse(utf8('<xliff version="1.2"><file><body><trans-unit id="1"><source>&nbsp;</source></trans-unit></body></file></xliff>'))).rejects.toThrow(/xliff: not well-formed XML: unknown entity &nbsp;/);
    await expect(xliffFormat.parse(utf8('<xliff version="1.2"><file></body></xliff>'))).rejects.toThrow(/xliff: not well-formed XML: <\/body> closes <file>/);
    await expect(xliffFormat.parse(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0x08, 0, 0xff]))).rejects.toThrow(/xliff: the file is not text/);
    await expect(xliffFormat.parse(utf8('just text'))).rejects.toThrow(/xliff: not well-formed XML: text outside the root element/);
  });

  it('sniffs XLIFF of both versions and refuses other files', () => {
    expect(xliffFormat.sniff!(utf8(XLIFF12))).toBe(true);
    expect(xliffFormat.sniff!(utf8('\uFEFF' + XLIFF21))).toBe(true);
    expect(xliffFormat.sniff!(utf8('<?xml version="1.0"?><tmx version="1.4"/>'))).toBe(false);
    expect(xliffFormat.sniff!(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0x08, 0]))).toBe(false);
  });
});
