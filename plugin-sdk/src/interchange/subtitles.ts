import { linesOf, type TextLine } from './text-bytes.js';

/**
 * SubRip (SRT) and WebVTT, the one implementation: timings, cue blocks (identifiers, settings, NOTE,
 * STYLE and REGION, BOM, any line ends, VTT hours optional), character references, and cues written as
 * new files and read back (speech recognition's lines, players, ffmpeg's `subtitles` filter). The text
 * formats' `srt`/`vtt` modules build on `subtitleBlocks` to translate a file in place.
 */

export interface SubtitleCue {
  /** Seconds from the start of the media. */
  start: number;
  end: number;
  /** The cue's text; a line break in it is a line of the cue. */
  text: string;
}

/** `01:02:03,450` (SRT) or `01:02:03.450` (VTT) for 3723.45 seconds; never negative. */
export function subtitleTime(seconds: number, separator: ',' | '.' = ','): string {
  const ms = Math.max(0, Math.round((Number.isFinite(seconds) ? seconds : 0) * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

/**
 * The cue's text as a cue may hold it: no blank lines (they would end the cue), no `-->` (it would read
 * as a timing line), line ends made `\n`, outer white space trimmed.
 */
function cueText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trim().replace(/-->/g, '->'))
    .filter((l) => l !== '')
    .join('\n');
}

/** Cues in time order with text; a cue ending before it starts ends where it starts. */
function usable(cues: readonly SubtitleCue[]): SubtitleCue[] {
  return cues
    .map((c) => ({ start: Math.max(0, c.start), end: Math.max(c.start, c.end), text: cueText(c.text) }))
    .filter((c) => c.text !== '')
    .sort((a, b) => a.start - b.start);
}

/** SubRip: numbered cues, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, a blank line after each; CRLF-free UTF-8 text. */
export function writeSrt(cues: readonly SubtitleCue[]): string {
  return usable(cues)
    .map((c, i) => `${i + 1}\n${subtitleTime(c.start, ',')} --> ${subtitleTime(c.end, ',')}\n${c.text}\n`)
    .join('\n');
}

/** WebVTT: the `WEBVTT` header, then cues with `HH:MM:SS.mmm` timings; `<`, `>`, `&` and no-break spaces escaped. */
export function writeVtt(cues: readonly SubtitleCue[]): string {
  const body = usable(cues).map((c, i) => `${i + 1}\n${subtitleTime(c.start, '.')} --> ${subtitleTime(c.end, '.')}\n${escapeVttText(c.text)}\n`);
  return ['WEBVTT\n', ...body].join('\n');
}

/** Subtitle text kinds: SubRip and WebVTT. */
export type SubtitleKind = 'srt' | 'vtt';

// SubRip has no formal standard: players take `,` or `.`, one to three digits and (rarely) no hours.
const SRT_TIME = String.raw`(?:\d+:)?\d{1,2}:\d{2}[,.]\d{1,3}`;
const SRT_TIMING = new RegExp(String.raw`^\s*(${SRT_TIME})\s*-->\s*(${SRT_TIME})(?:\s(.*))?$`);
// WebVTT's timestamp: hours optional (two or more digits), always `.` and three digits.
const VTT_TIME = String.raw`(?:\d{2,}:)?\d{2}:\d{2}\.\d{3}`;
const VTT_TIMING = new RegExp(String.raw`^(${VTT_TIME})[ \t]+-->[ \t]+(${VTT_TIME})(.*)$`);
const CUE_NUMBER = /^\s*\d+\s*$/;

/** A timing line's two stamps as written and what follows them (VTT cue settings, SRT coordinates); null when it is none. */
export function subtitleTiming(line: string, kind: SubtitleKind): { start: string; end: string; settings: string } | null {
  const m = kind === 'srt' ? SRT_TIMING.exec(line) : VTT_TIMING.exec(line.trim());
  return m ? { start: m[1]!, end: m[2]!, settings: (m[3] ?? '').trim() } : null;
}

/** A SubRip cue number line (`12`). */
export function isCueNumber(line: string): boolean {
  return CUE_NUMBER.test(line);
}

/** Seconds of a stamp as `subtitleTiming` gives it: `01:02:03,450`, `02:03.450`. */
export function subtitleSeconds(stamp: string): number {
  const [clock, frac = '0'] = stamp.split(/[,.]/);
  const parts = clock!.split(':').map(Number);
  while (parts.length < 3) parts.unshift(0);
  return parts[0]! * 3600 + parts[1]! * 60 + parts[2]! + Number(`0.${frac.padEnd(3, '0')}`);
}

const REFERENCES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f', quot: '"', apos: "'" };

/** WebVTT cue text with its character references decoded (named, decimal and hexadecimal). */
export function decodeVttText(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref[0] !== '#') return REFERENCES[ref] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Plain text made WebVTT cue text. A no-break space becomes a reference: as a character at a line's edge it would read back as indentation. */
export function escapeVttText(plain: string): string {
  return plain.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\u00a0/g, '&nbsp;');
}

