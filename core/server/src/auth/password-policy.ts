import type { LocalizedText } from '@linguaport/sdk/server';
import type { Kysely } from 'kysely';
import { DEFAULT_PASSWORD_MAX_AGE_DAYS, passwordMaxAgeDays, PASSWORD_WARN_DAYS } from './settings.js';
import { UserType } from './provision.js';
import type { KernelTables } from '../db/schema.js';

export { DEFAULT_PASSWORD_MAX_AGE_DAYS, PASSWORD_WARN_DAYS };

const DAY_MS = 86_400_000;

export interface PasswordStatus {
  /** The password must be changed before the account may sign in. */
  need: boolean;
  /** Whole days until the password expires; null when it never does (expiry off, or not a local account). */
  daysLeft: number | null;
  /** daysLeft is within the warning period. */
  warn: boolean;
}

/**
 * A local password expires PASSWORD_MAX_AGE_DAYS after it was last set (the account's creation
 * when never changed); an administrator can also demand a change (need_password_change).
 */
export async function passwordStatus(db: Kysely<KernelTables>, userId: number, now: Date): Promise<PasswordStatus | null> {
  const u = await db.selectFrom('users').select(['user_type', 'need_password_change', 'password_changed_at', 'created_at']).where('id', '=', userId).executeTakeFirst();
  if (!u) return null;
  if (u.user_type !== UserType.LOCAL) return { need: false, daysLeft: null, warn: false };
  const maxAge = await passwordMaxAgeDays(db);
  let daysLeft: number | null = null;
  if (maxAge > 0) {
    const since = new Date(u.password_changed_at ?? u.created_at).getTime();
    daysLeft = Math.floor((since + maxAge * DAY_MS - now.getTime()) / DAY_MS);
  }
  const need = !!u.need_password_change || (daysLeft !== null && daysLeft < 0);
  return { need, daysLeft: daysLeft === null ? null : Math.max(0, daysLeft), warn: !need && daysLeft !== null && daysLeft <= PASSWORD_WARN_DAYS };
}

/** Password rules for new passwords: 8-64 characters with at least one letter and one digit. */
export function passwordProblem(password: string): LocalizedText | null {
  if (password.length < 8 || password.length > 64) return { 'zh-CN': '密码长度必须为 8 到 64 个字符', 'en-US': 'The password must be 8 to 64 characters long' };
  if (!/[A-Za-z]/.test(password) || !/\d/.test(password)) return { 'zh-CN': '密码必须至少包含一个字母和一个数字', 'en-US': 'The password must contain at least one letter and one digit' };
  return null;
}
