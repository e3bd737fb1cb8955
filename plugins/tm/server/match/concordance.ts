import { foldChar } from './text.js';

/**
 * Where a word or phrase occurs in a text, as [start, end) ranges of the text the user sees, for the
 * concordance's highlighting. The comparison folds as the exact tier does (case, full and half width,
 * quote and dash variants) and treats any run of white space as one space; the ranges are of the
 * original characters.
 */
export function highlights(text: string, phrase: string): Array<[number, number]> {
  const needle = folded(phrase.trim()).text;
  if (!needle) return [];
  const hay = folded(text);
  const ranges: Array<[number, number]> = [];
  for (let at = hay.text.indexOf(needle); at !== -1; at = hay.text.indexOf(needle, at + needle.length)) {
    ranges.push([hay.origin[at]!, hay.origin[at + needle.length - 1]! + hay.width[at + needle.length - 1]!]);
  }
  return ranges;
}

/** Whether the phrase occurs in the text (as `highlights` finds it). */
export function contains(text: string, phrase: string): boolean {
  const needle = folded(phrase.trim()).text;
  return !!needle && folded(text).text.includes(needle);
}

/**
 * The folded text, and for each of its characters the original index and length it came from. Folding
 * one original character at a time keeps that map exact.
 */
function folded(text: string): { text: string; origin: number[]; width: number[] } {
  let out = '';
  const origin: number[] = [];
  const width: number[] = [];
  let space = false;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const w = cp > 0xffff ? 2 : 1;
    const ch = text.slice(i, i + w);
    if (/\s/u.test(ch)) {
      if (!space && out) {
        out += ' ';
        origin.push(i);
        width.push(w);
      }
      space = true;
    } else {
      space = false;
      const f = foldChar(ch);
      out += f;
      for (let k = 0; k < f.length; k++) {
        origin.push(i);
        width.push(w);
      }
    }
    i += w;
  }
  return { text: out, origin, width };
}
