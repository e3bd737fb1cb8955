import type { FileFormat, ParsedFile, TranslationUnit } from '@linguaport/sdk/shared';
import { restoreTags } from '@linguaport/sdk/shared';
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

const TIME = String.raw`\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}`;
const TIMING = new RegExp(String.raw`^\s*(${TIME})\s*-->\s*(${TIME})(?:\s.*)?$`);
const INDEX = /^\s*\d+\s*$/;
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

function isBlank(line: Line): boolean {
  return line.body.trim() === '';
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
    return TIMING.test(head[0]!) || (INDEX.test(head[0]!) && TIMING.test(head[1] ?? ''));
  },
  async parse(bytes): Promise<ParsedFile> {
    const { text, encoding } = decodeText(bytes, 'srt');
    const lines = linesOf(text);
    const pieces: Piece[] = [];
    const units: TranslationUnit[] = [];
    const eol = lines.find((l) => l.end)?.end ?? '\n';
    let i = 0;
    let cue = 0;
    while (i < lines.length) {
      if (isBlank(lines[i]!)) {
        pieces.push(lines[i]!.body + lines[i]!.end);
        i++;
        continue;
      }
      cue++;
      let head = '';
      let index = '';
      if (INDEX.test(lines[i]!.body) && !TIMING.test(lines[i]!.body)) {
        index = lines[i]!.body.trim();
        head += lines[i]!.body + lines[i]!.end;
        i++;
      }
      const timing = i < lines.length ? TIMING.exec(lines[i]!.body) : null;
      if (!timing) {
        const what = index ? `cue ${index} has no timing line` : `line ${i + 1} is neither a cue number nor a timing line (${JSON.stringify(lines[i]!.body.slice(0, 40))})`;
        throw new FormatError('srt', i >= lines.length ? `the file ends after cue number ${index}, before its timing line` : what);
      }
      head += lines[i]!.body + lines[i]!.end;
      i++;
      const body: Line[] = [];
      while (i < lines.length && !isBlank(lines[i]!)) body.push(lines[i++]!);
      if (!body.length) {
        pieces.push(head);
        continue;
      }
      const { lead, unit, raw, trail } = cueUnit(body, addLine);
      const id = String(units.length + 1);
      const { source, tags } = unit.build();
      pieces.push(head + lead, { unit: id, raw }, trail);
      units.push({ id, source, tags, context: { part: `cue ${index || cue}`, position: units.length + 1, meta: { start: timing[1]!, end: timing[2]! } } });
    }
    return { format: 'srt', units, skeleton: { encoding, pieces, eol } satisfies Skeleton };
  },
  async write(file, units) {
    const skeleton = file.skeleton as Skeleton;
    const text = writePieces(skeleton.pieces, file.units, units, (t, u) => restoreTags(t, u.tags, (plain) => cueText(plain, skeleton.eol)));
    return encodeText(text, skeleton.encoding);
  },
};
