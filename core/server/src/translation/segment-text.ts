import { splitSentences } from './text-tools.js';

/**
 * Cuts a text into translatable segments and the untouched material between them, such that
 * joining the pieces (with each segment's source) gives the input back exactly. Segments are
 * trimmed sentences; whitespace, line breaks, block tags, comments and scripts stay as raw
 * pieces. In html, inline tags travel inside their sentence, and a sentence boundary that
 * would cut an inline element in two is not taken (the engine gets the element whole).
 */
export type Piece = { raw: string } | { segment: string };

const LINE_BREAK = /\r\n|\n|\r/g;
const HAS_WORD = /[\p{L}\p{N}]/u;
const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'font', 'i', 'img', 'ins', 'del', 'kbd',
  'mark', 'q', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var', 'wbr',
]);
const VOID = new Set(['img', 'wbr']);
// Comments, raw-text elements, declarations, and any tag.
const MARKUP = /<!--[\s\S]*?-->|<(script|style|textarea|title)\b[^>]*>[\s\S]*?<\/\1\s*>|<![^>]*>|<\?[\s\S]*?\?>|<\/?([A-Za-z][\w:-]*)\b(?:[^>"']|"[^"]*"|'[^']*')*>/g;

export function* segmentText(text: string, format: 'text' | 'html', lang: string): Generator<Piece> {
  if (format === 'text') {
    let from = 0;
    for (const m of text.matchAll(LINE_BREAK)) {
      yield* sentencesOf(text.slice(from, m.index), lang);
      yield { raw: m[0] };
      from = m.index! + m[0].length;
    }
    yield* sentencesOf(text.slice(from), lang);
    return;
  }
  // html: runs of text and inline tags between block-level markup.
  let runStart = 0;
  const tags: Tag[] = [];
  for (const m of text.matchAll(MARKUP)) {
    const name = m[2]?.toLowerCase();
    if (name && INLINE.has(name)) {
      const kind = m[0].startsWith('</') ? 'close' : m[0].endsWith('/>') || VOID.has(name) ? 'void' : 'open';
      tags.push({ start: m.index! - runStart, end: m.index! + m[0].length - runStart, kind });
      continue;
    }
    yield* runPieces(text.slice(runStart, m.index), tags.splice(0), lang);
    yield { raw: m[0] };
    runStart = m.index! + m[0].length;
  }
  yield* runPieces(text.slice(runStart), tags.splice(0), lang);
}

function* sentencesOf(line: string, lang: string): Generator<Piece> {
  if (line === '') return;
  for (const span of splitSentences(line, lang)) yield* trimmed(span.text);
}

/** Leading and trailing whitespace stay raw; a piece with no letter or digit is raw whole. */
function* trimmed(piece: string): Generator<Piece> {
  if (!HAS_WORD.test(piece)) {
    if (piece) yield { raw: piece };
    return;
  }
  const lead = /^\s*/.exec(piece)![0];
  const trail = /\s*$/.exec(piece)![0];
  if (lead) yield { raw: lead };
  yield { segment: piece.slice(lead.length, piece.length - trail.length) };
  if (trail) yield { raw: trail };
}

interface Tag {
  start: number;
  end: number;
  kind: 'open' | 'close' | 'void';
}

function* runPieces(run: string, tags: Tag[], lang: string): Generator<Piece> {
  if (run === '') return;
  if (tags.length === 0) {
    yield* sentencesOf(run, lang);
    return;
  }
  // The run's visible text, and where each of its characters sits in the run.
  let plain = '';
  const toRun: number[] = [];
  let at = 0;
  for (const tag of [...tags, { start: run.length, end: run.length }]) {
    for (let i = at; i < tag.start; i++) {
      plain += run[i];
      toRun.push(i);
    }
    at = tag.end;
  }
  toRun.push(run.length);
  const cuts: number[] = [];
  for (const span of splitSentences(plain, lang)) {
    if (span.start === 0) continue;
    let cut = toRun[span.start];
    // Opening tags right before the next sentence belong to it.
    for (let t = tags.length - 1; t >= 0; t--) if (tags[t].end === cut && tags[t].kind === 'open') cut = tags[t].start;
    if (depthAt(tags, cut) === 0) cuts.push(cut);
  }
  let from = 0;
  for (const cut of [...cuts, run.length]) {
    yield* trimmed(run.slice(from, cut));
    from = cut;
  }
}

/** Inline elements open at `pos` (tags before it, opened minus closed). */
function depthAt(tags: Tag[], pos: number): number {
  let depth = 0;
  for (const tag of tags) {
    if (tag.end > pos) break;
    if (tag.kind === 'open') depth++;
    else if (tag.kind === 'close') depth--;
  }
  return depth;
}
