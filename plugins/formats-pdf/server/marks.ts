import type { InlineTag } from '@linguaport/sdk/shared';
import { placeholderNumbers } from '@linguaport/sdk/shared';
import type { Line, Word } from '@linguaport/sdk/server';

/**
 * Footnote marks: a small raised number or symbol just after a word, a Unicode superscript glued to
 * one, and the same mark starting a note at the page's foot. Each becomes a standalone placeholder,
 * so the engine sees `region<1/> and`, never `region1`, and the writer puts the mark back as a mark
 * (a superscript run). While the page is read, a mark stands in the word text between two control
 * characters (XML cannot hold them, so no PDF text has them): `\u0001` kind mark `\u0002`, kind `s`
 * (raised), `u` (a Unicode superscript, written as it is) or `n` (a note's number, as it stood).
 */

const MARK = /^(\d{1,3}|[*\u2020\u2021\u00a7\u00b6#]{1,3})$/u;
const GLUED = /^(.*[\p{L}\p{P}])([\u00b9\u00b2\u00b3\u2070\u2074-\u2079]+)$/u;
const SENTINEL = /\u0001([sun])([^\u0002]*)\u0002/g;
const mark = (kind: 's' | 'u' | 'n', text: string) => `\u0001${kind}${text}\u0002`;

const h = (w: { y0: number; y1: number }) => w.y1 - w.y0;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function isRaised(w: Word, line: Line): boolean {
  const lineH = median(line.words.map(h));
  const mid = (w.y0 + w.y1) / 2;
  const lineMid = (line.y0 + line.y1) / 2;
  return h(w) <= 0.8 * lineH && lineMid - mid >= 0.1 * lineH;
}

/** Rewrites the marks of a text page's lines (see above); a note's number standing apart joins its note's line. */
export function markFootnotes(lines: Line[], pageHeight: number): Line[] {
  const seen = new Set<string>();
  for (const line of lines) {
    line.words.forEach((w, i) => {
      const glued = GLUED.exec(w.text);
      if (glued) {
        w.text = glued[1]! + mark('u', glued[2]!);
        seen.add(glued[2]!.normalize('NFKC'));
        return;
      }
      const before = line.words[i - 1];
      if (i > 0 && MARK.test(w.text) && before && w.x0 - before.x1 <= 0.5 * h(before) && isRaised(w, line)) {
        seen.add(w.text);
        w.text = mark('s', w.text);
      }
    });
  }
  // A note at the foot starts with a mark used above it on the page, followed by its text (poppler may
  // give the number as a line of its own, the note's text beginning a little to its right).
  const out: Line[] = [];
  for (const line of lines) {
    const first = line.words[0]!;
    if (line.y0 < 0.6 * pageHeight || !MARK.test(first.text) || !seen.has(first.text)) {
      out.push(line);
      continue;
    }
    const lineH = h(line);
    const note = line.words.length > 1 ? line : lines.filter((o) => o !== line && o.x0 > line.x1 && o.x0 - line.x1 <= 2 * lineH && Math.abs(o.y0 - line.y0) <= 0.3 * lineH).sort((a, b) => a.x0 - b.x0)[0];
    if (!note) {
      out.push(line);
      continue;
    }
    first.text = mark(isRaised(first, line) ? 's' : 'n', first.text);
    if (note !== line) {
      note.words.unshift(...line.words);
      note.x0 = Math.min(note.x0, line.x0);
      note.y0 = Math.min(note.y0, line.y0);
      note.y1 = Math.max(note.y1, line.y1);
      continue;
    }
    out.push(line);
  }
  return out;
}

/** A block's text with its marks as placeholders (a raised mark joined to the word before it). */
export function withMarkTags(text: string): { source: string; tags: Record<string, InlineTag> } {
  const tags: Record<string, InlineTag> = {};
  const joined = text.replace(/ (\u0001[su][^\u0002]*\u0002)/g, '$1');
  const next = placeholderNumbers(joined.replace(SENTINEL, ''));
  const source = joined.replace(SENTINEL, (original) => {
    const n = next();
    tags[String(n)] = { kind: 'standalone', original };
    return `<${n}/>`;
  });
  return { source, tags };
}

/** Text as pieces, marks apart: what the writer turns into runs. */
export function markPieces(text: string): Array<{ text: string; superscript: boolean }> {
  const out: Array<{ text: string; superscript: boolean }> = [];
  let last = 0;
  for (const m of text.matchAll(SENTINEL)) {
    if (m.index! > last) out.push({ text: text.slice(last, m.index), superscript: false });
    out.push({ text: m[2]!, superscript: m[1] === 's' });
    last = m.index! + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last), superscript: false });
  return out.map((p) => ({ ...p, text: p.text.replace(/[\u0001\u0002]/g, '') }));
}
