import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { loadSecret, SECRET_FILE, secretOf, type Secret } from './secret.js';

/**
 * Rotation of the server's secret (DATA_DIR/secret.key), for when it may have leaked: a new key,
 * every value sealed with the old one sealed again with the new one (API keys, directory bind
 * passwords, SSO client secrets, engine node credentials), every open session ended, and every
 * quick-access link made with the old key no longer valid. Run with the servers stopped
 * (`npm run rotate-secret`).
 *
 * The new key is written beside the old one first (`secret.key.next`), the database changes in one
 * transaction, then the new key replaces the old: a rotation stopped half-way is finished by the
 * next run (the database already sealed with the next key) or started again (it was not).
 */

/** Columns holding one sealed value each. */
const SEALED_COLUMNS: ReadonlyArray<readonly [table: string, column: string]> = [
  ['users', 'api_key_sealed'],
  ['directory_domains', 'bind_password'],
  ['sso_providers', 'client_secret'],
  ['engine_nodes', 'password_sealed'],
  ['engine_nodes', 'api_key_sealed'],
];
/** JSON columns whose string values may be sealed (an engine node's adapter config seals its secret fields). */
const SEALED_JSON: ReadonlyArray<readonly [table: string, column: string]> = [['engine_nodes', 'config']];

const NEXT_FILE = `${SECRET_FILE}.next`;
const looksSealed = (v: unknown): v is string => typeof v === 'string' && v.startsWith('v1.');

export interface RotationResult {
  /** Sealed values written again with the new key. */
  resealed: number;
  /** Values that the old key could not open (left as they were; they were unreadable already). */
  unreadable: number;
  sessionsEnded: number;
  /** True when this run finished a rotation an earlier run had committed but not completed. */
  resumed: boolean;
}

async function columnsThatExist(db: Kysely<any>, wanted: ReadonlyArray<readonly [string, string]>): Promise<Array<readonly [string, string]>> {
  const rows = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns where table_schema = current_schema()`.execute(db);
  const have = new Set(rows.rows.map((r) => `${r.table_name}.${r.column_name}`));
  return wanted.filter(([t, c]) => have.has(`${t}.${c}`));
}

/** Every sealed value in the database, read with `visit`; returns the new JSON/text to write when `visit` changes it. */
async function sealedValues(db: Kysely<any>): Promise<{ plain: Array<{ table: string; column: string; id: unknown; value: string }>; json: Array<{ table: string; column: string; id: unknown; value: unknown }> }> {
  const plain = [];
  for (const [table, column] of await columnsThatExist(db, SEALED_COLUMNS)) {
    const rows = await sql<{ id: unknown; value: string }>`select id, ${sql.ref(column)} as value from ${sql.table(table)} where ${sql.ref(column)} is not null`.execute(db);
    for (const r of rows.rows) if (looksSealed(r.value)) plain.push({ table, column, id: r.id, value: r.value });
  }
  const json = [];
  for (const [table, column] of await columnsThatExist(db, SEALED_JSON)) {
    const rows = await sql<{ id: unknown; value: unknown }>`select id, ${sql.ref(column)} as value from ${sql.table(table)} where ${sql.ref(column)} is not null`.execute(db);
    for (const r of rows.rows) json.push({ table, column, id: r.id, value: typeof r.value === 'string' ? JSON.parse(r.value) : r.value });
  }
  return { plain, json };
}

function resealJson(value: unknown, reseal: (s: string) => string): unknown {
  if (looksSealed(value)) return reseal(value);
  if (Array.isArray(value)) return value.map((v) => resealJson(v, reseal));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resealJson(v, reseal)]));
  return value;
}

function anySealedWith(values: Awaited<ReturnType<typeof sealedValues>>, secret: Secret): boolean {
  const strings: string[] = values.plain.map((p) => p.value);
  const walk = (v: unknown) => {
    if (looksSealed(v)) strings.push(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  values.json.forEach((j) => walk(j.value));
  return strings.some((s) => secret.decrypt(s) !== null);
}

export async function rotateSecret(db: Kysely<any>, dataDir: string, now: Date = new Date()): Promise<RotationResult> {
  const file = join(dataDir, SECRET_FILE);
  const nextFile = join(dataDir, NEXT_FILE);
  if (!existsSync(file)) throw new Error(`${file} does not exist: there is no secret to rotate (the server makes one at its first start)`);
  const old = loadSecret(dataDir);

  if (existsSync(nextFile)) {
    const next = secretOf(Buffer.from(readFileSync(nextFile, 'utf8').trim(), 'base64'));
    if (anySealedWith(await sealedValues(db), next)) {
      // The database was committed with the next key: only the file swap was missing.
      renameSync(nextFile, file);
      const ended = await endSessions(db, now);
      return { resealed: 0, unreadable: 0, sessionsEnded: ended, resumed: true };
    }
    rmSync(nextFile, { force: true });
  }

  const key = randomBytes(32);
  writeFileSync(nextFile, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  const next = secretOf(key);
  let resealed = 0;
  let unreadable = 0;
  let sessionsEnded = 0;
  const reseal = (sealed: string) => {
    const plain = old.decrypt(sealed);
    if (plain === null) {
      unreadable++;
      return sealed;
    }
    resealed++;
    return next.encrypt(plain);
  };
  await db.transaction().execute(async (trx) => {
    const values = await sealedValues(trx);
    for (const v of values.plain) {
      await sql`update ${sql.table(v.table)} set ${sql.ref(v.column)} = ${reseal(v.value)} where id = ${v.id}`.execute(trx);
    }
    for (const v of values.json) {
      await sql`update ${sql.table(v.table)} set ${sql.ref(v.column)} = ${JSON.stringify(resealJson(v.value, reseal))}::jsonb where id = ${v.id}`.execute(trx);
    }
    sessionsEnded = await endSessions(trx, now);
  });
  renameSync(nextFile, file);
  return { resealed, unreadable, sessionsEnded, resumed: false };
}

async function endSessions(db: Kysely<any>, now: Date): Promise<number> {
  const r = await db.updateTable('sessions').set({ revoked_at: now }).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows ?? 0);
}
