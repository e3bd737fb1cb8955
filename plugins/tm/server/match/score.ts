import { hashesOf, kindOfHash, normalise, tokenize, TokenKind, type Token } from './text.js';

/**
 * The fuzzy score, 0..100, as OmegaT computes it: a token-level edit distance between the query and a
 * memory source, 100 × (1 − edits / the longer token count), over words, numbers and inline tags (one
 * token per CJK character). Then points off for what a translator must fix by hand even when the words
 * agree: each number or tag that differs, and (a little) punctuation. 100 is kept for the same text
 * (after normalising); any difference scores at most 99.
 */

export const PENALTY = { number: 2, tag: 2, punctuation: 1, maxPunctuation: 3 } as const;

/** Scratch space reused between calls (scoring runs one call at a time). */
let rowA: Int32Array = new Int32Array(128);
let rowB: Int32Array = new Int32Array(128);
let seqA: Int32Array = new Int32Array(256);
let seqB: Int32Array = new Int32Array(256);

function grow(n: number) {
  if (rowA.length <= n) {
    rowA = new Int32Array(n * 2 + 1);
    rowB = new Int32Array(n * 2 + 1);
  }
}

/**
 * Token edit distance of a[0..n) and b[0..m), or `limit + 1` as soon as it must exceed `limit`
 * (whole rows above it: no alignment can come back under).
 */
export function editDistance(a: Int32Array, n: number, b: Int32Array, m: number, limit = Number.MAX_SAFE_INTEGER): number {
  if (Math.abs(n - m) > limit) return limit + 1;
  if (n === 0) return m;
  if (m === 0) return n;
  grow(m);
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let best = i;
    const ai = a[i - 1]!;
    for (let j = 1; j <= m; j++) {
      const sub = prev[j - 1]! + (ai === b[j - 1] ? 0 : 1);
      const del = prev[j]! + 1;
      const ins = cur[j - 1]! + 1;
      const v = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
      cur[j] = v;
      if (v < best) best = v;
    }
    if (best > limit) return limit + 1;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[m]!;
}

const sideA: number[] = [];
const sideB: number[] = [];

/** How many of one side's tokens of `kind` the other side lacks (as multisets), the larger of the two. */
function differing(a: Int32Array, b: Int32Array, kind: TokenKind): number {
  // Numbers, tags and marks are few in a sentence: two short lists beat a map.
  sideA.length = 0;
  sideB.length = 0;
  for (const h of a) if (kindOfHash(h) === kind) sideA.push(h);
  for (const h of b) if (kindOfHash(h) === kind) sideB.push(h);
  if (!sideA.length || !sideB.length) return Math.max(sideA.length, sideB.length);
  const longer = Math.max(sideA.length, sideB.length);
  let matched = 0;
  for (const h of sideA) {
    const at = sideB.indexOf(h);
    if (at !== -1) {
      sideB.splice(at, 1);
      matched++;
    }
  }
  return longer - matched;
}

/** Words, numbers and tags of a token-hash sequence, into `into` (grown as needed); returns it and its length. */
function scored(hashes: Int32Array, into: Int32Array): [Int32Array, number] {
  if (into.length < hashes.length) into = new Int32Array(hashes.length * 2);
  let n = 0;
  for (const h of hashes) if (kindOfHash(h) !== TokenKind.Punct) into[n++] = h;
  return [into, n];
}

/** The score's base part (the edit distance) below which a candidate cannot reach `minScore`. */
export function maxEditsFor(longer: number, minScore: number): number {
  // round(100 × (M − d) / M) ≥ minScore  ⇔  d ≤ M × (100 − minScore + 0.5) / 100
  return Math.floor((longer * (100.5 - minScore)) / 100);
}

/**
 * The score of two token-hash sequences (query and memory source), or -1 when it is certainly below
 * `minScore` (checked early, by length and by the edit distance's bound).
 */
export function scoreHashes(query: Int32Array, source: Int32Array, minScore = 0): number {
  let a: Int32Array;
  let n: number;
  let b: Int32Array;
  let m: number;
  [a, n] = scored(query, seqA);
  seqA = a;
  [b, m] = scored(source, seqB);
  seqB = b;
  const longer = Math.max(n, m);
  if (longer === 0) return 100 - punctuationPenalty(query, source);
  const limit = maxEditsFor(longer, minScore);
  const d = editDistance(a, n, b, m, limit);
  if (d > limit) return -1;
  return scoreFrom(query, source, longer, d, minScore);
}

