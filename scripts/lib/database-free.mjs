import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../setup.mjs';

export const DATABASE_FREE_MARK = '// Database: none';

/**
 * Server test files that say in their first lines `// Database: none` (format modules, engine adapters
 * against loopback peers, the speech and voiceprint methods) do not run again on PostgreSQL: they
 * would test the same thing twice. A file that opens a database must not say it.
 */
export function databaseFreeTests(root = ROOT) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.ts')) files.push(path);
    }
  };
  for (const dir of [join(root, 'core', 'server', 'test'), ...readdirSync(join(root, 'plugins')).map((p) => join(root, 'plugins', p, 'test', 'server'))]) {
    if (existsSync(dir)) walk(dir);
  }
  return files.filter((f) => readFileSync(f, 'utf8').split('\n', 8).some((line) => line.trim() === DATABASE_FREE_MARK)).map((f) => relative(root, f));
}

