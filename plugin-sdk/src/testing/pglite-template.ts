import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openPglite } from '../../../core/server/src/db/pglite.js';

/**
 * Settings of every test database (its postgresql.auto.conf). PGlite zeroes its whole buffer pool at
 * each open: at PostgreSQL's 128MB that was about half of an open's CPU (1.3 s -> 0.6 s at 16MB), and
 * a test database is small and opened some 250 times a run. Production keeps the default.
 */
export const TEST_PGLITE_SETTINGS = { shared_buffers: '16MB' };

/**
 * A freshly initialised PGlite costs 5-12 s on these machines (its initdb); a copy of one made
 * earlier opens in about 1 s. Test files copy a per-machine template into their own directory.
 * Parallel workers may race to create it: each builds in its own folder and the first rename wins.
 */
function templateDir(): string {
  // The package's exports hide package.json: find it beside its resolved entry.
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  // The settings are part of the name: a template made with other settings is not reused.
  const settings = Object.entries(TEST_PGLITE_SETTINGS).map(([k, v]) => `${k}=${v}`).join(',');
  return join(tmpdir(), `linguaport-pglite-template-${pkg.version}-${settings.replace(/[^a-zA-Z0-9=,]/g, '')}`);
}

export async function seedPgliteDir(target: string): Promise<void> {
  const template = templateDir();
  if (!existsSync(join(template, 'PG_VERSION'))) {
    const building = mkdtempSync(`${template}.building-`);
    const database = await openPglite(building);
    await database.close();
    appendFileSync(join(building, 'postgresql.auto.conf'), Object.entries(TEST_PGLITE_SETTINGS).map(([k, v]) => `${k} = '${v}'\n`).join(''));
    try {
      renameSync(building, template);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another worker won the race
    }
  }
  cpSync(template, target, { recursive: true });
}
