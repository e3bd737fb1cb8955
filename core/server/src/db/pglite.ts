import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely } from 'kysely';
import type { Database } from './database.js';
import { makePrivate } from '../storage/private.js';
import { processRunning } from '../system/proc.js';
import { Mutex } from './mutex.js';
import { PgliteDialect, runOnPglite } from './pglite-dialect.js';

const BYTEA = 17;

/**
 * One server process at a time on an embedded database: a second one on the same directory would
 * corrupt it, and the task service counts on it (another instance's running task is a dead server's).
 * The lock is `<dir>.lock` with the owner's pid; one left by a killed server is taken over. Returns
 * its release.
 */
function lockDirectory(dir: string): () => void {
  const file = `${dir}.lock`;
  const mine = String(process.pid);
  for (;;) {
    try {
      writeFileSync(file, mine, { flag: 'wx', mode: 0o600 });
      return () => {
        try {
          if (readFileSync(file, 'utf8') === mine) unlinkSync(file);
        } catch {
          // Already gone.
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let owner = NaN;
    try {
      owner = Number(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    // This process already holds it (a test opening the directory again): the first opener releases it.
    if (owner === process.pid) return () => {};
    if (Number.isInteger(owner) && owner > 0 && processRunning(owner)) {
      throw new Error(`The database in ${dir} is in use by another server (process ${owner}): stop it, or give this one another DATA_DIR`);
    }
    try {
      unlinkSync(file);
    } catch {
      // Another starter removed it first: try again.
    }
  }
}

/** Embedded PostgreSQL persisted in `dir`. */
export async function openPglite(dir: string): Promise<Database> {
  await mkdir(dir, { recursive: true });
  const unlock = lockDirectory(dir);
  try {
    return await openLocked(dir, unlock);
  } catch (err) {
    unlock();
    throw err;
  }
}

async function openLocked(dir: string, unlock: () => void): Promise<Database> {
  const pglite = await PGlite.create(dir, {
    extensions: { pg_trgm },
    // `pg` hands bytea back as a Buffer; do the same so callers see one type on both databases.
    parsers: { [BYTEA]: (text: string) => Buffer.from(text.startsWith('\\x') ? text.slice(2) : text, 'hex') },
  });
  await pglite.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  // PGlite writes its initial data files 0666 whatever the umask (PostgreSQL's own later files are 0600).
  makePrivate(dir);
  const mutex = new Mutex();
  const db = new Kysely<any>({ dialect: new PgliteDialect(pglite, mutex) });
  let closing: Promise<void> | null = null;

  return {
    kind: 'pglite',
    db,
    async query<T>(sql: string, params?: unknown[]) {
      const result = await mutex.run(() => runOnPglite(pglite, sql, params));
      return result.rows as T[];
    },
    async exec(sql: string) {
      await mutex.run(() => pglite.exec(sql));
    },
    async listen(channel, onPayload) {
      const stop = await mutex.run(() => pglite.listen(channel, onPayload));
      return async () => {
        if (!pglite.closed) await mutex.run(() => stop());
      };
    },
    async notify(channel, payload) {
      await mutex.run(() => pglite.query('SELECT pg_notify($1, $2)', [channel, payload]));
    },
    close() {
      // Wait for whoever holds the connection, then shut the engine so the files are consistent.
      closing ??= mutex.run(async () => {
        if (!pglite.closed) await pglite.close();
        unlock();
      });
      return closing;
    },
  };
}
