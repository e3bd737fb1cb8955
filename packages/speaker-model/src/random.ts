/**
 * A small repeatable pseudo-random generator (mulberry32): the same seed gives the same numbers in
 * [0, 1), so the same frames give the same model and a failing test seed can be replayed. The one
 * copy in the workspace (this package has no dependencies); the SDK's testing kit re-exports it.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
