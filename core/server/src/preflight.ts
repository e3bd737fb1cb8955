import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';

/**
 * Checks made before anything is created, so that a start that cannot succeed fails in one clear
 * line and leaves nothing behind (no database, no administrator password printed for nothing).
 */

/** Creates `dir` one level at a time: Node's recursive mkdir never returns under /proc. */
export function ensureWritableDir(dir: string): void {
  const missing: string[] = [];
  let cur = dir;
  for (;;) {
    try {
      if (!statSync(cur).isDirectory()) throw new Error(`data directory ${dir} is not writable: ${cur} is not a directory`);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw reword(dir, err);
      missing.unshift(cur);
      const parent = dirname(cur);
      if (parent === cur) break;
      cur = parent;
    }
  }
  try {
    for (const d of missing) mkdirSync(d);
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw reword(dir, err);
  }
}

function reword(dir: string, err: unknown): Error {
  if (err instanceof Error && err.message.startsWith('data directory')) return err;
  const e = err as NodeJS.ErrnoException;
  return new Error(`data directory ${dir} is not writable: ${e.code ?? e.message}`);
}

/** Resolves when host:port can be bound now; rejects with the listen error (EADDRINUSE, ...). */
export function probePort(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