/** The score from the edit distance `d` over the longer scored length: the base less the penalties. */
export function scoreFrom(query: Int32Array, source: Int32Array, longer: number, d: number, minScore = 0): number {
  const penalty = PENALTY.number * differing(query, source, TokenKind.Number) + PENALTY.tag * differing(query, source, TokenKind.Tag) + punctuationPenalty(query, source);
  if (d === 0 && penalty === 0) return sameSequence(query, source) ? 100 : 99;
  const s = Math.min(99, Math.round((100 * (longer - d)) / longer) - penalty);
  return s < minScore ? -1 : Math.max(0, s);
}

/** How many tokens of a hash sequence are scored (all but punctuation). */
export function scoredLength(hashes: Int32Array, from = 0, to = hashes.length): number {
  let n = 0;
  for (let i = from; i < to; i++) if (kindOfHash(hashes[i]!) !== TokenKind.Punct) n++;
  return n;
}

function punctuationPenalty(a: Int32Array, b: Int32Array): number {
  return Math.min(PENALTY.maxPunctuation, PENALTY.punctuation * differing(a, b, TokenKind.Punct));
}

function sameSequence(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export type DiffOp = { op: 'equal' | 'insert' | 'delete'; text: string };

export interface TextScore {
  score: number;
  /** What turns the memory's source into the query: its spans kept or deleted, the query's inserted. */
  diff: DiffOp[];
}

/** The score of a memory source against a query, on the texts, with the differences to show. */
export function scoreText(query: string, source: string): TextScore {
  const qt = tokenize(query);
  const st = tokenize(source);
  let score = scoreHashes(hashesOf(qt), hashesOf(st));
  // Equal tokens but not the same normalised text (spacing around marks): not an exact match.
  if (score === 100 && normalise(query) !== normalise(source)) score = 99;
  return { score, diff: diffOf(query, qt, source, st) };
}

/** Spans of the original texts, each token with the white space after it. */
function span(text: string, tokens: readonly Token[], i: number): string {
  const t = tokens[i]!;
  const start = i === 0 ? 0 : t.start;
  // Tokens split from one mark share its span: only the first of them carries it.
  if (i > 0 && tokens[i - 1]!.start === t.start) return '';
  const next = tokens.findIndex((x, k) => k > i && x.start > t.start);
  return text.slice(start, next === -1 ? text.length : tokens[next]!.start);
}

/** An alignment of all tokens (punctuation too) by edit distance, as runs of kept, deleted and inserted text. */
function diffOf(query: string, qt: readonly Token[], source: string, st: readonly Token[]): DiffOp[] {
  const n = st.length;
  const m = qt.length;
  const d: Uint16Array[] = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = 0; i <= n; i++) d[i]![0] = i;
  for (let j = 0; j <= m; j++) d[0]![j] = j;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const same = st[i - 1]!.key === qt[j - 1]!.key;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (same ? 0 : 1));
    }
  }
  const ops: DiffOp[] = [];
  const push = (op: DiffOp['op'], text: string) => {
    if (!text) return;
    const last = ops[ops.length - 1];
    if (last && last.op === op) last.text += text;
    else ops.push({ op, text });
  };
  const steps: Array<['equal' | 'delete', number] | ['insert', number]> = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && st[i - 1]!.key === qt[j - 1]!.key && d[i]![j] === d[i - 1]![j - 1]) {
      steps.push(['equal', --i]);
      j--;
    } else if (i > 0 && j > 0 && d[i]![j] === d[i - 1]![j - 1]! + 1) {
      steps.push(['insert', --j], ['delete', --i]);
    } else if (i > 0 && d[i]![j] === d[i - 1]![j]! + 1) steps.push(['delete', --i]);
    else steps.push(['insert', --j]);
  }
  for (const [op, k] of steps.reverse()) push(op, op === 'insert' ? span(query, qt, k) : span(source, st, k));
  if (!n && source) push('delete', source);
  if (!m && query) push('insert', query);
  return ops;
}
