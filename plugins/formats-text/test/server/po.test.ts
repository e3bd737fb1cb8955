// Database: none
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ParsedFile, TranslationUnit } from '@linguaport/sdk/shared';
import { checkIdentityRoundTrip, randomText, requireTool, seededRandom } from '@linguaport/sdk/testing';
import { describe, expect, it } from 'vitest';
import { poFormat } from '../../server/formats/po.js';

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const upper = (source: string) => source.replace(/[a-z]+/g, (w) => w.toUpperCase());

const SAMPLE = `# Translation of the sample application.
# Copyright (C) 2026
msgid ""
msgstr ""
"Project-Id-Version: sample 1.0\\n"
"Language-Team: German <de@example.org>\\n"
"Language: de\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

# A translator's comment
#. Shown on the start page
#: src/main.c:12 src/main.c:40
#, c-format
msgid "Hello, %s! You have %d new messages."
msgstr "Hallo, %s! Sie haben %d neue Nachrichten."

#: src/menu.c:3
#, fuzzy
#| msgid "Open file"
msgctxt "menu"
msgid "Open"
msgstr "Öffnen"

msgid ""
"A long text that was wrapped\\n"
"over \\"several\\" lines\\twith a tab."
msgstr ""

#, c-format
msgid "One file"
msgid_plural "%d files"
msgstr[0] ""
msgstr[1] ""

msgid "Welcome, {name}. Your code is {{code}}."
msgstr ""

#~ msgid "Old string"
#~ msgstr "Alte Zeichenkette"
`;

/** What a bilingual file gives back: the targets of the units as read from the written bytes. */
async function translate(bytes: Uint8Array, to: (unit: TranslationUnit) => string, language?: string): Promise<{ written: string; back: ParsedFile; units: TranslationUnit[] }> {
  const file = await poFormat.parse(bytes);
  const units = file.units.map((u) => ({ ...u, target: to(u) }));
  const written = await poFormat.write(file, units, language ? { targetLanguage: language } : {});
  const back = await poFormat.parse(written);
  expect(back.units.map((u) => u.target ?? '')).toEqual(units.map((u) => u.target));
  expect(back.units.map((u) => u.source)).toEqual(file.units.map((u) => u.source));
  return { written: text(written), back, units };
}

const PYTHON = '/usr/bin/python3';
const toolkit = requireTool('po2tmx', { files: [PYTHON], debian: 'translate-toolkit' });

