import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createDatabase, type Database } from '../../../core/server/src/db/database.js';
import { seedPgliteDir } from './pglite-template.js';

export interface TestDatabase {
  database: Database;
  /** A fresh temp directory (PGlite lives in `<dataDir>/db`; tests may put files here too). */
  dataDir: string;
  /** The per-test PostgreSQL database's URL, or null on PGlite. */
  databaseUrl: string | null;
  /**
   * Open another Database on the same storage (a "restart", or a second server instance on
   * PostgreSQL). On PGlite, close the previous one first: one process owns the files.
   */
  open(): Promise<Database>;
  /** Closes every Database opened here and removes the storage. */
  cleanup(): Promise<void>;
}

/**
 * A database of its own for one test file: PGlite in a temp directory by default, or, when
 * DATABASE_URL is set, a fresh database `t_<random>` on that server (dropped by cleanup), so test
 * files can run in parallel against one PostgreSQL.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'linguaport-test-'));
  const serverUrl = process.env.DATABASE_URL?.trim() || null;
  let databaseUrl: string | null = null;
  let dbName: string | null = null;

  if (serverUrl) {
    dbName = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${dbName}`);
    } finally {
      await admin.end();
    }
    const url = new URL(serverUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }

  if (!serverUrl) await seedPgliteDir(join(dataDir, 'db'));

  const opened: Database[] = [];
  const open = async () => {
    const database = await createDatabase({ dataDir, databaseUrl });
    opened.push(database);
    return database;
  };
  const database = await open();

  return {
    database,
    dataDir,
    databaseUrl,
    open,
    async cleanup() {
      for (const db of opened) await db.close();
      if (serverUrl && dbName) {
        const admin = new pg.Client({ connectionString: serverUrl });
        await admin.connect();
        try {
          await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        } finally {
          await admin.end();
        }
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
