import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Caller } from '@linguaport/sdk/server';
import { grantedKeys, rolesIn } from '../access/grants.js';
import { DEFAULT_API_KEY_SCOPES, isApiKeyScope, type ApiKeyScope } from '@linguaport/sdk/shared';
import { UserType } from './provision.js';
import { departmentsOf } from './user-info.js';
import type { Secret } from './secret.js';
import type { KernelTables } from '../db/schema.js';

/**
 * API keys: one per user, made on request and changeable once per 24 hours. The key authenticates
 * calls through `X-Api-Key` (and `api_key` in the LibreTranslate-compatible API). Stored as a
 * sha256 for lookup plus an AES-GCM-sealed copy, because the owner's settings dialog shows it.
 */

export const API_KEY_RESET_INTERVAL_MS = 24 * 3_600_000;

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

export function newApiKey(): string {
  return `lp_${randomBytes(24).toString('base64url')}`;
}

/** Stored as comma-separated names; unknown names (a scope since dropped) are ignored. */
export const parseScopes = (stored: string | null | undefined): ApiKeyScope[] => (stored ?? '').split(',').map((s) => s.trim()).filter(isApiKeyScope);

/**
 * The caller an API key stands for: its user, in the user's first department, with the roles
 * held there, reaching the routes of the key's scopes only. Null for an unknown key, a disabled
 * or expired user, or the guest account (guests have no API key).
 */
export async function resolveApiKeyCaller(db: Kysely<KernelTables>, key: string, now: Date = new Date()): Promise<Caller | null> {
  if (!key) return null;
  const user = await db
    .selectFrom('users')
    .select(['id', 'username', 'enabled', 'status', 'expires_at', 'user_type', 'api_key_scopes'])
    .where('api_key_hash', '=', hashApiKey(key))
    .executeTakeFirst();
  if (!user || !user.enabled || user.status !== 'checked' || user.user_type === UserType.GUEST) return null;
  if (user.expires_at && new Date(user.expires_at) <= now) return null;
  await db
    .updateTable('users')
    .set({ api_key_last_used_at: now })
    .where('id', '=', user.id)
    .where((eb) => eb.or([eb('api_key_last_used_at', 'is', null), eb('api_key_last_used_at', '<', new Date(now.getTime() - 60_000))]))
    .execute();
  const [first] = await departmentsOf(db, user.id);
  const roles = await rolesIn(db, user.id, first?.id ?? null);
  return {
    userId: user.id,
    username: user.username,
    departmentId: first?.id ?? null,
    isSuperAdmin: roles.some((r) => r.is_super),
    permissions: new Set(await grantedKeys(db, roles)),
    via: 'api-key',
    apiKeyScopes: new Set(parseScopes(user.api_key_scopes)),
  };
}

/**
 * One indexed look-up: is this key still the user's, and may the user still use it (enabled,
 * checked, not expired)? Lets a cache keep the resolved caller while a reset, a disable, a
 * deletion or an expiry takes effect on the very next request.
 */
export async function apiKeyStillValid(db: Kysely<KernelTables>, key: string, userId: number, now: Date = new Date()): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('api_key_hash', '=', hashApiKey(key))
    .where('id', '=', userId)
    .where('enabled', '=', true)
    .where('status', '=', 'checked')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirst();
  return row !== undefined;
}

export type ResetCheck = { allowed: true } | { allowed: false; nextAllowedAt: Date };

export async function checkApiKeyReset(db: Kysely<KernelTables>, userId: number, now: Date): Promise<ResetCheck | null> {
  const row = await db.selectFrom('users').select('api_key_updated_at').where('id', '=', userId).executeTakeFirst();
  if (!row) return null;
  if (!row.api_key_updated_at) return { allowed: true };
  const next = new Date(new Date(row.api_key_updated_at).getTime() + API_KEY_RESET_INTERVAL_MS);
  return next <= now ? { allowed: true } : { allowed: false, nextAllowedAt: next };
}

/**
 * Replaces the user's key when the last change is 24 hours old (or there is none). The condition
 * sits in the UPDATE itself, so two resets racing cannot both succeed.
 */
export async function resetApiKey(db: Kysely<KernelTables>, secret: Secret, userId: number, now: Date): Promise<string | null> {
  const key = newApiKey();
  const cutoff = new Date(now.getTime() - API_KEY_RESET_INTERVAL_MS);
  const row = await db
    .updateTable('users')
    // A new key starts with the default scopes: whatever the old one was granted is granted again explicitly.
    .set({ api_key_hash: hashApiKey(key), api_key_sealed: secret.encrypt(key), api_key_updated_at: now, api_key_scopes: DEFAULT_API_KEY_SCOPES.join(',') })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('api_key_updated_at', 'is', null), eb('api_key_updated_at', '<=', cutoff)]))
    .returning('id')
    .executeTakeFirst();
  return row ? key : null;
}

export async function readApiKey(db: Kysely<KernelTables>, secret: Secret, userId: number): Promise<string | null> {
  const row = await db.selectFrom('users').select('api_key_sealed').where('id', '=', userId).executeTakeFirst();
  return row?.api_key_sealed ? secret.decrypt(row.api_key_sealed) : null;
}

export async function readApiKeyScopes(db: Kysely<KernelTables>, userId: number): Promise<ApiKeyScope[]> {
  const row = await db.selectFrom('users').select('api_key_scopes').where('id', '=', userId).executeTakeFirst();
  return parseScopes(row?.api_key_scopes);
}
