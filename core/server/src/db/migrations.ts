import type { Migration } from '@linguaport/sdk/server';
import { sql } from 'kysely';
import type { Database } from './database.js';

const LEDGER = `
  CREATE TABLE IF NOT EXISTS kernel_migrations (
    module text NOT NULL,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (module, name)
  )`;

/** Names must be unique and already in order, so the array order and the name order cannot disagree. */
function checkOrder(module: string, migrations: Migration[]): void {
  for (let i = 1; i < migrations.length; i++) {
    const previous = migrations[i - 1].name;
    const current = migrations[i].name;
    if (current === previous || migrations.findIndex((m) => m.name === current) !== i) {
      throw new Error(`migrations of ${module}: name ${current} is used twice`);
    }
    if (current < previous) {
      throw new Error(`migrations of ${module}: ${current} comes after ${previous} but sorts before it`);
    }
  }
}

/**
 * Apply the not-yet-applied migrations of one module (`core`, `core.access`, `plugin:<id>`) in
 * array order, each in its own transaction together with its ledger row. Returns the names applied.
 */
export async function runMigrations(database: Database, module: string, migrations: Migration[]): Promise<string[]> {
  checkOrder(module, migrations);
  await database.exec(LEDGER);

  const rows = await database.db
    .selectFrom('kernel_migrations')
    .select('name')
    .where('module', '=', module)
    .execute();
  const applied = new Set(rows.map((r) => r.name as string));
  const known = new Set(migrations.map((m) => m.name));
  const missing = [...applied].filter((name) => !known.has(name)).sort();
  if (missing.length) {
    // The database is ahead of the code (a downgrade, or a renamed migration): refuse rather than guess.
    throw new Error(`migrations of ${module}: ${missing.join(', ')} applied to the database but missing from the code`);
  }

  const done: string[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.name)) continue;
    let ran = false;
    try {
      ran = await database.db.transaction().execute(async (trx) => {
        // Two servers starting on one database: the second waits here, then sees the ledger row.
        await sql`SELECT pg_advisory_xact_lock(hashtext(${`kernel_migrations:${module}`}))`.execute(trx);
        const already = await trx
          .selectFrom('kernel_migrations')
          .select('name')
          .where('module', '=', module)
          .where('name', '=', migration.name)
          .executeTakeFirst();
        if (already) return false;
        await migration.up(trx);
        await trx.insertInto('kernel_migrations').values({ module, name: migration.name }).execute();
        return true;
      });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(`migration ${module}/${migration.name} failed: ${reason}`, { cause: err });
    }
    if (ran) done.push(migration.name);
  }
  return done;
}
