import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database.js';

const CONNECT_TIMEOUT_MS = 10_000;
const INT8 = 20;

/** `host:port/db` for messages: never the user or password. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

function reasonOf(err: unknown, url: string): string {
  let reason = 'unknown error';
  if (err instanceof AggregateError && err.errors.length) reason = reasonOf(err.errors[0], url);
  else if (err instanceof Error) reason = err.message || (err as NodeJS.ErrnoException).code || err.name;
  else reason = String(err);
  try {
    const password = decodeURIComponent(new URL(url).password);
    if (password) reason = reason.split(password).join('***');
  } catch {
    // The URL was already validated by the config; nothing to hide if it does not parse.
  }
  return reason.replace(/\s+/g, ' ').trim();
}

/**
 * Types handed back the way PGlite hands them back: bigint as a number when it fits (counts, ids),
 * a BigInt when it does not.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 && format !== 'binary') {
      return (text: string) => {
        const n = Number(text);
        return Number.isSafeInteger(n) ? n : BigInt(text);
      };
    }
    return (pg.types.getTypeParser as (oid: number, format?: string) => unknown)(oid, format);
  },
} as unknown as pg.CustomTypesConfig;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** One dedicated connection carries every LISTEN; it comes back (and re-listens) if it drops. */
class Listener {
  #client: pg.Client | null = null;
  #connecting: Promise<pg.Client> | null = null;
  #handlers = new Map<string, Set<(payload: string) => void>>();
  #closed = false;

  constructor(private readonly url: string) {}

  async #connect(): Promise<pg.Client> {
    if (this.#client) return this.#client;
    this.#connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, types });
      client.on('notification', (msg) => {
        for (const handler of this.#handlers.get(msg.channel) ?? []) handler(msg.payload ?? '');
      });
      const lost = () => {
        if (this.#client !== client) return;
        this.#client = null;
        if (!this.#closed && this.#handlers.size) setTimeout(() => void this.#reconnect(), 1000).unref();
      };
      client.on('error', lost);
      client.on('end', lost);
      try {
        await client.connect();
        for (const channel of this.#handlers.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
        this.#client = client;
        return client;
      } finally {
        this.#connecting = null;
      }
    })();
    return this.#connecting;
  }

  async #reconnect(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#connect();
    } catch {
      setTimeout(() => void this.#reconnect(), 2000).unref();
    }
  }

  async listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>> {
    const isNew = !this.#handlers.has(channel);
    const set = this.#handlers.get(channel) ?? new Set();
    set.add(handler);
    this.#handlers.set(channel, set);
    const hadClient = this.#client !== null;
    const client = await this.#connect();
    // A fresh connection already listened to every known channel.
    if (isNew && hadClient) await client.query(`LISTEN ${quoteIdent(channel)}`);
    return async () => {
      set.delete(handler);
      if (set.size === 0 && this.#handlers.get(channel) === set) {
        this.#handlers.delete(channel);
        await this.#client?.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
  }
}

/** PostgreSQL through a `pg` pool. Fails within about ten seconds, in one line, if it cannot connect. */
export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, max: 10, types });
  // An idle client that loses its server must not crash the process; the next checkout reconnects.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new Error(`cannot connect to the database at ${describeUrl(url)}: ${reasonOf(err, url)}`);
  }
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  } catch (err) {
    // Two servers starting at once can race on the catalogue; the extension being there is what counts.
    const { rows } = await pool.query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`);
    if (!rows.length) {
      await pool.end().catch(() => undefined);
      throw new Error(`cannot enable pg_trgm in ${describeUrl(url)}: ${reasonOf(err, url)}`);
    }
  }

  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  const listener = new Listener(url);
  let closing: Promise<void> | null = null;

  return {
    kind: 'postgres',
    db,
    async query<T>(sql: string, params?: unknown[]) {
      const result = (await pool.query(sql, params && params.length ? params : undefined)) as
        | pg.QueryResult
        | pg.QueryResult[];
      const last = Array.isArray(result) ? result[result.length - 1] : result;
      return (last?.rows ?? []) as T[];
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    listen: (channel, onPayload) => listener.listen(channel, onPayload),
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    close() {
      // kysely's destroy ends the pool it was given.
      closing ??= (async () => {
        await listener.close();
        await db.destroy();
      })();
      return closing;
    },
  };
}
