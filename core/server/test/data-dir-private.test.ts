import { chmodSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKernel, type TestKernel } from './support/kernel.js';

// The data directory holds the database, uploaded files, secret.key and plugin configs: after a
// start, nothing under it may be open to the group or other users (PGlite wrote ~900 files 0666).

let k: TestKernel;
let dataDir = '';

/** Every path under `dir` (itself included) with its permission bits. */
function modes(dir: string): { path: string; dir: boolean; mode: number }[] {
  const out: { path: string; dir: boolean; mode: number }[] = [];
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    out.push({ path, dir: stat.isDirectory(), mode: stat.mode & 0o777 });
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return out;
}

const open = (entries: ReturnType<typeof modes>) => entries.filter((e) => e.mode !== (e.dir ? 0o700 : 0o600)).map((e) => `${e.path} ${e.mode.toString(8)}`);

beforeAll(async () => {
  k = await startKernel({}, {}, (config) => {
    dataDir = config.dataDir;
    // What an older install left behind: an open data dir, folder and file.
    mkdirSync(join(dataDir, 'files', 'legacy'), { recursive: true });
    writeFileSync(join(dataDir, 'files', 'legacy', 'old.txt'), 'old');
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'files', 'legacy'), 0o777);
    chmodSync(join(dataDir, 'files', 'legacy', 'old.txt'), 0o666);
  });
}, 120_000);
afterAll(async () => {
  await k?.shutdown();
});

describe('data directory', () => {
  it('is private to the server user after a start: directories 0700, files 0600, the database and older files included', () => {
    const entries = modes(dataDir);
    // The embedded database lives here (PostgreSQL keeps its files elsewhere, under its own user).
    if (!process.env.DATABASE_URL) expect(entries.filter((e) => e.path.includes(`${join(dataDir, 'db')}`)).length).toBeGreaterThan(100);
    expect(entries.map((e) => e.path)).toContain(join(dataDir, 'files', 'legacy', 'old.txt'));
    expect(open(entries)).toEqual([]);
  });

  it('keeps what the server creates after the start private', async () => {
    // The process umask: folders and files made from now on (storage, uploads, new database files).
    mkdirSync(join(dataDir, 'files', 'later', 'deeper'), { recursive: true });
    writeFileSync(join(dataDir, 'files', 'later', 'deeper', 'new.bin'), 'new');
    await k.database.exec('create table privacy_probe (id serial primary key, body text)');
    await k.database.exec("insert into privacy_probe (body) select repeat('x', 1000) from generate_series(1, 2000)");
    expect(open(modes(dataDir))).toEqual([]);
  });
});
