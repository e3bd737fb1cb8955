import type { Migration } from '@linguaport/sdk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreMigrations } from '../src/db/core-migrations.js';
import { runMigrations } from '../src/db/migrations.js';
import { openTestDatabase, type TestDatabase } from './support/test-database.js';

let t: TestDatabase;

beforeAll(async () => {
  t = await openTestDatabase();
});

afterAll(async () => {
  await t?.cleanup();
});

let lists = 0;

/** Migrations that record the order they ran in, in the database itself. */
function recording(names: string[], log: string[]): Migration[] {
  const prefix = `m${++lists}`;
  return names.map((name) => ({
    name,
    async up(db) {
      log.push(name);
      await db.schema.createTable(`${prefix}_${name}`).addColumn('id', 'integer').execute();
    },
  }));
}

describe('runMigrations', () => {
  it('applies migrations in array order and records them', async () => {
    const log: string[] = [];
    const applied = await runMigrations(t.database, 'plugin:order', recording(['001_a', '002_b', '003_c'], log));
    expect(applied).toEqual(['001_a', '002_b', '003_c']);
    expect(log).toEqual(['001_a', '002_b', '003_c']);
    const rows = await t.database.query<{ name: string }>(
      `SELECT name FROM kernel_migrations WHERE module = $1 ORDER BY name`,
      ['plugin:order'],
    );
    expect(rows.map((r) => r.name)).toEqual(['001_a', '002_b', '003_c']);
  });

  it('applies nothing on a re-run and only the new ones when the list grows', async () => {
    const log: string[] = [];
    expect(await runMigrations(t.database, 'plugin:rerun', recording(['001_a'], log))).toEqual(['001_a']);
    expect(await runMigrations(t.database, 'plugin:rerun', recording(['001_a'], log))).toEqual([]);
    expect(await runMigrations(t.database, 'plugin:rerun', recording(['001_a', '002_b'], log))).toEqual(['002_b']);
    expect(log).toEqual(['001_a', '002_b']);
  });

  it('keeps modules apart: the same name in two modules runs twice', async () => {
    const make = (table: string): Migration[] => [
      { name: '001_x', up: async (db) => void (await db.schema.createTable(table).addColumn('id', 'integer').execute()) },
    ];
    expect(await runMigrations(t.database, 'plugin:one', make('one_x'))).toEqual(['001_x']);
    expect(await runMigrations(t.database, 'plugin:two', make('two_x'))).toEqual(['001_x']);
  });

  it('rolls back a failing migration, leaves no ledger row, and names it', async () => {
    const failing: Migration[] = [
      {
        name: '001_half',
        async up(db) {
          await db.schema.createTable('half_done').addColumn('id', 'integer').execute();
          throw new Error('boom');
        },
      },
    ];
    await expect(runMigrations(t.database, 'plugin:fail', failing)).rejects.toThrow('migration plugin:fail/001_half failed: boom');
    const tables = await t.database.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`);
    expect(tables).toEqual([]);
    const ledger = await t.database.query(`SELECT 1 FROM kernel_migrations WHERE module = 'plugin:fail'`);
    expect(ledger).toEqual([]);
  });

  it('refuses when an applied migration is missing from the list', async () => {
    await runMigrations(t.database, 'plugin:gone', recording(['001_a', '002_b'], []));
    await expect(runMigrations(t.database, 'plugin:gone', recording(['001_a'], []))).rejects.toThrow(
      'migrations of plugin:gone: 002_b applied to the database but missing from the code',
    );
  });

  it('refuses duplicate names', async () => {
    await expect(runMigrations(t.database, 'plugin:dup', recording(['001_a', '001_a'], []))).rejects.toThrow(
      'name 001_a is used twice',
    );
  });

  it('refuses names out of order', async () => {
    const log: string[] = [];
    await expect(runMigrations(t.database, 'plugin:unordered', recording(['002_b', '001_a'], log))).rejects.toThrow(
      '001_a comes after 002_b but sorts before it',
    );
    expect(log).toEqual([]);
  });

  it('applies the core migrations once', async () => {
    expect(await runMigrations(t.database, 'core', coreMigrations)).toEqual(coreMigrations.map((m) => m.name));
    expect(await runMigrations(t.database, 'core', coreMigrations)).toEqual([]);
  });

  it('lets two concurrent runs on one database apply each migration once', async () => {
    const log: string[] = [];
    const list = recording(['001_a', '002_b'], log);
    const other = t.databaseUrl ? await t.open() : t.database;
    const [a, b] = await Promise.all([
      runMigrations(t.database, 'plugin:race', list),
      runMigrations(other, 'plugin:race', list),
    ]);
    expect([...a, ...b].sort()).toEqual(['001_a', '002_b']);
    expect(log.sort()).toEqual(['001_a', '002_b']);
  });
});
