import type { FileFormat, ParsedFile, TranslationUnit } from '@linguaport/sdk/shared';
import { restoreTags } from '@linguaport/sdk/shared';
import { isCueNumber, subtitleBlocks, subtitleTiming } from '@linguaport/sdk/interchange';
import { decodeText, encodeText, FormatError, linesOf, textOf, UnitText, writePieces, type Encoding, type Line, type Piece } from './text.js';

/**
 * SubRip subtitles. A unit is a cue's text: its lines joined by standalone placeholders (each holding
 * the line end and the next line's indentation), `<i>`, `<b>`, `<u>`, `<s>` and `<font …>` as paired
 * placeholders, ASS overrides such as `{\an8}` as standalone ones. The cue number, the timing line and
 * blank lines stay in the skeleton; the timing is also in `context.meta` for the translator. The
 * encoding (a byte-order mark included) and the line-ending style are kept.
 */

interface Skeleton {
  encoding: Encoding;
  pieces: Piece[];
  eol: string;
}

const INLINE = /<(\/?)(i|b|u|s|font)(\s[^<>]*)?>|\{\\[^{}\r\n]*\}/gi;

/** Adds a cue line's text with its markup; open paired marks are on `stack`. */
function addLine(unit: UnitText, text: string, stack: Array<{ name: string; ref: number }>): void {
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    unit.text(text.slice(last, m.index));
    last = m.index! + m[0].length;
    if (!m[2]) unit.standalone(m[0]);
    else if (!m[1]) stack.push({ name: m[2].toLowerCase(), ref: unit.open(m[0], `</${m[2]}>`) });
    else {
      const at = stack.map((s) => s.name).lastIndexOf(m[2].toLowerCase());
      if (at === -1 || at !== stack.length - 1) {
        unit.standalone(m[0]);
        continue;
      }
      unit.close(stack.pop()!.ref, m[0]);
    }
  }
  unit.text(text.slice(last));
}

/** The unit of a cue's text lines, with its leading and trailing white space for the skeleton. */
export function cueUnit(lines: Line[], add: (unit: UnitText, text: string, stack: Array<{ name: string; ref: number }>) => void): { lead: string; unit: UnitText; raw: string; trail: string } {
  const unit = new UnitText();
  const stack: Array<{ name: string; ref: number }> = [];
  let lead = '';
  let raw = '';
  let trail = '';
  lines.forEach((line, i) => {
    const m = /^(\s*)(.*?)(\s*)$/.exec(line.body)!;
    if (i === 0) lead = m[1]!;
    else {
      unit.standalone(trail + m[1]);
      raw += trail + m[1];
    }
    add(unit, m[2]!, stack);
    raw += m[2];
    trail = m[3]! + line.end;
  });
  return { lead, unit, raw, trail };
}

/** Line breaks a translation brings in, made into single breaks so they cannot end the cue. */
export function cueText(text: string, eol: string): string {
  return text.replace(/\s*(?:\r\n|\r|\n)\s*/g, eol);
}

export const srtFormat: FileFormat = {
  id: 'srt',
  name: 'SubRip subtitles',
  extensions: ['srt'],
  mimeTypes: ['application/x-subrip', 'text/srt'],
  sniff(bytes) {
    const text = textOf(bytes);
    if (text === null) return false;
    const head = text.replace(/^\uFEFF/, '').replace(/^\s+/, '').split(/\r\n|\r|\n/, 2);
    return !!subtitleTiming(head[0]!, 'srt') || (isCueNumber(head[0]!) && !!subtitleTiming(head[1] ?? '', 'srt'));
  },
  async parse(bytes): Promise<ParsedFile> {
    const { text, encoding } = decodeText(bytes, 'srt');
    const lines = linesOf(text);
    const pieces: Piece[] = [];
    const units: TranslationUnit[] = [];
    const eol = lines.find((l) => l.end)?.end ?? '\n';
    const raw = (from: number, to: number) => lines.slice(from, to).map((l) => l.body + l.end).join('');
    let cue = 0;
    // The blocks are the SDK's one reading of SubRip; this module makes units and a skeleton of them.
    for (const block of subtitleBlocks(lines, 'srt')) {
      if (block.kind === 'blank') {
        pieces.push(raw(block.from, block.to));
        continue;
      }
      cue++;
      if (block.kind !== 'cue') {
        const { identifier: index, at } = block as { identifier: string; at: number };
        const what = index ? `cue ${index} has no timing line` : `line ${at + 1} is neither a cue number nor a timing line (${JSON.stringify(lines[at]!.body.slice(0, 40))})`;
        throw new FormatError('srt', at >= lines.length ? `the file ends after cue number ${index}, before its timing line` : what);
      }
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
      units.push({ id, source, tags, context: { part: `cue ${block.identifier || cue}`, position: units.length + 1, meta: { start: block.start, end: block.end } } });
    }
    return { format: 'srt', units, skeleton: { encoding, pieces, eol } satisfies Skeleton };
  },
  async write(file, units) {
    const skeleton = file.skeleton as Skeleton;
    const text = writePieces(skeleton.pieces, file.units, units, (t, u) => restoreTags(t, u.tags, (plain) => cueText(plain, skeleton.eol)));
    return encodeText(text, skeleton.encoding);
  },
};
