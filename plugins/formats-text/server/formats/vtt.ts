import type { FileFormat, ParsedFile, TranslationUnit } from '@linguaport/sdk/shared';
import { restoreTags } from '@linguaport/sdk/shared';
import { decodeVttText, escapeVttText, subtitleBlocks } from '@linguaport/sdk/interchange';
import { cueText, cueUnit } from './srt.js';
import { decodeText, encodeText, FormatError, linesOf, textOf, type Encoding, type Piece, type UnitText, writePieces } from './text.js';

/**
 * WebVTT subtitles. The `WEBVTT` header and its metadata lines, NOTE, STYLE and REGION blocks, cue
 * identifiers, timings and cue settings stay in the skeleton as they are. A unit is a cue's text, its
 * lines joined by standalone placeholders; `<i>`, `<b>`, `<u>`, `<c.class>`, `<v Speaker>`, `<lang xx>`,
 * `<ruby>` and `<rt>` are paired placeholders where the file closes them (a voice span usually runs to
 * the end of the cue unclosed: then it is standalone), timestamp tags (`<00:01.000>`) standalone.
 * Character references are decoded in units and written as `&amp;` `&lt;` `&gt;` where a unit changed.
 */

interface Skeleton {
  encoding: Encoding;
  pieces: Piece[];
  eol: string;
}

const TIME = String.raw`(?:\d{2,}:)?\d{2}:\d{2}\.\d{3}`;
const INLINE = new RegExp(String.raw`<(\/?)(c|i|b|u|v|lang|ruby|rt)((?:\.[^\s.<>/]+)*)(?:[ \t][^<>\r\n]*)?>|<${TIME}>`, 'g');

function addLine(unit: UnitText, text: string, stack: Array<{ name: string; ref: number }>): void {
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    unit.text(decodeVttText(text.slice(last, m.index)));
    last = m.index! + m[0].length;
    if (!m[2]) unit.standalone(m[0]);
    else if (!m[1]) stack.push({ name: m[2], ref: unit.open(m[0], `</${m[2]}>`) });
    else if (stack.length && stack[stack.length - 1]!.name === m[2]) unit.close(stack.pop()!.ref, m[0]);
    else unit.standalone(m[0]);
  }
  unit.text(decodeVttText(text.slice(last)));
}

export const vttFormat: FileFormat = {
  id: 'vtt',
  name: 'WebVTT subtitles',
  extensions: ['vtt'],
  mimeTypes: ['text/vtt'],
  sniff(bytes) {
    const text = textOf(bytes);
    return text !== null && /^\uFEFF?WEBVTT(?:$|[ \t\r\n])/.test(text);
  },
  async parse(bytes): Promise<ParsedFile> {
    const { text, encoding } = decodeText(bytes, 'vtt');
    if (!/^WEBVTT(?:$|[ \t\r\n])/.test(text)) throw new FormatError('vtt', 'the file does not start with WEBVTT');
    const lines = linesOf(text);
    const pieces: Piece[] = [];
    const units: TranslationUnit[] = [];
    const eol = lines.find((l) => l.end)?.end ?? '\n';
    const raw = (from: number, to: number) => lines.slice(from, to).map((l) => l.body + l.end).join('');
    let cue = 0;
    // The blocks are the SDK's one reading of WebVTT; this module makes units and a skeleton of them.
    for (const block of subtitleBlocks(lines, 'vtt')) {
      if (block.kind === 'broken') {
        const { identifier, at, from } = block;
        if (at >= lines.length) throw new FormatError('vtt', `the file ends after cue identifier ${JSON.stringify(identifier)}, before its timing line`);
        throw new FormatError('vtt', `the block at line ${from + 1} is not a cue: no timing line such as "00:01.000 --> 00:04.000" (${JSON.stringify(lines[at]?.body.slice(0, 40) ?? '')})`);
      }
      if (block.kind !== 'cue') {
        pieces.push(raw(block.from, block.to));
        continue;
      }
      cue++;
      const head = raw(block.from, block.timing + 1);
      const body = lines.slice(block.timing + 1, block.to);
      if (!body.length) {
        pieces.push(head);
        continue;
      }
      const { lead, unit, raw: unitRaw, trail } = cueUnit(body, addLine);
      const id = String(units.length + 1);
      const { source, tags } = unit.build();
      pieces.push(head + lead, { unit: id, raw: unitRaw }, trail);
      const meta: Record<string, string> = { start: block.start, end: block.end };
      if (block.settings) meta.settings = block.settings;
      units.push({ id, source, tags, context: { part: block.identifier || `cue ${cue}`, position: units.length + 1, meta } });
    }
    return { format: 'vtt', units, skeleton: { encoding, pieces, eol } satisfies Skeleton };
  },
  async write(file, units) {
    const skeleton = file.skeleton as Skeleton;
    const text = writePieces(skeleton.pieces, file.units, units, (t, u) => restoreTags(t, u.tags, (plain) => cueText(escapeVttText(plain), skeleton.eol)));
    return encodeText(text, skeleton.encoding);
  },
};
