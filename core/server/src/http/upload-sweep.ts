import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Uploads stream to temporary files that the call removes when it ends; a server killed mid-call
 * leaves them behind. At start-up, before any call can begin, the server empties its own upload
 * folder (`DATA_DIR/tmp/uploads`). Only a real folder of the data directory is swept: a symbolic link
 * in its place (to /tmp, say) is left alone, and links inside are removed, never followed.
 * Returns how many entries were removed.
 */
export function sweepUploads(uploadDir: string): number {
  for (const dir of [dirname(uploadDir), uploadDir]) {
    try {
      const stat = lstatSync(dir);
      if (!stat.isDirectory() || stat.isSymbolicLink()) return 0;
      if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return 0;
    } catch {
      return 0;
    }
  }
  let removed = 0;
  for (const name of readdirSync(uploadDir)) {
    rmSync(join(uploadDir, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
