import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

/**
 * The data directory (database, files, secret.key, plugin configs) is for the server's own user
 * only: directories 0700, files 0600. New files are made so by the process umask; files made
 * before (an older install, or PGlite's initial data, which it writes 0666 whatever the umask)
 * are fixed by `makePrivate`.
 */

/** No group or other bits on anything this process creates. */
export const PRIVATE_UMASK = 0o077;

/**
 * Takes the group and other bits off `dir` and everything under it (0755 -> 0700, 0666 -> 0600;
 * the owner's bits stay). Symbolic links are neither changed nor followed. Returns the paths that
 * could not be changed (not ours, read-only file system), for a warning.
 */
export function makePrivate(dir: string): string[] {
  const refused: string[] = [];
  const visit = (path: string) => {
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      return; // Gone meanwhile.
    }
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) {
      try {
        chmodSync(path, stat.mode & 0o7700);
      } catch {
        refused.push(path);
      }
    }
    if (stat.isDirectory()) {
      let names: string[] = [];
      try {
        names = readdirSync(path);
      } catch {
        refused.push(path);
      }
      for (const name of names) visit(join(path, name));
    }
  };
  visit(dir);
  return refused;
}

/** At server start: what the process creates from now on is private, and what is already there is made so. */
export function privateDataDir(dir: string): string[] {
  // process.umask(mask) is refused in worker threads; the server runs in the main thread.
  if (isMainThread) process.umask(PRIVATE_UMASK);
  return makePrivate(dir);
}
