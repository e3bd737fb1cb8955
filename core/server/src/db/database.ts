import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

/**
 * The kernel's database: embedded PGlite by default, PostgreSQL when DATABASE_URL is set. Both speak
 * the same SQL; callers should not need to know which one they have.
 *
 * `query(sql, params)` returns the rows. Without params the text goes over the simple protocol, so it
 * may hold several statements (rows of the last one are returned); with params it is one statement.
 * On PGlite there is one connection: do not call `query`/`exec` from inside a kysely transaction
 * (use the transaction's own `trx`), or the call waits for the transaction that waits for it.
 */
export interface Database {
  kind: 'pglite' | 'postgres';
  /**
   * Untyped, because plugins' tables share it (their tests too); the kernel's own code types its
   * queries with `Kysely<KernelTables>` (schema.ts) where it takes this.
   */
  db: Kysely<any>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  exec(sql: string): Promise<void>;
  /** LISTEN on a channel; resolves to the function that stops listening. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /** Idempotent. */
  close(): Promise<void>;
}

export interface DatabaseConfig {
  dataDir: string;
  databaseUrl: string | null;
}

/** Fail at start, in one line, rather than at the first write minutes later. */
async function ensureWritable(dir: string): Promise<void> {
  const probe = join(dir, `.write-probe-${randomUUID()}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, '');
    await rm(probe, { force: true });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`data directory ${dir} is not writable: ${reason}`);
  }
}

export async function createDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  await ensureWritable(config.dataDir);
  return openPglite(join(config.dataDir, 'db'));
}
