// Database: none
import { checkIdentityRoundTrip, checkTranslatedRoundTrip, randomText, seededRandom } from '@linguaport/sdk/testing';
import { describe, expect, it } from 'vitest';
import { markdownFormat } from '../../server/formats/markdown.js';

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const upper = (source: string) => source.replace(/[a-z]+/g, (w) => w.toUpperCase());

const SAMPLE = `---
title: Getting started
tags: [docs]
---

# Getting *started* #

Linguaport translates **whole documents** and keeps
their layout. See [the guide](https://example.org/guide "Guide") or
\`npm run start\` for details.

Setext heading
--------------

> A quote that spans
> two lines with _emphasis_.

- First item with ~~old~~ text
- Second item
  continued on an indented line
  1. Nested ordered item
- [ ] A task

| Name | Description |
| ---- | :---------- |
| \`id\` | The unit's id \\| unique |
| text | ![icon](icon.png) Its text |

\`\`\`js
const x = "not text";
\`\`\`

    indented code

<div align="center">
  <img src="logo.png">
</div>

[guide]: https://example.org/guide
***
A paragraph with a [reference link][guide], an autolink <https://example.org> and <span>inline html</span>.
`;

describe('Markdown format', () => {
  it('reads blocks as units with inline markup as placeholders, code, front matter and HTML blocks left out', async () => {
    const file = await markdownFormat.parse(utf8(SAMPLE));
    expect(file.units.map((u) => [u.context.style, u.source])).toEqual([
      ['h1', 'Getting <1>started</1>'],
      ['p', 'Linguaport translates <1>whole documents</1> and keeps<2/>their layout. See <3>the guide</3> or<4/><5/> for details.'],
      ['h2', 'Setext heading'],
      ['blockquote', 'A quote that spans<1/>two lines with <2>emphasis</2>.'],
      ['p', 'First item with <1>old</1> text'],
      ['p', 'Second item<1/>continued on an indented line'],
      ['p', 'Nested ordered item'],
      ['p', 'A task'],
      ['td', 'Name'],
      ['td', 'Description'],
      ['td', "The unit's id \\| unique"],
      ['td', 'text'],
      ['td', '<1/> Its text'],
      ['p', 'A paragraph with a <1>reference link</1>, an autolink <2/> and <3/>inline html<4/>.'],
    ]);
    const p = file.units[1]!;
    expect(p.tags['3']).toEqual({ kind: 'paired', original: '[', closing: '](https://example.org/guide "Guide")' });
    expect(p.tags['4']).toEqual({ kind: 'standalone', original: '\n' });
    expect(p.tags['5']).toEqual({ kind: 'standalone', original: '`npm run start`' });
    expect(file.units[3]!.tags['1']).toEqual({ kind: 'standalone', original: '\n> ' });
    expect(file.units[5]!.tags['1']).toEqual({ kind: 'standalone', original: '\n  ' });
  });

  it('gives back the same bytes, with CRLF and a byte-order mark', async () => {
    await checkIdentityRoundTrip(markdownFormat, utf8(SAMPLE), 'LF');
    await checkIdentityRoundTrip(markdownFormat, utf8('\uFEFF' + SAMPLE.replace(/\n/g, '\r\n')), 'BOM CRLF');
    await checkIdentityRoundTrip(markdownFormat, utf8('no final line end'), 'no end');
  });

  it('writes translations with markup, URLs and code kept', async () => {
    const out = text(await checkTranslatedRoundTrip(markdownFormat, utf8(SAMPLE), upper));
    expect(out.startsWith('---\ntitle: Getting started\ntags: [docs]\n---\n\n# GETTING *STARTED* #\n')).toBe(true);
    expect(out).toContain('LINGUAPORT TRANSLATES **WHOLE DOCUMENTS** AND KEEPS\nTHEIR LAYOUT. SEE [THE GUIDE](https://example.org/guide "Guide") OR\n`npm run start` FOR DETAILS.');
    expect(out).toContain('> A QUOTE THAT SPANS\n> TWO LINES WITH _EMPHASIS_.');
    expect(out).toContain('- SECOND ITEM\n  CONTINUED ON AN INDENTED LINE\n  1. NESTED ORDERED ITEM\n- [ ] A TASK');
    expect(out).toContain("| `id` | THE UNIT'S ID \\| UNIQUE |\n| TEXT | ![icon](icon.png) ITS TEXT |");
    expect(out).toContain('```js\nconst x = "not text";\n```\n\n    indented code\n\n<div align="center">\n  <img src="logo.png">\n</div>');
    expect(out).toContain('A PARAGRAPH WITH A [REFERENCE LINK][guide], AN AUTOLINK <https://example.org> AND <span>INLINE HTML</span>.');
  });

  it('keeps a translation from breaking its block: line breaks folded, pipes in cells escaped', async () => {
    const file = await markdownFormat.parse(utf8(SAMPLE));
    const cell = file.units.find((u) => u.source === 'text')!;
    const quote = file.units.find((u) => u.context.style === 'blockquote')!;
    const out = text(await markdownFormat.write(file, [{ ...cell, target: 'a | b' }, { ...quote, target: 'Zitat\n\n# kein Titel<1/>zwei' }]));
    expect(out).toContain('| a \\| b | ![icon]');
    expect(out).toContain('> Zitat # kein Titel\n> zwei');
  });

  it('round-trips 200 seeded random texts in paragraphs, headings, lists, quotes and tables', async () => {
    const random = seededRandom(555);
    for (let i = 0; i < 200; i++) {
      const line = () => randomText(random, 60).replace(/[\r\n]+/g, ' ');
      const sample = `# ${line()}\n\n${randomText(random, 200)}\n\n- ${line()} **${line()}**\n- [x](${line().replace(/[()\s]/g, '')}) ${line()}\n\n> ${line()}\n> ${line()}\n\n| a | b |\n|---|---|\n| ${line().replace(/\|/g, '\\|')} | \`${line().replace(/`/g, '')}\` |\n`;
      await checkIdentityRoundTrip(markdownFormat, utf8(sample), `seed 555 #${i}`);
      await checkTranslatedRoundTrip(markdownFormat, utf8(sample), (s) => 'Ü ' + upper(s), `seed 555 #${i}`);
    }
  });

  it('reads large and pathological files without slowing to a crawl', async () => {
    const started = Date.now();
    await markdownFormat.parse(utf8('- item\n' + '\n'.repeat(50_000) + '  more\n'));
    await markdownFormat.parse(utf8('*a '.repeat(20_000) + '\n' + '[x'.repeat(20_000)));
    await checkIdentityRoundTrip(markdownFormat, utf8(SAMPLE.repeat(300)), 'large');
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('refuses binary data', async () => {
    await expect(markdownFormat.parse(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0xff]))).rejects.toThrow(/md: the file is not text/);
    await expect(markdownFormat.parse(utf8('GIF89a\u0001\u0002\u0003'))).rejects.toThrow(/md: the file holds control characters/);
    expect((await markdownFormat.parse(utf8('```js\nunclosed fence'))).units).toEqual([]);
  });

  it('sniffs text and refuses binary data', () => {
    expect(markdownFormat.sniff!(utf8(SAMPLE))).toBe(true);
    expect(markdownFormat.sniff!(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0x08, 0]))).toBe(false);
  });
});
