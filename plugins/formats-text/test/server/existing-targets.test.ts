// Existing translations in bilingual files (issue 23 item 1): PO and XLIFF 1.2/2.x read each target's
// state, and a target written with a state is marked in the file's own way. Results are read back by
// Debian's gettext (`msgfmt -c`) and translate-toolkit (`xliff2po`, `translate.storage`).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { escapeXml } from '@linguaport/sdk/interchange';
import type { ParsedFile, TargetState, TranslationUnit } from '@linguaport/sdk/shared';
import { randomText, requireTool, seededRandom } from '@linguaport/sdk/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { poFormat, poString } from '../../server/formats/po.js';
import { xliffFormat } from '../../server/formats/xliff.js';

const utf8 = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const MT: TargetState = { stage: 'draft', origin: 'mt', detail: 'apertium' };
const TM_EXACT: TargetState = { stage: 'translated', origin: 'tm', detail: '100' };
const TM_FUZZY: TargetState = { stage: 'draft', origin: 'tm', detail: '87' };

const PYTHON = '/usr/bin/python3';
const toolkit = requireTool('xliff2po', { files: [PYTHON], debian: 'translate-toolkit' });
const msgfmt = requireTool('msgfmt', { debian: 'gettext' });
const dir = mkdtempSync(join(tmpdir(), 'existing-targets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a document translation does: machine output (marked `state`) for the units it chose, the rest as read. */
function translate(file: ParsedFile, choose: (u: TranslationUnit) => boolean, state: TargetState = MT): TranslationUnit[] {
  return file.units.map((u) => (choose(u) ? { ...u, target: `ES ${u.source}`, state } : u));
}

const byId = (file: ParsedFile) => new Map(file.units.map((u) => [u.id, u]));

const PO = `# Sample catalogue.
msgid ""
msgstr ""
"Project-Id-Version: sample 1.0\\n"
"Report-Msgid-Bugs-To: dev@example.com\\n"
"POT-Creation-Date: 2026-01-01 10:00+0000\\n"
"PO-Revision-Date: 2026-01-02 10:00+0000\\n"
"Last-Translator: Ana <ana@example.com>\\n"
"Language-Team: Spanish <es@example.com>\\n"
"Language: es\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

#: src/main.c:10
msgid "Open the file"
msgstr "Abrir el archivo"

#: src/main.c:11
#, fuzzy, c-format
#| msgid "Save %s"
msgid "Save the file %s"
msgstr "Guardar %s"

#: src/main.c:12
#, c-format
msgid "Close the window %s"
msgstr ""

msgctxt "menu"
msgid "Quit"
msgstr ""

#, c-format
msgid "One file deleted %d"
msgid_plural "Many files deleted %d"
msgstr[0] "Un archivo borrado %d"
msgstr[1] ""

msgid "A long text "
"that continues on a second line"
msgstr ""

#~ msgid "Old string"
#~ msgstr "Cadena vieja"
`;

describe('PO: existing translations', () => {
  it('reads each target with its state: translated, fuzzy (draft), empty (new); the header and obsolete entries are no units', async () => {
    const file = await poFormat.parse(utf8(PO));
    const units = file.units.map((u) => [u.source, u.target, u.state?.stage]);
    expect(units).toEqual([
      ['Open the file', 'Abrir el archivo', 'translated'],
      ['Save the file <1/>', 'Guardar <1/>', 'draft'],
      ['Close the window <1/>', undefined, 'new'],
      ['Quit', undefined, 'new'],
      ['One file deleted <1/>', 'Un archivo borrado <1/>', 'translated'],
      ['Many files deleted <1/>', undefined, 'new'],
      ['A long text that continues on a second line', undefined, 'new'],
    ]);
    expect(file.units[1]!.state?.native).toBe('fuzzy');
  });

  it('keeps a human msgstr, marks machine output fuzzy, keeps header and obsolete entries; msgfmt -c accepts it', async () => {
    const file = await poFormat.parse(utf8(PO));
    // The default choice: only units without a usable target (empty or fuzzy) are translated.
    const out = text(await poFormat.write(file, translate(file, (u) => u.state!.stage === 'new' || u.state!.stage === 'draft'), { targetLanguage: 'es' }));
    expect(out).toContain('#: src/main.c:10\nmsgid "Open the file"\nmsgstr "Abrir el archivo"\n');
    expect(out).toContain('#, fuzzy, c-format\n#| msgid "Save %s"\nmsgid "Save the file %s"\nmsgstr "ES Save the file %s"\n');
    expect(out).toContain('#: src/main.c:12\n#, fuzzy, c-format\nmsgid "Close the window %s"\nmsgstr "ES Close the window %s"\n');
    expect(out).toContain('#, fuzzy\nmsgctxt "menu"\nmsgid "Quit"\nmsgstr "ES Quit"\n');
    expect(out).toContain('#, fuzzy, c-format\nmsgid "One file deleted %d"\nmsgid_plural "Many files deleted %d"\nmsgstr[0] "Un archivo borrado %d"\nmsgstr[1] "ES Many files deleted %d"\n');
    expect(out).toContain('#~ msgid "Old string"\n#~ msgstr "Cadena vieja"\n');
    expect(out.slice(0, out.indexOf('#: src/main.c:10'))).toBe(PO.slice(0, PO.indexOf('#: src/main.c:10')));
    const back = byId(await poFormat.parse(utf8(out)));
    expect(back.get('1')!.state).toMatchObject({ stage: 'translated' });
    expect(back.get('3')!.state).toMatchObject({ stage: 'draft', native: 'fuzzy' });
    if (msgfmt) {
      writeFileSync(join(dir, 'out.po'), out);
      // Throws (with msgfmt's complaint) unless the catalogue passes its checks.
      execFileSync('/usr/bin/msgfmt', ['-c', '-o', join(dir, 'out.mo'), join(dir, 'out.po')], { stdio: 'pipe' });
    }
  });

  it('an exact memory match or a translator writes the entry without fuzzy; an entry with one machine form stays fuzzy', async () => {
    const file = await poFormat.parse(utf8(PO));
    const units = file.units.map((u) =>
      u.id === '2' ? { ...u, target: 'Guardar el archivo <1/>', state: TM_EXACT } : u.id === '3' ? { ...u, target: 'Cerrar la ventana <1/>' } : u.id === '4' ? { ...u, target: 'Salir', state: TM_FUZZY } : u,
    );
    const out = text(await poFormat.write(file, units));
    expect(out).toContain('#, c-format\n#| msgid "Save %s"\nmsgid "Save the file %s"\nmsgstr "Guardar el archivo %s"\n');
    expect(out).toContain('#, c-format\nmsgid "Close the window %s"\nmsgstr "Cerrar la ventana %s"\n');
    expect(out).toContain('#, fuzzy\nmsgctxt "menu"\nmsgid "Quit"\nmsgstr "Salir"\n');
  });

  it.skipIf(!toolkit)('po2xliff then our translation then xliff2po gives back the header and the human translations', async () => {
    writeFileSync(join(dir, 'in.po'), PO);
    execFileSync('/usr/bin/po2xliff', ['--progress=none', join(dir, 'in.po'), join(dir, 'in.xlf')], { stdio: 'pipe' });
    const file = await xliffFormat.parse(readFileSync(join(dir, 'in.xlf')));
    expect(file.units.some((u) => u.source.includes('Content-Type'))).toBe(false);
    const out = await xliffFormat.write(file, translate(file, (u) => u.state!.stage === 'new' || u.state!.stage === 'draft'), { targetLanguage: 'es' });
    writeFileSync(join(dir, 'out.xlf'), out);
    execFileSync('/usr/bin/xliff2po', ['--progress=none', join(dir, 'out.xlf'), join(dir, 'back.po')], { stdio: 'pipe' });
    const back = readFileSync(join(dir, 'back.po'), 'utf8');
    expect(back).toContain('"Project-Id-Version: sample 1.0\\n"');
    expect(back).toContain('"Plural-Forms: nplurals=2; plural=(n != 1);\\n"');
    expect(back).toMatch(/msgid "Open the file"\nmsgstr "Abrir el archivo"/);
    expect(back).toContain('#: src/main.c:12\n#, fuzzy\nmsgid "Close the window %s"\nmsgstr "ES Close the window %s"\n');
    if (msgfmt) execFileSync('/usr/bin/msgfmt', ['-c', '-o', '/dev/null', join(dir, 'back.po')], { stdio: 'pipe' });
  });
});

const XLIFF12 = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="a.txt" source-language="en" target-language="es" datatype="plaintext">
    <body>
      <trans-unit id="approved" approved="yes">
        <source>Open the file</source>
        <target state="translated">Abrir el archivo</target>
      </trans-unit>
      <trans-unit id="fuzzy" approved="no">
        <source>Save the file</source>
        <target state="needs-review-translation" state-qualifier="fuzzy-match">Guardar archivo</target>
      </trans-unit>
      <trans-unit id="plain">
        <source>Print the page</source>
        <target>Imprimir la página</target>
      </trans-unit>
      <trans-unit id="signed">
        <source>Exit now</source>
        <target state="signed-off">Salir ahora</target>
      </trans-unit>
      <trans-unit id="empty">
        <source>Close the window</source>
      </trans-unit>
      <trans-unit id="code" translate="no">
        <source>MAX_SIZE</source>
      </trans-unit>
      <trans-unit id="header" restype="x-gettext-domain-header" approved="no">
        <source>Content-Type: text/plain; charset=UTF-8
</source>
      </trans-unit>
    </body>
  </file>
  <file original="b.txt" source-language="en" datatype="plaintext">
    <body>
      <trans-unit id="seg" approved="yes">
        <source>First sentence. Second sentence.</source>
        <seg-source><mrk mtype="seg" mid="1">First sentence.</mrk> <mrk mtype="seg" mid="2">Second sentence.</mrk></seg-source>
        <target state="translated"><mrk mtype="seg" mid="1">Primera frase.</mrk> <mrk mtype="seg" mid="2">Segunda frase.</mrk></target>
      </trans-unit>
      <trans-unit id="new2">
        <source>Help me</source>
        <target state="new"/>
      </trans-unit>
    </body>
  </file>
</xliff>
`;

describe('XLIFF 1.2: existing translations', () => {
  it('reads state, approved and state-qualifier into the unit; skips the gettext header and translate="no"', async () => {
    const file = await xliffFormat.parse(utf8(XLIFF12));
    expect(file.units.map((u) => [u.id, u.state?.stage])).toEqual([
      ['approved', 'reviewed'],
      ['fuzzy', 'draft'],
      ['plain', 'translated'],
      ['signed', 'final'],
      ['empty', 'new'],
      ['seg', 'reviewed'],
      ['new2', 'new'],
    ]);
    expect(byId(file).get('fuzzy')!.state).toMatchObject({ origin: 'tm', native: 'needs-review-translation' });
  });

  it('writes machine output as needs-review-translation / mt-suggestion, not approved; memory matches as leveraged-tm / fuzzy-match; leaves the rest', async () => {
    const file = await xliffFormat.parse(utf8(XLIFF12));
    const units = file.units.map((u) => {
      if (u.id === 'fuzzy' || u.id === 'empty') return { ...u, target: `ES ${u.source}`, state: MT };
      if (u.id === 'approved') return { ...u, target: 'Abrir archivo', state: MT }; // "retranslate all"
      if (u.id === 'new2') return { ...u, target: 'Ayúdame', state: TM_EXACT };
      return u;
    });
    const out = text(await xliffFormat.write(file, units, { targetLanguage: 'es' }));
    expect(out).toContain('<trans-unit id="approved" approved="no">\n        <source>Open the file</source>\n        <target state="needs-review-translation" state-qualifier="mt-suggestion">Abrir archivo</target>');
    expect(out).toContain('<target state="needs-review-translation" state-qualifier="mt-suggestion">ES Save the file</target>');
    expect(out).toContain('<source>Close the window</source>\n        <target state="needs-review-translation" state-qualifier="mt-suggestion">ES Close the window</target>');
    expect(out).toContain('<target state="translated" state-qualifier="leveraged-tm">Ayúdame</target>');
    expect(out).toContain('<trans-unit id="plain">\n        <source>Print the page</source>\n        <target>Imprimir la página</target>');
    expect(out).toContain('<target state="signed-off">Salir ahora</target>');
    expect(out).toContain('<trans-unit id="header" restype="x-gettext-domain-header" approved="no">\n        <source>Content-Type: text/plain; charset=UTF-8\n</source>\n      </trans-unit>');
    expect(out).toContain('<trans-unit id="code" translate="no">\n        <source>MAX_SIZE</source>\n      </trans-unit>');
    const back = byId(await xliffFormat.parse(utf8(out)));
    expect(back.get('approved')!.state).toMatchObject({ stage: 'draft', origin: 'mt' });
    expect(back.get('seg')!.target).toBe(byId(file).get('seg')!.target);
    if (toolkit) {
      writeFileSync(join(dir, 'states.xlf'), out);
      const script = `
import json, sys
from translate.storage import xliff
store = xliff.xlifffile.parsefile(sys.argv[1])
print(json.dumps({u.getid().split(chr(4))[-1]: [str(u.target), u.isfuzzy(), u.isapproved()] for u in store.units if not u.isheader()}))
`;
      const read = JSON.parse(execFileSync(PYTHON, ['-c', script, join(dir, 'states.xlf')], { encoding: 'utf8' }));
      expect(read.approved).toEqual(['Abrir archivo', true, false]);
      expect(read.empty).toEqual(['ES Close the window', true, false]);
      expect(read.signed).toEqual(['Salir ahora', true, false]);
    }
  });
});

const XLIFF2 = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="en" trgLang="es">
  <file id="f1">
    <unit id="u1">
      <segment id="s1" state="reviewed">
        <source>Open the file</source>
        <target>Abrir el archivo</target>
      </segment>
      <ignorable>
        <source> </source>
      </ignorable>
      <segment id="s2" state="initial">
        <source>Save the file</source>
        <target>Guardar archivo</target>
      </segment>
      <segment id="s3">
        <source>Close the window</source>
      </segment>
    </unit>
    <unit id="u2" translate="no">
      <segment><source>MAX_SIZE</source></segment>
    </unit>
    <unit id="u3">
      <segment state="translated" subState="acme:checked">
        <source>Print the page</source>
        <target>Imprimir la página</target>
      </segment>
    </unit>
  </file>
</xliff>
`;

describe('XLIFF 2.x: existing translations', () => {
  it('reads the segment state (initial with a target is a draft) and writes machine output as translated with a linguaport subState', async () => {
    const file = await xliffFormat.parse(utf8(XLIFF2));
    expect(file.units.map((u) => [u.id, u.state?.stage])).toEqual([
      ['u1/s1', 'reviewed'],
      ['u1/s2', 'draft'],
      ['u1/s3', 'new'],
      ['u3', 'translated'],
    ]);
    const units = file.units.map((u) => (u.id === 'u1/s2' || u.id === 'u1/s3' ? { ...u, target: `ES ${u.source}`, state: MT } : u.id === 'u3' ? { ...u, target: 'Imprimir', state: TM_FUZZY } : u));
    const out = text(await xliffFormat.write(file, units, { targetLanguage: 'es' }));
    expect(out).toContain('<segment id="s1" state="reviewed">\n        <source>Open the file</source>\n        <target>Abrir el archivo</target>');
    expect(out).toContain('<segment id="s2" state="translated" subState="linguaport:mt=apertium">\n        <source>Save the file</source>\n        <target>ES Save the file</target>');
    expect(out).toContain('<segment id="s3" state="translated" subState="linguaport:mt=apertium">');
    expect(out).toContain('<segment state="translated" subState="linguaport:tm=87">');
    expect(out).toContain('<ignorable>\n        <source> </source>\n      </ignorable>');
    const back = byId(await xliffFormat.parse(utf8(out)));
    // Our own unreviewed output reads back as a draft, so a second upload does not take it for a translator's.
    expect(back.get('u1/s2')!.state).toMatchObject({ stage: 'draft', origin: 'mt', detail: 'apertium' });
    expect(back.get('u1/s1')!.state?.stage).toBe('reviewed');
  });
});

describe('XLIFF: a target confirmed as it stood', () => {
  it('is written with its new state though its text is the one read (1.2 and 2.x); the same state writes nothing', async () => {
    for (const [xml, id] of [
      [XLIFF2, 'u1/s2'],
      [`<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="a" source-language="en" target-language="es" datatype="plaintext"><body>\n<trans-unit id="t1"><source>Open</source><target state="needs-review-translation">Abrir</target></trans-unit>\n</body></file></xliff>\n`, 't1'],
    ] as const) {
      const file = await xliffFormat.parse(utf8(xml));
      const same = text(await xliffFormat.write(file, file.units.map((u) => ({ ...u }))));
      expect(same).toBe(xml);
      const confirmed = file.units.map((u) => (u.id === id ? { ...u, state: { stage: 'final' as const } } : u));
      const back = byId(await xliffFormat.parse(await xliffFormat.write(file, confirmed)));
      expect(back.get(id)!.state?.stage).toBe('final');
      expect(back.get(id)!.target).toBe(file.units.find((u) => u.id === id)!.target);
    }
  });
});

describe('PO: a target confirmed as it stood', () => {
  it('loses fuzzy (other flags and #| kept) when confirmed, keeps it as a draft, gains it when made a draft; the same state writes nothing', async () => {
    const file = await poFormat.parse(utf8(PO));
    expect(text(await poFormat.write(file, file.units.map((u) => ({ ...u }))))).toBe(PO);
    const states: Record<string, TargetState> = { '1': MT, '2': { stage: 'final' }, '5[0]': { stage: 'draft', native: 'needs-review' } };
    const out = text(await poFormat.write(file, file.units.map((u) => (states[u.id] ? { ...u, state: states[u.id]! } : u))));
    // The msgstr lines keep their bytes: only the flags change.
    expect(out).toContain('#: src/main.c:10\n#, fuzzy\nmsgid "Open the file"\nmsgstr "Abrir el archivo"\n');
    expect(out).toContain('#: src/main.c:11\n#, c-format\n#| msgid "Save %s"\nmsgid "Save the file %s"\nmsgstr "Guardar %s"\n');
    expect(out).toContain('#, fuzzy, c-format\nmsgid "One file deleted %d"\n');
    const back = byId(await poFormat.parse(utf8(out)));
    expect([back.get('1')!.state?.stage, back.get('2')!.state?.stage, back.get('5[0]')!.state?.stage]).toEqual(['draft', 'translated', 'draft']);
    if (toolkit) {
      writeFileSync(join(dir, 'confirmed.po'), out);
      const script = 'import json, sys\nfrom translate.storage import po\nstore = po.pofile(open(sys.argv[1], "rb"))\nprint(json.dumps([[str(u.source), u.isfuzzy(), u.hastypecomment("c-format")] for u in store.units if not u.isheader() and not u.isobsolete()]))';
      const units = JSON.parse(execFileSync(PYTHON, ['-c', script, join(dir, 'confirmed.po')], { encoding: 'utf8' })) as Array<[string, boolean, boolean]>;
      expect(units.slice(0, 2)).toEqual([
        ['Open the file', true, false],
        ['Save the file %s', false, true],
      ]);
    }
    if (msgfmt) {
      writeFileSync(join(dir, 'confirmed.po'), out);
      // msgfmt checks the catalogue and uses the confirmed entry; the other two translated ones are fuzzy.
      const run = spawnSync('/usr/bin/msgfmt', ['-c', '--statistics', '-o', '/dev/null', join(dir, 'confirmed.po')], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C', LANGUAGE: '' } });
      expect([run.status, run.stderr.trim()]).toEqual([0, '1 translated message, 2 fuzzy translations, 3 untranslated messages.']);
    }
  });
});

describe('XLIFF: files that are not well-formed', () => {
  it('refuses a duplicated attribute and an unclosed element with the reason and the position', async () => {
    const dup = XLIFF12.replace('<trans-unit id="plain">', '<trans-unit id="plain" id="again">');
    await expect(xliffFormat.validate!(utf8(dup))).rejects.toThrow(/xliff: not well-formed XML: the attribute id is given twice on <trans-unit> \(line 13, column 30\)/);
    const unclosed = XLIFF12.replace('<target>Imprimir la página</target>', '<target>Imprimir la página');
    await expect(xliffFormat.validate!(utf8(unclosed))).rejects.toThrow(/xliff: not well-formed XML: <\/trans-unit> closes <target> opened at line 15, column 9 \(line 16, column 7\)/);
    await expect(xliffFormat.validate!(utf8(XLIFF12.slice(0, XLIFF12.indexOf('<trans-unit id="signed">'))))).rejects.toThrow(/not well-formed XML: the file ends before <\/body> \(is it truncated\?\), the element opened at line 4, column 5/);
    await expect(xliffFormat.validate!(utf8('<xliff version="1.2"><file a="1" b></file></xliff>'))).rejects.toThrow(/malformed attribute in <file>/);
    await expect(xliffFormat.validate!(utf8(XLIFF12))).resolves.toBeUndefined();
    await expect(poFormat.validate!(utf8('msgid "a"\nmsgstr "b'))).rejects.toThrow(/po: line 2/);
  });
});

describe('seeded round trips: kept targets stay, machine targets read back as machine drafts', () => {
  const text1 = (random: () => number) => randomText(random, 60).replace(/\r/g, '').trim() || 'word';
  const pick = <T>(random: () => number, list: readonly T[]) => list[Math.floor(random() * list.length)]!;

  /** Writes a random choice of units as machine output, reads the result back and checks every unit. */
  async function check(format: typeof poFormat, bytes: Uint8Array, random: () => number, label: string) {
    const file = await format.parse(bytes);
    const chosen = new Set(file.units.filter(() => random() < 0.5).map((u) => u.id));
    const out = await format.write(file, translate(file, (u) => chosen.has(u.id)));
    const back = byId(await format.parse(out));
    for (const u of file.units) {
      const b = back.get(u.id)!;
      if (chosen.has(u.id)) {
        expect(b.target, label).toBe(`ES ${u.source}`);
        expect(b.state, label).toMatchObject({ stage: 'draft' });
      } else if (format === poFormat && u.state!.stage === 'translated' && [...chosen].some((id) => id.split('[')[0] === u.id.split('[')[0])) {
        // A plural form beside a machine form: the entry as a whole is fuzzy now.
        expect([b.target, b.state!.stage], label).toEqual([u.target, 'draft']);
      } else expect([b.target, b.state!.stage], label).toEqual([u.target, u.state!.stage]);
    }
  }

  it('PO: 200 random catalogues (translated, fuzzy, empty, plural entries)', async () => {
    const random = seededRandom(23);
    for (let n = 0; n < 200; n++) {
      let po = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n';
      for (let k = 0; k < 1 + Math.floor(random() * 6); k++) {
        const kind = pick(random, ['translated', 'fuzzy', 'empty'] as const);
        const target = (t: string) => (kind === 'empty' ? '' : `T ${t}`);
        const id = `${text1(random)} ${k}`;
        po += `\n${kind === 'fuzzy' ? '#, fuzzy\n' : ''}${random() < 0.3 ? `msgctxt "c${k}"\n` : ''}${poString('msgid', id, '\n', '\n')}`;
        if (random() < 0.3) po += `${poString('msgid_plural', `${id} many`, '\n', '\n')}${poString('msgstr[0]', target(id), '\n', '\n')}${poString('msgstr[1]', random() < 0.5 ? '' : target(id), '\n', '\n')}`;
        else po += poString('msgstr', target(id), '\n', '\n');
      }
      if (random() < 0.3) po += '\n#~ msgid "gone"\n#~ msgstr "ido"\n';
      await check(poFormat, utf8(po), random, `seed 23 #${n}`);
    }
  });

  it('XLIFF 1.2 and 2.1: 200 random files of every state', async () => {
    const random = seededRandom(2301);
    for (let n = 0; n < 200; n++) {
      const v2 = random() < 0.5;
      let body = '';
      for (let k = 0; k < 1 + Math.floor(random() * 6); k++) {
        const source = escapeXml(`${text1(random)} ${k}`);
        const target = random() < 0.25 ? '' : `<target>T ${source}</target>`;
        if (v2) {
          const state = pick(random, [undefined, 'initial', 'translated', 'reviewed', 'final']);
          body += `<unit id="u${k}"><segment${state && target ? ` state="${state}"` : ''}><source>${source}</source>${target}</segment></unit>\n`;
        } else {
          const state = pick(random, [undefined, 'new', 'needs-translation', 'needs-review-translation', 'translated', 'final', 'signed-off']);
          const approved = pick(random, [undefined, 'yes', 'no']);
          const t = target && state ? target.replace('<target>', `<target state="${state}">`) : target;
          body += `<trans-unit id="t${k}"${approved ? ` approved="${approved}"` : ''}><source>${source}</source>${t}</trans-unit>\n`;
        }
      }
      const xml = v2
        ? `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="en" trgLang="es"><file id="f">\n${body}</file></xliff>\n`
        : `<xliff version="1.2"><file original="f" source-language="en" datatype="plaintext"><body>\n${body}</body></file></xliff>\n`;
      await check(xliffFormat as typeof poFormat, utf8(xml), random, `seed 2301 #${n}`);
    }
  });
});
