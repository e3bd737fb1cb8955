import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A PATH holding every program of /usr/bin except `without` (as symlinks): an engine started
 * with it runs as on a machine where those Debian packages are missing.
 */
export function pathWithout(without: string[]): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'lp-path-'));
  for (const name of readdirSync('/usr/bin')) if (!without.includes(name)) symlinkSync(join('/usr/bin', name), join(dir, name));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Deterministic PRNG so a failing case can be reproduced from its seed. */
export function prng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}
