import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db/database.js';
import { openTestDatabase, type TestDatabase } from './support/test-database.js';

let t: TestDatabase;
let database: Database;

beforeAll(async () => {
  t = await openTestDatabase();
  database = t.database;
  await database.exec(`
    CREATE TABLE note (id serial PRIMARY KEY, body text NOT NULL, size bigint, data bytea);
    CREATE INDEX note_body_trgm ON note USING gin (body gin_trgm_ops);
  `);
});

afterAll(async () => {
  await t?.cleanup();
});

describe(`database (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('reports which engine it runs on', () => {
    expect(database.kind).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
  });

  it('creates, reads, updates and deletes rows through kysely', async () => {
    const inserted = await database.db
      .insertInto('note')
      .values({ body: 'hello world', size: 11, data: Buffer.from('hi') })
      .returning(['id', 'body'])
      .executeTakeFirstOrThrow();
    expect(inserted.body).toBe('hello world');

    const read = await database.db.selectFrom('note').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow();
    expect(read.size).toBe(11);
    expect(Buffer.isBuffer(read.data)).toBe(true);
    expect(read.data.toString()).toBe('hi');

    const updated = await database.db.updateTable('note').set({ body: 'hello there' }).where('id', '=', inserted.id).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);

    const deleted = await database.db.deleteFrom('note').where('id', '=', inserted.id).executeTakeFirst();
    expect(deleted.numDeletedRows).toBe(1n);
    expect(await database.db.selectFrom('note').selectAll().where('id', '=', inserted.id).execute()).toEqual([]);
  });

  it('rolls a failed transaction back completely', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await trx.insertInto('note').values({ body: 'inside the transaction' }).execute();
        throw new Error('abort on purpose');
      }),
    ).rejects.toThrow('abort on purpose');
    const rows = await database.query(`SELECT * FROM note WHERE body = $1`, ['inside the transaction']);
    expect(rows).toEqual([]);
  });

  it('keeps other statements out of a running transaction', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tx = database.db.transaction().execute(async (trx) => {
      await trx.insertInto('note').values({ body: 'tx row' }).execute();
      await gate;
      throw new Error('roll back');
    });
    // Issued while the transaction is open: must not see or join it.
    const outside = database.db.insertInto('note').values({ body: 'outside row' }).execute();
    // Held open a moment so the outside statement arrives while it runs (PGlite queues it, PostgreSQL runs
    // it on another connection): this delay is the scenario, nothing waits on it for a result.
    setTimeout(release, 50);
    await expect(tx).rejects.toThrow('roll back');
    await outside;
    const bodies = (await database.query<{ body: string }>(`SELECT body FROM note WHERE body IN ('tx row', 'outside row')`)).map((r) => r.body);
    expect(bodies).toEqual(['outside row']);
    await database.exec(`DELETE FROM note`);
  });

  it('counts come back as numbers on both engines', async () => {
    await database.db.insertInto('note').values([{ body: 'a' }, { body: 'b' }]).execute();
    const [row] = await database.query<{ n: number }>(`SELECT count(*) AS n FROM note`);
    expect(row.n).toBe(2);
    await database.exec(`DELETE FROM note`);
  });

  it('runs pg_trgm similarity()', async () => {
    await database.db.insertInto('note').values([{ body: 'translation memory' }, { body: 'completely different' }]).execute();
    const rows = await database.query<{ body: string; score: number }>(
      `SELECT body, similarity(body, $1) AS score FROM note WHERE body % $1 ORDER BY score DESC`,
      ['translation memories'],
    );
    expect(rows.map((r) => r.body)).toEqual(['translation memory']);
    expect(rows[0].score).toBeGreaterThan(0.5);
    await database.exec(`DELETE FROM note`);
  });

  it('runs parameterless multi-statement text and returns the last rows', async () => {
    const rows = await database.query<{ v: number }>(`SELECT 1 AS v; SELECT 2 AS v`);
    expect(rows).toEqual([{ v: 2 }]);
  });

  it('delivers NOTIFY payloads to a listener until it stops listening', async () => {
    const seen: string[] = [];
    const stop = await database.listen('test_channel', (p) => seen.push(p));
    await database.notify('test_channel', 'one');
    await expect.poll(() => seen, { timeout: 5000 }).toEqual(['one']);
    await stop();
    // A listener added after the stop sees 'two' arrive: only then is "the first one did not" a finding.
    const witness: string[] = [];
    const stopWitness = await database.listen('test_channel', (p) => witness.push(p));
    await database.notify('test_channel', 'two');
    await expect.poll(() => witness, { timeout: 5000 }).toEqual(['two']);
    await stopWitness();
    expect(seen).toEqual(['one']);
  });
});

describe('opening failures', () => {
  it('names the address and reason, not the password, when PostgreSQL cannot be reached', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const started = Date.now();
    const error = await createDatabase({ dataDir: t.dataDir, databaseUrl: `postgres://bob:s3cret@127.0.0.1:${port}/app` }).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(new RegExp(`^cannot connect to the database at 127\\.0\\.0\\.1:${port}/app: .*ECONNREFUSED`));
    expect(error.message).not.toContain('s3cret');
    expect(error.message).not.toContain('\n');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('says the data directory is not writable when it cannot be created', async () => {
    const file = join(t.dataDir, 'plain-file');
    await writeFile(file, 'x');
    const dir = join(file, 'data');
    await expect(createDatabase({ dataDir: dir, databaseUrl: null })).rejects.toThrow(
      new RegExp(`^data directory ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not writable: `),
    );
  });

  it('refuses a second server on the same embedded database while the first runs, and takes over after it was killed', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'db-lock-'));
    // Another server's process: alive, then killed with SIGKILL (its lock file stays behind).
    const other = spawn('sleep', ['60']);
    try {
      await writeFile(join(dataDir, 'db.lock'), String(other.pid));
      await expect(createDatabase({ dataDir, databaseUrl: null })).rejects.toThrow(`is in use by another server (process ${other.pid})`);
      other.kill('SIGKILL');
      await new Promise((r) => other.once('exit', r));
      const opened = await createDatabase({ dataDir, databaseUrl: null });
      expect(readFileSync(join(dataDir, 'db.lock'), 'utf8')).toBe(String(process.pid));
      await opened.close();
      // Closed: the lock is gone, the next server opens it.
      expect(existsSync(join(dataDir, 'db.lock'))).toBe(false);
    } finally {
      other.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
    // Two embedded databases are opened (PGlite loads and initialises its WebAssembly each time).
  }, 150_000);
});

// A sql-tagged query through kysely uses the same dialect path as the builder.
describe('raw sql through kysely', () => {
  it('binds parameters', async () => {
    const { rows } = await sql<{ x: string }>`SELECT ${'bound'}::text AS x`.execute(database.db);
    expect(rows).toEqual([{ x: 'bound' }]);
  });
});
