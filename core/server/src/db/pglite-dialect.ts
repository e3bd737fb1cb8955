import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { Mutex } from './mutex.js';

const COUNTED_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/**
 * Run one SQL text on PGlite the way `pg` would: with parameters over the extended protocol, without
 * them over the simple protocol (so parameterless multi-statement text works on both databases).
 * The caller must hold the connection lock.
 */
export async function runOnPglite(pglite: PGlite, sql: string, params: readonly unknown[] = []) {
  if (params.length > 0) return pglite.query<Record<string, unknown>>(sql, [...params]);
  const results = await pglite.exec(sql);
  return results[results.length - 1] ?? { rows: [], fields: [], affectedRows: 0 };
}

class PgliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await runOnPglite(this.pglite, compiledQuery.sql, compiledQuery.parameters);
    const command = result.command?.toUpperCase();
    return {
      rows: result.rows as R[],
      numAffectedRows:
        command && COUNTED_COMMANDS.has(command) ? BigInt(result.rowCount ?? result.affectedRows ?? 0) : undefined,
    };
  }

  // PGlite holds the whole result in memory anyway; streaming just hands it over in chunks.
  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(compiledQuery);
    for (let i = 0; i < rows.length; i += chunkSize) yield { rows: rows.slice(i, i + chunkSize) };
  }
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** One connection, lent to one user at a time: the lock is held from acquire to release. */
class PgliteDriver implements Driver {
  readonly #connection: PgliteConnection;
  readonly #unlocks = new Map<DatabaseConnection, () => void>();

  constructor(
    pglite: PGlite,
    private readonly mutex: Mutex,
  ) {
    this.#connection = new PgliteConnection(pglite);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const unlock = await this.mutex.lock();
    this.#unlocks.set(this.#connection, unlock);
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let text = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      text = 'start transaction';
      if (settings.isolationLevel) text += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) text += ` ${settings.accessMode}`;
    }
    await connection.executeQuery(CompiledQuery.raw(text));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdent(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${quoteIdent(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${quoteIdent(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const unlock = this.#unlocks.get(connection);
    this.#unlocks.delete(connection);
    unlock?.();
  }

  // The PGlite instance belongs to the Database, which closes it.
  async destroy(): Promise<void> {}
}

/** Kysely on PGlite: PostgreSQL's SQL dialect, over a lock-guarded single connection. */
export class PgliteDialect implements Dialect {
  constructor(
    private readonly pglite: PGlite,
    private readonly mutex: Mutex,
  ) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PgliteDriver(this.pglite, this.mutex);
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}
