import { createHash } from 'node:crypto';

/**
 * What the memory compares. The exact tier compares a normalised text; the fuzzy tier compares tokens:
 * words, numbers, inline placeholders (`<1>`, `</1>`, `<2/>`) and punctuation marks, with one token per
 * Chinese or Japanese character (no spaces to split on). Normalising folds what a translator would not
 * call a difference: case, full- and half-width forms (NFKC), runs of white space, and the variants of
 * quotes, dashes, ellipses and CJK punctuation.
 */

const PUNCTUATION: Array<[RegExp, string]> = [
  [/[\u2018\u2019\u201a\u201b\u2032\u0060\u00b4\u300c\u300d]/g, "'"],
  [/[\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\u300e\u300f]/g, '"'],
  [/[\u2010-\u2015\u2212\u30fc\u2e3a\u2e3b]/g, '-'],
  [/\u2026/g, '...'],
  [/\u3002/g, '.'],
  [/[\u3001]/g, ','],
  [/[\u00a0\u1680\u2000-\u200b\u202f\u205f\u3000\ufeff]/g, ' '],
];

/** NFKC, punctuation variants folded, lower case: the form tokens are compared in. */
function fold(text: string): string {
  let t = text;
  // Plain ASCII needs neither NFKC nor the punctuation table (most of a million-entry import).
  if (/[^\x00-\x7f]/.test(t)) {
    t = t.normalize('NFKC');
    for (const [re, to] of PUNCTUATION) t = t.replace(re, to);
  }
  return t.toLowerCase();
}

/** One character folded (the concordance folds character by character to keep its offsets). */
export const foldChar = (ch: string): string => fold(ch);

/** The text the exact tier compares: folded, white space in single spaces, trimmed. */
export function normalise(text: string): string {
  return fold(text).replace(/\s+/g, ' ').trim();
}

/** The exact tier's key: a hash of the normalised text (the match is confirmed on the text itself). */
export function exactKey(text: string): string {
  return createHash('sha1').update(normalise(text)).digest('base64url').slice(0, 22);
}

export const enum TokenKind {
  Word = 0,
  Number = 1,
  Tag = 2,
  Punct = 3,
}

// Placeholder, number, one CJK character, a word (with inner apostrophes), or one other mark.
// Width and quote variants are in the pattern too, so the original text and its folded form split alike.
const TOKEN = /<\/?\d+\/?>|\p{N}+(?:[.,:\uff0c\uff0e\uff1a]\p{N}+)*|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{M}]+(?:['\u2019][\p{L}\p{M}]+)*|[^\s\p{L}\p{N}\p{M}]/gu;

function kindOf(token: string): TokenKind {
  const c = token.charCodeAt(0);
  if (c === 60 /* < */ && token.length > 2 && token.endsWith('>')) return TokenKind.Tag;
  if (/^\p{N}/u.test(token)) return TokenKind.Number;
  if (/^[\p{L}\p{M}]/u.test(token)) return TokenKind.Word;
  return TokenKind.Punct;
}

export interface Token {
  /** The folded form compared. */
  key: string;
  kind: TokenKind;
  /** Where it is in the original text: [start, end). */
  start: number;
  end: number;
}

/**
 * Tokens with their places in the original text (for the differences shown). Each is matched on the
 * original and folded alone, so offsets stay those of the text the user sees.
 */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const folded = fold(m[0]);
    const start = m.index!;
    const end = start + m[0].length;
    // A mark that folds into several (an ellipsis into three stops) counts as `fingerprint` counts it.
    const parts = folded.length > 1 && kindOf(folded) === TokenKind.Punct ? folded.match(TOKEN) ?? [folded] : [folded];
    for (const key of parts) out.push({ key, kind: kindOf(key), start, end });
  }
  return out;
}

/** FNV-1a over the folded token: 30 bits of hash, the kind in the top 2. */
function hashToken(key: string, kind: TokenKind): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return ((h & 0x3fffffff) | (kind << 30)) | 0;
}

export const kindOfHash = (h: number): TokenKind => (h >>> 30) as TokenKind;

/**
 * A text as token hashes, in order: what the in-memory index keeps and compares (a collision only makes
 * two rare words look alike to the candidate search; the matches shown are scored on the texts).
 */
export function fingerprint(text: string): Int32Array {
  const folded = fold(text);
  const out: number[] = [];
  for (const m of folded.matchAll(TOKEN)) out.push(hashToken(m[0], kindOf(m[0])));
  return Int32Array.from(out);
}

/** Hashes of tokens from `tokenize`, equal to `fingerprint`'s for the same folded tokens. */
export function hashesOf(tokens: readonly Token[]): Int32Array {
  return Int32Array.from(tokens, (t) => hashToken(t.key, t.kind));
}
