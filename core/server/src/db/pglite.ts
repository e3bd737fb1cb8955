import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely } from 'kysely';
import type { Database } from './database.js';
import { makePrivate } from '../storage/private.js';
import { Mutex } from './mutex.js';
import { PgliteDialect, runOnPglite } from './pglite-dialect.js';

const BYTEA = 17;

/** Embedded PostgreSQL persisted in `dir`. */
export async function openPglite(dir: string): Promise<Database> {
  await mkdir(dir, { recursive: true });
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
      });
      return closing;
    },
  };
}