function readWithToolkit(po: string): { language: string; units: Array<[string, string | string[], boolean, string]> } {
  const dir = mkdtempSync(join(tmpdir(), 'po-test-'));
  try {
    writeFileSync(join(dir, 'out.po'), po);
    const script = `
import json, sys
from translate.storage import po
store = po.pofile(open(sys.argv[1], "rb"))
units = []
for u in store.units:
    if u.isheader() or u.isobsolete():
        continue
    target = [str(s) for s in u.target.strings] if u.hasplural() else str(u.target)
    units.append([str(u.source), target, u.isfuzzy(), u.getcontext()])
print(json.dumps({"language": store.gettargetlanguage() or "", "units": units}))
`;
    return JSON.parse(execFileSync(PYTHON, ['-c', script, join(dir, 'out.po')], { encoding: 'utf8' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('gettext PO format', () => {
  it('reads entries as units: plural forms, context, comments, placeholders; the header and obsolete entries are none', async () => {
    const file = await poFormat.parse(utf8(SAMPLE));
    expect(file.targetLanguage).toBe('de');
    expect(file.units.map((u) => u.id)).toEqual(['1', '2', '3', '4[0]', '4[1]', '5']);
    expect(file.units.map((u) => u.source)).toEqual([
      'Hello, <1/>! You have <2/> new messages.',
      'Open',
      'A long text that was wrapped\nover "several" lines\twith a tab.',
      'One file',
      '<1/> files',
      'Welcome, <1/>. Your code is <2/>.',
    ]);
    const [hello, open] = file.units;
    expect(hello!.target).toBe('Hallo, <1/>! Sie haben <2/> neue Nachrichten.');
    expect(hello!.tags).toEqual({ 1: { kind: 'standalone', original: '%s' }, 2: { kind: 'standalone', original: '%d' } });
    expect(hello!.context).toMatchObject({ part: 'src/main.c:12 src/main.c:40', note: "A translator's comment\nShown on the start page", meta: { flags: 'c-format' } });
    expect(open!.target).toBe('Öffnen');
    expect(open!.context.meta).toEqual({ msgctxt: 'menu', flags: 'fuzzy' });
    expect(file.units[2]!.target).toBeUndefined();
    expect(file.units[5]!.tags).toEqual({ 1: { kind: 'standalone', original: '{name}' }, 2: { kind: 'standalone', original: '{{code}}' } });
  });

  it('gives back the same bytes, with CRLF, a byte-order mark, and as a template', async () => {
    await checkIdentityRoundTrip(poFormat, utf8(SAMPLE), 'LF');
    await checkIdentityRoundTrip(poFormat, utf8('\uFEFF' + SAMPLE.replace(/\n/g, '\r\n')), 'BOM CRLF');
    await checkIdentityRoundTrip(poFormat, utf8(SAMPLE.replace(/msgstr "[^"]+"/g, 'msgstr ""')), 'POT');
    await checkIdentityRoundTrip(poFormat, utf8('msgid "a"\nmsgstr "b"'), 'no final line end');
  });

  it('writes targets escaped and wrapped, removes fuzzy where it writes and sets the header language', async () => {
    const { written } = await translate(utf8(SAMPLE), (u) => upper(u.source), 'pt-BR');
    expect(written).toContain('"Language: pt-BR\\n"\n"MIME-Version: 1.0\\n"');
    expect(written).toContain('#, c-format\nmsgid "Hello, %s! You have %d new messages."\nmsgstr "HELLO, %s! YOU HAVE %d NEW MESSAGES."\n');
    expect(written).toContain('#: src/menu.c:3\n#| msgid "Open file"\nmsgctxt "menu"\nmsgid "Open"\nmsgstr "OPEN"\n');
    expect(written).toContain('msgstr ""\n"A LONG TEXT THAT WAS WRAPPED\\n"\n"OVER \\"SEVERAL\\" LINES\\tWITH A TAB."\n');
    expect(written).toContain('msgstr[0] "ONE FILE"\nmsgstr[1] "%d FILES"\n');
    expect(written).toContain('msgstr "WELCOME, {name}. YOUR CODE IS {{code}}."\n');
    expect(written).toContain('#~ msgid "Old string"\n#~ msgstr "Alte Zeichenkette"\n');
    expect(written.startsWith('# Translation of the sample application.\n# Copyright (C) 2026\nmsgid ""\nmsgstr ""\n"Project-Id-Version: sample 1.0\\n"')).toBe(true);
  });

  it('keeps an untranslated entry and the flags of an unchanged one as they were', async () => {
    const file = await poFormat.parse(utf8(SAMPLE));
    const out = text(await poFormat.write(file, [{ ...file.units[5]!, target: 'Willkommen, <1/>. Ihr Code ist <2/>.' }]));
    expect(out).toContain('#, fuzzy\n#| msgid "Open file"');
    expect(out).toContain('msgid "Welcome, {name}. Your code is {{code}}."\nmsgstr "Willkommen, {name}. Ihr Code ist {{code}}."\n');
    expect(out.replace('msgstr "Willkommen, {name}. Ihr Code ist {{code}}."', 'msgstr ""')).toBe(SAMPLE);
  });

  it('sets the Language field in place in a CRLF file', async () => {
    const crlf = SAMPLE.replace(/\n/g, '\r\n');
    const file = await poFormat.parse(utf8(crlf));
    expect(text(await poFormat.write(file, file.units, { targetLanguage: 'fr' }))).toBe(crlf.replace('"Language: de\\n"', '"Language: fr\\n"'));
  });

  it('adds a Language field to a header without one, and wraps a long target at spaces', async () => {
    const po = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "x"\nmsgstr ""\n';
    const file = await poFormat.parse(utf8(po));
    const long = 'word '.repeat(30).trim();
    const out = text(await poFormat.write(file, [{ ...file.units[0]!, target: long }], { targetLanguage: 'fr' }));
    expect(out.startsWith('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n\n')).toBe(true);
    const lines = out.split('\n').slice(6, -1);
    expect(lines[0]).toBe('msgstr ""');
    expect(lines.every((l) => l.length <= 79)).toBe(true);
    expect((await poFormat.parse(utf8(out))).units[0]!.target).toBe(long);
    expect((await poFormat.parse(utf8(out))).targetLanguage).toBe('fr');
  });

  it('round-trips 200 seeded random strings, escapes included', async () => {
    const random = seededRandom(4242);
    const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`;
    for (let i = 0; i < 200; i++) {
      const a = randomText(random, 150) || 'a';
      const b = randomText(random, 150) || 'b';
      const wrapped = ['""', ...b.split(/(?<=\n)/).map(quote)].join('\n');
      const sample = `msgid ""\nmsgstr "Language: es\\n"\n\n#. ${a.replace(/[\r\n]/g, ' ')}\nmsgid ${quote(a)}\nmsgstr ${quote(b)}\n\nmsgid ${wrapped}\nmsgid_plural ${quote(a)}\nmsgstr[0] ""\nmsgstr[1] ${quote(a)}\n`;
      await checkIdentityRoundTrip(poFormat, utf8(sample), `seed 4242 #${i}`);
      await translate(utf8(sample), (u) => 'Ü ' + upper(u.source));
    }
  });

  it.skipIf(!toolkit)('writes files that translate-toolkit reads with the same targets', async () => {
    const { written, units } = await translate(utf8(SAMPLE), (u) => upper(u.source), 'de-AT');
    const read = readWithToolkit(written);
    expect(read.language).toBe('de-AT');
    expect(read.units).toEqual([
      ['Hello, %s! You have %d new messages.', 'HELLO, %s! YOU HAVE %d NEW MESSAGES.', false, ''],
      ['Open', 'OPEN', false, 'menu'],
      ['A long text that was wrapped\nover "several" lines\twith a tab.', 'A LONG TEXT THAT WAS WRAPPED\nOVER "SEVERAL" LINES\tWITH A TAB.', false, ''],
      ['One file', ['ONE FILE', '%d FILES'], false, ''],
      ['Welcome, {name}. Your code is {{code}}.', 'WELCOME, {name}. YOUR CODE IS {{code}}.', false, ''],
    ]);
    expect(units).toHaveLength(6);
  });

  it('refuses a truncated file, a broken string and binary data with a clear message', async () => {
    await expect(poFormat.parse(utf8('msgid "Hello"\n'))).rejects.toThrow(/po: the entry at line 1 has a msgid but no msgstr/);
    await expect(poFormat.parse(utf8('msgid "Hello"\nmsgstr "Hal'))).rejects.toThrow(/po: line 2: .* is not a closed string/);
    await expect(poFormat.parse(utf8('{"json": true}\n'))).rejects.toThrow(/po: line 1: .* is not a keyword, a string or a comment/);
    await expect(poFormat.parse(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0xff]))).rejects.toThrow(/po: the file is not text/);
  });

  it('sniffs a catalogue and refuses other files', () => {
    expect(poFormat.sniff!(utf8(SAMPLE))).toBe(true);
    expect(poFormat.sniff!(utf8('\uFEFFmsgid "x"\nmsgstr ""\n'))).toBe(true);
    expect(poFormat.sniff!(utf8('Hello world\n'))).toBe(false);
    expect(poFormat.sniff!(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0xff]))).toBe(false);
  });
});
