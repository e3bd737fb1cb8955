import type { FileFormat, ParsedFile, TranslationUnit } from '@linguaport/sdk/shared';
import { restoreTags } from '@linguaport/sdk/shared';
import { cueText, cueUnit } from './srt.js';
import { decodeText, encodeText, FormatError, linesOf, textOf, type Encoding, type Line, type Piece, type UnitText, writePieces } from './text.js';

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
const TIMING = new RegExp(String.raw`^(${TIME})[ \t]+-->[ \t]+(${TIME})(.*)$`);
const INLINE = new RegExp(String.raw`<(\/?)(c|i|b|u|v|lang|ruby|rt)((?:\.[^\s.<>/]+)*)(?:[ \t][^<>\r\n]*)?>|<${TIME}>`, 'g');
const REFERENCES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f', quot: '"', apos: "'" };

function decodeReferences(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref[0] !== '#') return REFERENCES[ref] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

// A no-break space is written as a reference: as a character at a line's edge it would read back as indentation.
const escapeCue = (plain: string) => plain.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\u00a0/g, '&nbsp;');

function addLine(unit: UnitText, text: string, stack: Array<{ name: string; ref: number }>): void {
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    unit.text(decodeReferences(text.slice(last, m.index)));
    last = m.index! + m[0].length;
    if (!m[2]) unit.standalone(m[0]);
    else if (!m[1]) stack.push({ name: m[2], ref: unit.open(m[0], `</${m[2]}>`) });
    else if (stack.length && stack[stack.length - 1]!.name === m[2]) unit.close(stack.pop()!.ref, m[0]);
    else unit.standalone(m[0]);
  }
  unit.text(decodeReferences(text.slice(last)));
}

const isBlank = (line: Line) => line.body.trim() === '';

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
    const block = (from: number) => {
      let to = from;
      while (to < lines.length && !isBlank(lines[to]!)) to++;
      return to;
    };
    const raw = (from: number, to: number) => lines.slice(from, to).map((l) => l.body + l.end).join('');
    // The header runs to the first blank line.
    let i = block(0);
    pieces.push(raw(0, i));
    let cue = 0;
    while (i < lines.length) {
      if (isBlank(lines[i]!)) {
        pieces.push(raw(i, i + 1));
        i++;
        continue;
      }
      const end = block(i);
      const first = lines[i]!.body;
      if (/^NOTE(?:$|[ \t])|^(?:STYLE|REGION)[ \t]*$/.test(first)) {
        pieces.push(raw(i, end));
        i = end;
        continue;
      }
      cue++;
      let identifier = '';
      let at = i;
      if (!first.includes('-->')) {
        identifier = first.trim();
        at++;
      }
      const timing = at < end ? TIMING.exec(lines[at]!.body.trim()) : null;
      if (!timing) {
        if (at >= lines.length) throw new FormatError('vtt', `the file ends after cue identifier ${JSON.stringify(identifier)}, before its timing line`);
        throw new FormatError('vtt', `the block at line ${i + 1} is not a cue: no timing line such as "00:01.000 --> 00:04.000" (${JSON.stringify(lines[at]?.body.slice(0, 40) ?? '')})`);
      }
      const head = raw(i, at + 1);
      const body = lines.slice(at + 1, end);
      i = end;
      if (!body.length) {
        pieces.push(head);
        continue;
      }
      const { lead, unit, raw: unitRaw, trail } = cueUnit(body, addLine);
      const id = String(units.length + 1);
      const { source, tags } = unit.build();
      pieces.push(head + lead, { unit: id, raw: unitRaw }, trail);
      const meta: Record<string, string> = { start: timing[1]!, end: timing[2]! };
      if (timing[3]!.trim()) meta.settings = timing[3]!.trim();
      units.push({ id, source, tags, context: { part: identifier || `cue ${cue}`, position: units.length + 1, meta } });
    }
    return { format: 'vtt', units, skeleton: { encoding, pieces, eol } satisfies Skeleton };
  },
  async write(file, units) {
    const skeleton = file.skeleton as Skeleton;
    const text = writePieces(skeleton.pieces, file.units, units, (t, u) => restoreTags(t, u.tags, (plain) => cueText(escapeCue(plain), skeleton.eol)));
    return encodeText(text, skeleton.encoding);
  },
};
