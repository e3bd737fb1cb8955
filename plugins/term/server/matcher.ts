/**
 * Finding terms in a text. Case is ignored; in languages written with spaces a term matches whole
 * words only (`car` is not found in `cars` or `Oscar`), in Chinese, Japanese, Thai and the other
 * scripts written without spaces anywhere (substring). At each place where a term may start, the
 * longest term that fits wins and the search goes on after it, so hits never overlap.
 *
 * The index is a map from a term's first key to its terms, longest first: the key of a word is the
 * whole (lower-cased) word, of a character of a script without spaces or of a punctuation mark the
 * character itself. The text is walked once, looking up the key at each possible start.
 */

import type { RecognisedTerm } from '@linguaport/sdk/server';

export interface MatcherTerm {
  id: number;
  libraryId: number;
  source: string;
  target: string;
  forbidden: boolean;
}

/** A term found in a text: the `term.bases` contract's recognised term. */
export type TermHit = RecognisedTerm;

// Scripts written without spaces between words: Han, kana, Thai, Lao, Khmer, Myanmar, Tibetan.
const NO_SPACE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}\u30fc\u3005]/u;
const WORD = /[\p{L}\p{N}\p{M}_]/u;

type CharKind = 'space' | 'cjk' | 'word' | 'mark';

function kindOf(ch: string): CharKind {
  if (/\s/u.test(ch)) return 'space';
  if (NO_SPACE.test(ch)) return 'cjk';
  if (WORD.test(ch)) return 'word';
  return 'mark';
}

/** Lower case that keeps every character's length, so offsets in the folded text are the original's. */
export function fold(text: string): string {
  let out = '';
  for (const ch of text) {
    const lower = ch.toLowerCase();
    out += lower.length === ch.length ? lower : ch;
  }
  return out;
}

/** The key at `i` of a folded text: a whole word, or one character. */
function keyAt(folded: string, i: number, kinds: CharKind[]): string {
  if (kinds[i] !== 'word') return charAt(folded, i);
  let j = i;
  while (j < folded.length && kinds[j] === 'word') j++;
  return folded.slice(i, j);
}

const charAt = (s: string, i: number) => {
  const code = s.charCodeAt(i);
  return code >= 0xd800 && code <= 0xdbff && i + 1 < s.length ? s.slice(i, i + 2) : s[i]!;
};

/** The kind of each UTF-16 unit (a surrogate pair's two units share theirs). */
function kinds(text: string): CharKind[] {
  const out: CharKind[] = new Array(text.length);
  let i = 0;
  for (const ch of text) {
    const k = kindOf(ch);
    for (let n = 0; n < ch.length; n++) out[i + n] = k;
    i += ch.length;
  }
  return out;
}

interface Indexed {
  term: MatcherTerm;
  folded: string;
  /** Whether the term ends in a word of a spaced script: the text must not go on with a word character there. */
  wordEnd: boolean;
}

export class TermMatcher {
  private readonly byKey = new Map<string, Indexed[]>();
  readonly size: number;

  /** Terms earlier in the list win over later ones with the same source (give them in order of preference). */
  constructor(terms: Iterable<MatcherTerm>) {
    let n = 0;
    for (const term of terms) {
      const source = term.source.trim();
      if (!source) continue;
      const folded = fold(source);
      const k = kinds(folded);
      const key = keyAt(folded, 0, k);
      const list = this.byKey.get(key) ?? [];
      if (list.some((x) => x.folded === folded)) continue;
      list.push({ term, folded, wordEnd: k[k.length - 1] === 'word' });
      this.byKey.set(key, list);
      n++;
    }
    for (const list of this.byKey.values()) list.sort((a, b) => b.folded.length - a.folded.length);
    this.size = n;
  }

  /** The terms found in `text`, in order, longest first at each start, never overlapping. */
  find(text: string): TermHit[] {
    return findAll(text, [this]);
  }

  candidates(key: string): Indexed[] | undefined {
    return this.byKey.get(key);
  }
}

/** Terms of several matchers at once (several term bases): the longest hit of any wins; on a tie, the earlier matcher's. */
export function findAll(text: string, matchers: TermMatcher[]): TermHit[] {
  const hits: TermHit[] = [];
  if (!matchers.length || !text) return hits;
  const folded = fold(text);
  const k = kinds(folded);
  let i = 0;
  while (i < folded.length) {
    const kind = k[i]!;
    const startsHere = kind === 'cjk' || kind === 'mark' || (kind === 'word' && (i === 0 || k[i - 1] !== 'word'));
    if (kind === 'space' || !startsHere) {
      i++;
      continue;
    }
    const key = keyAt(folded, i, k);
    let best: Indexed | null = null;
    for (const m of matchers) {
      const list = m.candidates(key);
      if (!list) continue;
      for (const c of list) {
        if (best && c.folded.length <= best.folded.length) break;
        const end = i + c.folded.length;
        if (end > folded.length || !folded.startsWith(c.folded, i)) continue;
        if (c.wordEnd && end < folded.length && k[end] === 'word') continue;
        best = c;
        break;
      }
    }
    if (!best) {
      i += kind === 'word' ? key.length : charAt(folded, i).length;
      continue;
    }
    const end = i + best.folded.length;
    hits.push({ start: i, end, text: text.slice(i, end), termId: best.term.id, termBaseId: best.term.libraryId, source: best.term.source, target: best.term.target, forbidden: best.term.forbidden });
    i = end;
  }
  return hits;
}
