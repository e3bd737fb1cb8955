import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/index.js';

// One seeded generator in the workspace (issue 24): the model samples frames with it and the SDK's
// testing kit re-exports it (plugin-sdk/test/testing/seeded-random.test.ts).
describe('seededRandom', () => {
  it('repeats its numbers for a seed and stays in [0, 1)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const first = Array.from({ length: 1000 }, a);
    expect(Array.from({ length: 1000 }, b)).toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(first.slice(0, 2)).not.toEqual(Array.from({ length: 2 }, seededRandom(43)));
    // mulberry32's first number for seed 1: stored models and replayed test seeds rely on the sequence.
    expect(seededRandom(1)()).toBeCloseTo(0.6270739405881613, 15);
  });
});
