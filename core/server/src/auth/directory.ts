import type { Kysely } from 'kysely';
import { Client } from 'ldapts';
import type { Secret } from './secret.js';
import type { KernelTables } from '../db/schema.js';

/**
 * Directory (LDAP) sign-in: bind with the domain's service account (or anonymously), find the
 * user's entry with the domain's filter, then bind as that entry with the given password.
 */

export interface DirectoryDomain {
  id: number;
  symbol: string;
  name: string;
  url: string;
  bindDn: string | null;
  /** Plain text; sealed with the server secret at rest. */
  bindPassword: string | null;
  baseDn: string;
  userFilter: string;
  enabled: boolean;
}

const TIMEOUT_MS = 5000;

/** RFC 4515 escaping, so a username cannot widen the search filter. */
export function escapeFilterValue(value: string): string {
  return value.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

export async function listSymbols(db: Kysely<KernelTables>): Promise<{ symbol: string; name: string }[]> {
  return db.selectFrom('directory_domains').select(['symbol', 'name']).where('enabled', '=', true).orderBy('id').execute();
}

export async function saveDirectoryDomain(db: Kysely<KernelTables>, secret: Secret, d: Omit<DirectoryDomain, 'id'>): Promise<number> {
  const values = {
    symbol: d.symbol,
    name: d.name,
    url: d.url,
    bind_dn: d.bindDn,
    bind_password: d.bindPassword ? secret.encrypt(d.bindPassword) : null,
    base_dn: d.baseDn,
    user_filter: d.userFilter,
    enabled: d.enabled,
  };
  const row = await db
    .insertInto('directory_domains')
    .values(values)
    .onConflict((oc) => oc.column('symbol').doUpdateSet(values))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findDomain(db: Kysely<KernelTables>, secret: Secret, symbol: string): Promise<DirectoryDomain | null> {
  const r = await db.selectFrom('directory_domains').selectAll().where('symbol', '=', symbol).where('enabled', '=', true).executeTakeFirst();
  if (!r) return null;
  return { id: r.id, symbol: r.symbol, name: r.name, url: r.url, bindDn: r.bind_dn, bindPassword: r.bind_password ? secret.decrypt(r.bind_password) : null, baseDn: r.base_dn, userFilter: r.user_filter, enabled: r.enabled };
}

export interface DirectoryIdentity {
  dn: string;
  realName: string | null;
  email: string | null;
}

export type DirectoryOutcome = { ok: true; identity: DirectoryIdentity } | { ok: false; reason: 'no-such-user' | 'bad-password' | 'unreachable'; detail: string };

const first = (v: unknown): string | null => {
  const x = Array.isArray(v) ? v[0] : v;
  return x === undefined || x === null ? null : Buffer.isBuffer(x) ? x.toString('utf8') : String(x);
};

export async function authenticate(domain: DirectoryDomain, username: string, password: string): Promise<DirectoryOutcome> {
  // An empty password would be an "unauthenticated bind", which many servers accept.
  if (!password) return { ok: false, reason: 'bad-password', detail: 'empty password' };
  const client = new Client({ url: domain.url, timeout: TIMEOUT_MS, connectTimeout: TIMEOUT_MS });
  try {
    if (domain.bindDn) await client.bind(domain.bindDn, domain.bindPassword ?? '');
    const filter = domain.userFilter.replaceAll('{username}', escapeFilterValue(username));
    const { searchEntries } = await client.search(domain.baseDn, { scope: 'sub', filter, attributes: ['cn', 'displayName', 'mail'], sizeLimit: 2 });
    if (searchEntries.length !== 1) return { ok: false, reason: 'no-such-user', detail: `${searchEntries.length} entries match ${filter}` };
    const entry = searchEntries[0];
    try {
      await client.bind(entry.dn, password);
    } catch (err) {
      return { ok: false, reason: 'bad-password', detail: (err as Error).message };
    }
    return { ok: true, identity: { dn: entry.dn, realName: first(entry.displayName) ?? first(entry.cn), email: first(entry.mail) } };
  } catch (err) {
    return { ok: false, reason: 'unreachable', detail: (err as Error).message };
  } finally {
    await client.unbind().catch(() => {});
  }
}
