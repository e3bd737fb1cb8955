/**
 * Subtitle cues written as SubRip (SRT) and WebVTT, and read back: timed lines of text as speech
 * recognition gives them and as players and ffmpeg's `subtitles` filter take them. (The text formats'
 * SRT/VTT modules keep a file's own skeleton for translation in place; these write new files.)
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

/** WebVTT: the `WEBVTT` header, then cues with `HH:MM:SS.mmm` timings; `<`, `>` and `&` escaped. */
export function writeVtt(cues: readonly SubtitleCue[]): string {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = usable(cues).map((c, i) => `${i + 1}\n${subtitleTime(c.start, '.')} --> ${subtitleTime(c.end, '.')}\n${escape(c.text)}\n`);
  return ['WEBVTT\n', ...body].join('\n');
}

const TIMING = /^\s*((?:\d+:)?\d{1,2}:\d{2}[,.]\d{1,3})\s*-->\s*((?:\d+:)?\d{1,2}:\d{2}[,.]\d{1,3})/;

function seconds(stamp: string): number {
  const [clock, frac = '0'] = stamp.split(/[,.]/);
  const parts = clock!.split(':').map(Number);
  while (parts.length < 3) parts.unshift(0);
  return parts[0]! * 3600 + parts[1]! * 60 + parts[2]! + Number(`0.${frac.padEnd(3, '0')}`);
}

/**
 * Cues of an SRT or WebVTT text: every timing line with the text lines after it up to a blank line
 * (VTT's header, notes, styles and cue settings are skipped; VTT's entities decoded).
 */
export function readSubtitles(text: string): SubtitleCue[] {
  const vtt = /^\uFEFF?WEBVTT/.test(text);
  const decode = (s: string) => (vtt ? s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&nbsp;/g, '\u00a0').replace(/&amp;/g, '&') : s);
  const out: SubtitleCue[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = TIMING.exec(lines[i]!);
    if (!m) continue;
    const body: string[] = [];
    while (i + 1 < lines.length && lines[i + 1]!.trim() !== '') body.push(decode(lines[++i]!));
    out.push({ start: seconds(m[1]!), end: seconds(m[2]!), text: body.join('\n') });
  }
  return out;
}
