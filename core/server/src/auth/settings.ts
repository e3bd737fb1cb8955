import type { Kysely } from 'kysely';
import type { KernelTables } from '../db/schema.js';

/** Reads of the system configuration keys the sign-in methods obey (A2's system config owns the table). */

export async function configValue(db: Kysely<KernelTables>, key: string): Promise<string | null> {
  const row = await db.selectFrom('system_config').select('config_value').where('config_key', '=', key).executeTakeFirst();
  return row?.config_value ?? null;
}

export async function flagOn(db: Kysely<KernelTables>, key: string): Promise<boolean> {
  return (await configValue(db, key)) === '1';
}

export const ConfigKeys = {
  LANDING_SLIDER: 'LANDING_SLIDER',
  GUEST_LOGIN: 'GUEST_LOGIN',
  ALLOW_REGISTER: 'ALLOW_REGISTER',
  REGISTER_AUTO_APPROVE: 'REGISTER_AUTO_APPROVE',
  PASSWORD_MAX_AGE_DAYS: 'PASSWORD_MAX_AGE_DAYS',
} as const;

export const DEFAULT_PASSWORD_MAX_AGE_DAYS = 90;
export const PASSWORD_WARN_DAYS = 7;

export async function passwordMaxAgeDays(db: Kysely<KernelTables>): Promise<number> {
  const raw = await configValue(db, ConfigKeys.PASSWORD_MAX_AGE_DAYS);
  const n = raw === null ? NaN : Number(raw);
  // 0 switches expiry off; anything unreadable falls back to the default.
  return Number.isInteger(n) && n >= 0 ? n : DEFAULT_PASSWORD_MAX_AGE_DAYS;
}