/**
 * A block of a subtitle text, by line numbers (`from` included, `to` not): blank lines one by one,
 * VTT's header and NOTE, STYLE and REGION blocks, cues (identifier or SRT number, the timing line's
 * index, its stamps and settings; the text is the lines after the timing up to `to`), and blocks that
 * are none of these (`broken`: `at` is where a timing line was looked for).
 */
export type SubtitleBlock =
  | { kind: 'blank' | 'header' | 'note' | 'style' | 'region'; from: number; to: number }
  | { kind: 'cue'; from: number; to: number; identifier: string; timing: number; start: string; end: string; settings: string }
  | { kind: 'broken'; from: number; to: number; identifier: string; at: number };

/**
 * The blocks of an SRT or WebVTT text split into lines (BOM removed; any line ends): the one reading
 * of the two formats' structure, used by the cue reader here and the text formats' modules.
 */
export function subtitleBlocks(lines: readonly TextLine[], kind: SubtitleKind): SubtitleBlock[] {
  const blank = (i: number) => lines[i]!.body.trim() === '';
  const blockEnd = (from: number) => {
    let to = from;
    while (to < lines.length && !blank(to)) to++;
    return to;
  };
  const out: SubtitleBlock[] = [];
  let i = 0;
  // VTT's header (the WEBVTT line and its metadata) runs to the first blank line.
  if (kind === 'vtt' && lines.length) out.push({ kind: 'header', from: 0, to: (i = blockEnd(0)) });
  while (i < lines.length) {
    if (blank(i)) {
      out.push({ kind: 'blank', from: i, to: ++i });
      continue;
    }
    const to = blockEnd(i);
    const first = lines[i]!.body;
    const other = kind === 'vtt' ? /^NOTE(?:$|[ \t])|^(?:STYLE|REGION)[ \t]*$/.exec(first) : null;
    if (other) {
      out.push({ kind: other[0].trim().toLowerCase() as 'note' | 'style' | 'region', from: i, to });
      i = to;
      continue;
    }
    let at = i;
    let identifier = '';
    // A VTT cue identifier is any line without an arrow; an SRT cue's is its number.
    if (!subtitleTiming(first, kind) && (kind === 'vtt' ? !first.includes('-->') : isCueNumber(first))) {
      identifier = first.trim();
      at++;
    }
    const timing = at < to ? subtitleTiming(lines[at]!.body, kind) : null;
    if (timing) out.push({ kind: 'cue', from: i, to, identifier, timing: at, ...timing });
    else out.push({ kind: 'broken', from: i, to, identifier, at });
    i = to;
  }
  return out;
}

/**
 * Cues of an SRT or WebVTT text (a BOM and any line ends; VTT when it starts with `WEBVTT`): each cue's
 * lines up to a blank line, VTT's character references decoded. The header, NOTE, STYLE and REGION
 * blocks, cue identifiers and settings are not text; blocks that are not cues are passed over.
 */
export function readSubtitles(text: string): SubtitleCue[] {
  const clean = text.replace(/^\uFEFF/, '');
  const kind: SubtitleKind = /^WEBVTT(?:$|[ \t\r\n])/.test(clean) ? 'vtt' : 'srt';
  const lines = linesOf(clean);
  const out: SubtitleCue[] = [];
  for (const b of subtitleBlocks(lines, kind)) {
    if (b.kind !== 'cue') continue;
    const body = lines.slice(b.timing + 1, b.to).map((l) => (kind === 'vtt' ? decodeVttText(l.body) : l.body));
    out.push({ start: subtitleSeconds(b.start), end: subtitleSeconds(b.end), text: body.join('\n') });
  }
  return out;
}
