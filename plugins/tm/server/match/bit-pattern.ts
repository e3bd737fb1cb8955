import { kindOfHash, TokenKind } from './text.js';

/**
 * Token edit distance against one query, bit-parallel (Myers 1999, in blocks of 32 query tokens as
 * Hyyrö and edlib do): a candidate costs one pass over its tokens instead of a table of every pair.
 * Punctuation is skipped on both sides, as the score skips it.
 */
export class BitPattern {
  /** Scored tokens of the query. */
  readonly length: number;
  private readonly blocks: number;
  /** Bit of the query's last token in the last block. */
  private readonly lastBit: number;
  private readonly keys: Int32Array;
  private readonly used: Uint8Array;
  /** Masks of each distinct token: `blocks` words from slot × blocks. */
  private readonly masks: Int32Array;
  private readonly mask: number;
  private readonly pv: Int32Array;
  private readonly mv: Int32Array;
  private static readonly ZERO = new Int32Array(64);

  constructor(query: Int32Array) {
    const tokens: number[] = [];
    for (const h of query) if (kindOfHash(h) !== TokenKind.Punct) tokens.push(h);
    this.length = tokens.length;
    this.blocks = Math.max(1, Math.ceil(tokens.length / 32));
    this.lastBit = 1 << ((Math.max(1, tokens.length) - 1) & 31);
    let size = 16;
    while (size < tokens.length * 2) size *= 2;
    this.mask = size - 1;
    this.keys = new Int32Array(size);
    this.used = new Uint8Array(size);
    this.masks = new Int32Array(size * this.blocks);
    tokens.forEach((h, i) => {
      const slot = this.slot(h);
      this.keys[slot] = h;
      this.used[slot] = 1;
      this.masks[slot * this.blocks + (i >> 5)]! |= 1 << (i & 31);
    });
    this.pv = new Int32Array(this.blocks);
    this.mv = new Int32Array(this.blocks);
  }

  private slot(h: number): number {
    let i = (Math.imul(h, 0x9e3779b1) >>> 0) & this.mask;
    while (this.used[i] && this.keys[i] !== h) i = (i + 1) & this.mask;
    return i;
  }

  /**
   * The edit distance to the scored tokens of text[from, to) (`m` of them), or `limit + 1` once it
   * cannot come back under `limit`.
   */
  distance(text: Int32Array, from: number, to: number, m: number, limit: number): number {
    const n = this.length;
    if (Math.abs(n - m) > limit) return limit + 1;
    if (n === 0) return m;
    const blocks = this.blocks;
    const pv = this.pv;
    const mv = this.mv;
    pv.fill(-1);
    mv.fill(0);
    let score = n;
    let seen = 0;
    for (let p = from; p < to; p++) {
      const h = text[p]!;
      if (kindOfHash(h) === TokenKind.Punct) continue;
      seen++;
      let slot = (Math.imul(h, 0x9e3779b1) >>> 0) & this.mask;
      while (this.used[slot] && this.keys[slot] !== h) slot = (slot + 1) & this.mask;
      const masks = this.used[slot] ? this.masks : BitPattern.ZERO;
      const base = this.used[slot] ? slot * blocks : 0;
      // The top row of the table grows by one per text token: the carry into the first block is +1.
      let hin = 1;
      for (let b = 0; b < blocks; b++) {
        let eq = masks[base + b]!;
        const pvb = pv[b]!;
        const mvb = mv[b]!;
        const xv = eq | mvb;
        if (hin < 0) eq |= 1;
        const xh = (((eq & pvb) + pvb) ^ pvb) | eq;
        let ph = mvb | ~(xh | pvb);
        let mh = pvb & xh;
        if (b === blocks - 1) {
          if (ph & this.lastBit) score++;
          else if (mh & this.lastBit) score--;
        }
        const hout = ph < 0 ? 1 : mh < 0 ? -1 : 0;
        ph <<= 1;
        mh <<= 1;
        if (hin < 0) mh |= 1;
        else if (hin > 0) ph |= 1;
        pv[b] = mh | ~(xv | ph);
        mv[b] = ph & xv;
        hin = hout;
      }
      // The distance can fall by at most one per token still to come.
      if (score - (m - seen) > limit) return limit + 1;
    }
    return score;
  }
}
