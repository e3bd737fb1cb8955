import { createHash } from 'node:crypto';

/**
 * Memory matching: the exact tier compares a normalised text (case, width, whitespace and punctuation
 * variants folded), the fuzzy tier scores candidates by a token-level edit distance as OmegaT does,
 * with a penalty when placeholders (tags) or numbers differ, since a match with another number or
 * missing formatting needs more than a glance. Chinese and Japanese text is compared character by
 * character (no spaces to split on).
 */

const PUNCTUATION: Array<[RegExp, string]> = [
  [/[\u2018\u2019\u201a\u201b\u2032`´]/g, "'"],
  [/[\u201c\u201d\u201e\u201f\u2033«»]/g, '"'],
  [/[\u2010-\u2015\u2212]/g, '-'],
  [/\u2026/g, '...'],
  [/[\u00a0\u2000-\u200b\u3000]/g, ' '],
];

/** The text the exact tier compares: NFKC (full- and half-width forms alike), punctuation variants folded, lower case, single spaces. */
export function normalise(text: string): string {
  let t = text.normalize('NFKC');
  for (const [re, to] of PUNCTUATION) t = t.replace(re, to);
  return t.toLowerCase().replace(/\s+/g, ' ').trim();
}

export function exactHash(text: string): string {
  return createHash('sha256').update(normalise(text)).digest('hex').slice(0, 32);
}

const TOKEN = /<\/?\d+\/?>|\p{N}+(?:[.,]\p{N}+)*|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*|[^\s\p{L}\p{N}]/gu;

/** Words, numbers, placeholders and punctuation marks; one token per Chinese or Japanese character. */
export function tokens(text: string): string[] {
  return normalise(text).match(TOKEN) ?? [];
}

const isTag = (t: string) => /^<\/?\d+\/?>$/.test(t);
const isNumber = (t: string) => /^\p{N}/u.test(t);

export type DiffOp = { op: 'equal' | 'insert' | 'delete'; text: string };

/** Token edit distance with the operations that turn `from` into `to` (substitution = delete + insert). */
function align(from: string[], to: string[]): { distance: number; ops: DiffOp[] } {
  const n = from.length;
  const m = to.length;
  const d: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = 0; i <= n; i++) d[i]![0] = i;
  for (let j = 0; j <= m; j++) d[0]![j] = j;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const cost = from[i - 1] === to[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
    }
  }
  const ops: DiffOp[] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && from[i - 1] === to[j - 1] && d[i]![j] === d[i - 1]![j - 1]) {
      ops.push({ op: 'equal', text: from[--i]! });
      j--;
    } else if (i > 0 && j > 0 && d[i]![j] === d[i - 1]![j - 1]! + 1) {
      ops.push({ op: 'insert', text: to[--j]! });
      ops.push({ op: 'delete', text: from[--i]! });
    } else if (i > 0 && d[i]![j] === d[i - 1]![j]! + 1) ops.push({ op: 'delete', text: from[--i]! });
    else ops.push({ op: 'insert', text: to[--j]! });
  }
  return { distance: d[n]![m]!, ops: ops.reverse() };
}

/** Points taken off for each placeholder or number that differs. */
export const TAG_PENALTY = 2;
export const NUMBER_PENALTY = 2;

/**
 * 0..100: 100 for the same tokens, then 100 × (1 − edits / longer length), less the penalties; with
 * the operations that turn the memory's source into the query (what the translator must change).
 */
export function score(query: string, candidate: string): { score: number; diff: DiffOp[] } {
  const q = tokens(query);
  const c = tokens(candidate);
  if (q.length === 0 && c.length === 0) return { score: 100, diff: [] };
  const { distance, ops } = align(c, q);
  const changed = ops.filter((o) => o.op !== 'equal');
  const penalty = changed.filter((o) => isTag(o.text)).length * TAG_PENALTY + changed.filter((o) => isNumber(o.text)).length * NUMBER_PENALTY;
  const raw = Math.round(100 * (1 - distance / Math.max(q.length, c.length)));
  const s = distance === 0 ? (normalise(query) === normalise(candidate) ? 100 : 99) : Math.min(99, raw);
  return { score: Math.max(0, s - (distance === 0 ? 0 : penalty)), diff: ops };
}

/** Where `phrase` occurs in `text`, ignoring case: [start, end) ranges of `text`, for the concordance's highlighting. */
export function highlights(text: string, phrase: string): Array<[number, number]> {
  const needle = phrase.toLowerCase().trim();
  const hay = text.toLowerCase();
  // Lower-casing that changes a length (a few special letters) would shift every range: none then.
  if (!needle || hay.length !== text.length) return [];
  const ranges: Array<[number, number]> = [];
  for (let at = hay.indexOf(needle); at !== -1; at = hay.indexOf(needle, at + needle.length)) ranges.push([at, at + needle.length]);
  return ranges;
}
