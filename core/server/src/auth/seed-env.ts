import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { saveDirectoryDomain } from './directory.js';
import type { Secret } from './secret.js';
import { saveSsoProvider } from './sso.js';
import type { KernelTables } from '../db/schema.js';

/**
 * Directory and single sign-on settings from the environment, applied at start:
 *   LDAP_SYMBOL, LDAP_NAME, LDAP_URL, LDAP_BASE_DN, LDAP_BIND_DN, LDAP_BIND_PASSWORD, LDAP_USER_FILTER
 *   SSO_ISSUER, SSO_CLIENT_ID, SSO_CLIENT_SECRET, SSO_REDIRECT_URI (optional), SSO_NAME
 * An entry is written when these values differ from the ones it was last written from (a hash kept
 * on the row): a changed environment wins, while the same environment at the next start leaves
 * the edits an administrator made in the screens alone. Returns what was written.
 */
const envHash = (values: unknown) => createHash('sha256').update(JSON.stringify(values)).digest('hex');

export async function seedSignInFromEnv(db: Kysely<KernelTables>, secret: Secret, env: Record<string, string | undefined> = process.env): Promise<string[]> {
  const seeded: string[] = [];
  if (env.LDAP_URL && env.LDAP_SYMBOL && env.LDAP_BASE_DN) {
    const hash = envHash(['ldap', env.LDAP_SYMBOL, env.LDAP_NAME, env.LDAP_URL, env.LDAP_BASE_DN, env.LDAP_BIND_DN, env.LDAP_BIND_PASSWORD, env.LDAP_USER_FILTER]);
    const row = await db.selectFrom('directory_domains').select('env_hash').where('symbol', '=', env.LDAP_SYMBOL).executeTakeFirst();
    if (row?.env_hash !== hash) {
      await saveDirectoryDomain(db, secret, {
        symbol: env.LDAP_SYMBOL,
        name: env.LDAP_NAME || env.LDAP_SYMBOL,
        url: env.LDAP_URL,
        bindDn: env.LDAP_BIND_DN || null,
        bindPassword: env.LDAP_BIND_PASSWORD || null,
        baseDn: env.LDAP_BASE_DN,
        userFilter: env.LDAP_USER_FILTER || '(uid={username})',
        enabled: true,
      });
      await db.updateTable('directory_domains').set({ env_hash: hash }).where('symbol', '=', env.LDAP_SYMBOL).execute();
      seeded.push(`directory ${env.LDAP_SYMBOL}`);
    }
  }
  if (env.SSO_ISSUER && env.SSO_CLIENT_ID) {
    const hash = envHash(['sso', env.SSO_NAME, env.SSO_ISSUER, env.SSO_CLIENT_ID, env.SSO_CLIENT_SECRET, env.SSO_REDIRECT_URI]);
    const row = await db.selectFrom('sso_providers').select('env_hash').where('issuer', '=', env.SSO_ISSUER).where('client_id', '=', env.SSO_CLIENT_ID).executeTakeFirst();
    if (row?.env_hash !== hash) {
      const id = await saveSsoProvider(db, secret, { name: env.SSO_NAME || 'SSO', issuer: env.SSO_ISSUER, clientId: env.SSO_CLIENT_ID, clientSecret: env.SSO_CLIENT_SECRET || null, redirectUri: env.SSO_REDIRECT_URI || null });
      await db.updateTable('sso_providers').set({ env_hash: hash }).where('id', '=', id).execute();
      seeded.push(`single sign-on ${env.SSO_ISSUER}`);
    }
  }
  return seeded;
}
