import type { Kysely } from 'kysely';
import { saveDirectoryDomain } from './directory.js';
import type { Secret } from './secret.js';
import { saveSsoProvider } from './sso.js';

/**
 * Directory and single sign-on settings from the environment, applied at start (an upsert, so a
 * deployment's unit file or the test harness is the source of truth for these two entries):
 *   LDAP_SYMBOL, LDAP_NAME, LDAP_URL, LDAP_BASE_DN, LDAP_BIND_DN, LDAP_BIND_PASSWORD, LDAP_USER_FILTER
 *   SSO_ISSUER, SSO_CLIENT_ID, SSO_CLIENT_SECRET, SSO_REDIRECT_URI (optional), SSO_NAME
 */
export async function seedSignInFromEnv(db: Kysely<any>, secret: Secret, env: Record<string, string | undefined> = process.env): Promise<string[]> {
  const seeded: string[] = [];
  if (env.LDAP_URL && env.LDAP_SYMBOL && env.LDAP_BASE_DN) {
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
    seeded.push(`directory ${env.LDAP_SYMBOL}`);
  }
  if (env.SSO_ISSUER && env.SSO_CLIENT_ID) {
    await saveSsoProvider(db, secret, { name: env.SSO_NAME || 'SSO', issuer: env.SSO_ISSUER, clientId: env.SSO_CLIENT_ID, clientSecret: env.SSO_CLIENT_SECRET || null, redirectUri: env.SSO_REDIRECT_URI || null });
    seeded.push(`single sign-on ${env.SSO_ISSUER}`);
  }
  return seeded;
}
