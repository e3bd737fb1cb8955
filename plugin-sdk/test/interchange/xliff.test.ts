import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeXliff, xliffInline, type XliffUnit } from '../../src/interchange/index.js';
import { requireTool } from '../../src/testing/requirements.js';
import { readXliffWithToolkit } from '../../src/testing/translate-toolkit.js';
import type { InlineTag } from '../../src/shared/file-format.js';

// The one XLIFF writer (issue 23 item 5): placeholders as the standard's inline codes, spans whose other
// end is elsewhere as isolated codes, text that only looks like a placeholder kept as text.

const paired = (n: string): InlineTag => ({ kind: 'paired', original: `<b${n}>`, closing: '</b>' });
const standalone: InlineTag = { kind: 'standalone', original: '<br/>' };
const tags: Record<string, InlineTag> = { 1: paired('1'), 2: standalone, 3: paired('3'), 4: paired('4') };
const toolkit = requireTool('po2tmx', { files: ['/usr/bin/python3'], debian: 'translate-toolkit' });

async function text(units: XliffUnit[], version: '1.2' | '2.1'): Promise<string> {
  let out = '';
  for await (const piece of writeXliff(units, { version, sourceLanguage: 'en', targetLanguage: 'de-CH', original: 'a & b.docx' })) out += piece;
  return out;
}

describe('XLIFF writer', () => {
  it('writes paired, standalone and isolated codes in 1.2 and 2.1; unknown numbers and markup stay text', () => {
    const value = 'A <1>bold</1><2/> <3>open & <4>x</4> and </9> <5/> "q"';
    expect(xliffInline(value, tags, '1.2')).toBe('A <g id="1">bold</g><x id="2"/> <bx id="3"/>open &amp; <g id="4">x</g> and &lt;/9&gt; &lt;5/&gt; "q"');
    expect(xliffInline(value, tags, '2.1')).toBe('A <pc id="1">bold</pc><ph id="2"/> <sc id="3" isolated="yes"/>open &amp; <pc id="4">x</pc> and &lt;/9&gt; &lt;5/&gt; "q"');
    // Crossing spans: the inner open is isolated, so the file stays well-formed.
    expect(xliffInline('<1>a<3>b</1>c</3>', tags, '1.2')).toBe('<g id="1">a<bx id="3"/>b</g>c<ex id="3"/>');
    expect(xliffInline('x\u0001y', {}, '1.2')).toBe('xy');
  });

  it.skipIf(!toolkit)('1.2 is read by translate-toolkit with every unit, state and code; ids kept unique', async () => {
    const units: XliffUnit[] = [
      { id: 'a', source: 'Press <1>Save</1><2/>', target: 'Drücken Sie <1>Speichern</1><2/>', tags, state: { stage: 'draft', origin: 'mt', detail: 'deepl' }, notes: ['n & 1'] },
      { id: 'a', source: 'Open <3>here', target: 'Hier <3>öffnen', tags, state: { stage: 'final' } },
      { id: 'c', source: 'Untranslated', target: null },
    ];
    const dir = mkdtempSync(join(tmpdir(), 'xliff-writer-'));
    try {
      writeFileSync(join(dir, 'a.xlf'), await text(units, '1.2'));
      const read = readXliffWithToolkit(join(dir, 'a.xlf'));
      expect([read.source, read.target]).toEqual(['en', 'de-CH']);
      expect(read.units.map((u) => [u.source, u.target, u.state, u.qualifier, u.approved, u.notes])).toEqual([
        ['Press <1>Save</1><2/>', 'Drücken Sie <1>Speichern</1><2/>', 'needs-review-translation', 'mt-suggestion', false, 'n & 1'],
        ['Open <3>here', 'Hier <3>öffnen', 'final', null, true, ''],
        ['Untranslated', '', null, null, false, ''],
      ]);
      expect(new Set(read.units.map((u) => u.id)).size).toBe(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('2.1 has notes before the segment, segment states and subState, and NMTOKEN ids', async () => {
    const xml = await text([{ id: 'p 1/2', source: 'A <1>b</1>', target: 'C <1>d</1>', tags, state: { stage: 'draft', origin: 'tm', detail: '87' }, notes: ['x'] }], '2.1');
    expect(xml).toContain('<unit id="p_1_2">\n      <notes>\n        <note>x</note>\n      </notes>\n      <segment state="translated" subState="linguaport:tm=87">');
    expect(xml).toContain('<target xml:space="preserve">C <pc id="1">d</pc></target>');
  });
});
