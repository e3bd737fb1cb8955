import { mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Write through a temporary file and rename, so a reader never sees half a file. */
export function writeFileAtomic(file, data) {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/** Every file below `dir` (absolute paths, sorted), skipping folders named in `skip`. */
export function listFiles(dir, skip = new Set()) {
  const out = [];
  const walk = (d) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch (err) {
      if (err.code === 'ENOENT') return;
      throw err;
    }
    for (const e of entries) {
      if (e.isDirectory()) {
        if (!skip.has(e.name) && !e.name.startsWith('.')) walk(join(d, e.name));
      } else if (e.isFile()) out.push(join(d, e.name));
    }
  };
  walk(dir);
  return out.sort();
}
