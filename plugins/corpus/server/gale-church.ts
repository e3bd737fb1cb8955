import type { Bead } from '../shared/schemas.js';

/**
 * Gale & Church (1993) sentence alignment: dynamic programming over the two sentence lists with the
 * beads 1-1, 1-0, 0-1, 2-1, 1-2 and 2-2, each costing -log(prior) - log P(delta | bead), where delta
 * compares the character lengths under a normal model: delta = (l_s * c - l_t) / sqrt(m * s2),
 * m = (l_s + l_t / c) / 2 (as NLTK's implementation). The priors and the variance s2 = 6.8 are the paper's;
 * c, the target characters per source character, is the texts' own ratio instead of the paper's 1, so
 * Chinese against English (about one character to three) aligns as well as Spanish against English.
 */

export const PRIORS: Record<Bead, number> = { '1-1': 0.89, '1-0': 0.0099, '0-1': 0.0099, '2-1': 0.089, '1-2': 0.089, '2-2': 0.011 };
export const VARIANCE = 6.8;
const MOVES: Array<[number, number, Bead]> = [[1, 1, '1-1'], [1, 0, '1-0'], [0, 1, '0-1'], [2, 1, '2-1'], [1, 2, '1-2'], [2, 2, '2-2']];

export interface AlignedBead {
  bead: Bead;
  /** Indexes into the source and target sentence lists. */
  source: number[];
  target: number[];
  cost: number;
}

/** ln(erfc(x)) for x >= 0, without underflow (Numerical Recipes' erfcc: exact to 1.2e-7 relative). */
function logErfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const inner = -z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  return Math.log(t) + inner;
}

/** The cost of one bead joining sentences of these total lengths. */
export function beadCost(ls: number, lt: number, bead: Bead, c: number, s2 = VARIANCE): number {
  const m = (ls + lt / c) / 2;
  if (m === 0) return bead === '1-1' ? -Math.log(PRIORS[bead]) : Infinity;
  const delta = (ls * c - lt) / Math.sqrt(m * s2);
  // P(|delta| at least this) = 2 * (1 - Phi(|delta|)) = erfc(|delta| / sqrt 2).
  return -logErfc(Math.abs(delta) / Math.SQRT2) - Math.log(PRIORS[bead]);
}

const length = (s: string) => [...s.replace(/\s+/g, ' ').trim()].length;

/**
 * The cheapest sequence of beads covering both lists. The search keeps to a band around the diagonal
 * (wide enough for the difference in counts plus a margin), so long texts cost time and memory in
 * proportion to their length rather than its square.
 */
export function alignSentences(source: string[], target: string[], options: { band?: number } = {}): AlignedBead[] {
  const n = source.length;
  const m = target.length;
  if (!n && !m) return [];
  const ls = source.map(length);
  const lt = target.map(length);
  const totalS = ls.reduce((a, b) => a + b, 0);
  const totalT = lt.reduce((a, b) => a + b, 0);
  const c = totalS > 0 && totalT > 0 ? totalT / totalS : 1;
  const band = Math.max(options.band ?? 40, Math.abs(n - m) + 10);
  const centre = (i: number) => (n ? Math.round((i * m) / n) : 0);
  const lo = (i: number) => Math.max(0, centre(i) - band);
  const hi = (i: number) => Math.min(m, centre(i) + band);
  const width = 2 * band + 1;
  const cost = new Float64Array((n + 1) * width).fill(Infinity);
  const move = new Int8Array((n + 1) * width).fill(-1);
  const at = (i: number, j: number) => (j < lo(i) || j > hi(i) ? -1 : i * width + (j - lo(i)));
  cost[at(0, 0)] = 0;
  for (let i = 0; i <= n; i++) {
    for (let j = lo(i); j <= hi(i); j++) {
      if (i === 0 && j === 0) continue;
      const here = at(i, j);
      for (let k = 0; k < MOVES.length; k++) {
        const [di, dj, bead] = MOVES[k]!;
        if (i < di || j < dj) continue;
        const prev = at(i - di, j - dj);
        if (prev < 0 || cost[prev] === Infinity) continue;
        let a = 0;
        for (let x = 1; x <= di; x++) a += ls[i - x]!;
        let b = 0;
        for (let y = 1; y <= dj; y++) b += lt[j - y]!;
        const total = cost[prev]! + beadCost(a, b, bead, c);
        if (total < cost[here]!) {
          cost[here] = total;
          move[here] = k;
        }
      }
    }
  }
  const beads: AlignedBead[] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const here = at(i, j);
    const k = here < 0 ? -1 : move[here]!;
    if (k < 0) throw new Error('alignment found no path');
    const [di, dj, bead] = MOVES[k]!;
    const prev = at(i - di, j - dj);
    beads.push({
      bead,
      source: Array.from({ length: di }, (_, x) => i - di + x),
      target: Array.from({ length: dj }, (_, y) => j - dj + y),
      cost: cost[here]! - cost[prev]!,
    });
    i -= di;
    j -= dj;
  }
  return beads.reverse();
}

/**
 * A rule-based splitter for when no language is known to the platform's splitter: after . ! ? and
 * the CJK 。！？ (with closing quotes and brackets), and at line breaks.
 */
export function splitSimple(text: string): string[] {
  return text
    .replace(/([.!?]+["'”’)\]]*)[ \t]+/g, '$1\n')
    .replace(/([。！？]+["'”’）」』]*)/g, '$1\n')
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);
}
