import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Caller } from '@linguaport/sdk/server';
import { grantedKeys, rolesIn } from './grants.js';
import type { KernelTables } from '../db/schema.js';

/** Console sessions: the token is 32 random bytes (base64url); only its sha256 is stored. */

export const SESSION_DAYS = 7;

export type Clock = () => Date;

/** The caller plus which session it came from, so logout can close the session's sockets. */
export interface SessionCaller extends Caller {
  sessionId: number;
  tokenHash: string;
  /** The session's one page (quick access), read with the session: caller.ts narrows to it. */
  sessionScopePath?: string | null;
  /** The account's type (provision.ts `UserType`), read with the session. */
  userType?: number;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createSession(db: Kysely<KernelTables>, userId: number, departmentId: number | null, now: Date, scopePath: string | null = null): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('sessions')
    .values({ token_hash: hashToken(token), user_id: userId, department_id: departmentId, created_at: now, expires_at: new Date(now.getTime() + SESSION_DAYS * 86_400_000), ...(scopePath === null ? {} : { scope_path: scopePath }) })
    .execute();
  return token;
}

export async function revokeSession(db: Kysely<KernelTables>, tokenHash: string, now: Date): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).execute();
}

/**
 * Ends the users' open sessions but the one given (a password change keeps the session that made
 * it); returns the ended sessions' token hashes, so their sockets can be closed too.
 */
export async function endSessions(db: Kysely<KernelTables>, userIds: number[], now: Date, exceptTokenHash: string | null = null): Promise<string[]> {
  if (userIds.length === 0) return [];
  let query = db.updateTable('sessions').set({ revoked_at: now }).where('user_id', 'in', userIds).where('revoked_at', 'is', null);
  if (exceptTokenHash) query = query.where('token_hash', '<>', exceptTokenHash);
  const rows = await query.returning('token_hash').execute();
  return rows.map((r) => r.token_hash as string);
}

/**
 * The caller behind a token: a session that exists, is not revoked or expired, of an enabled
 * user; its permission keys are those of the user's roles in the session's department.
 */
export async function resolveCaller(db: Kysely<KernelTables>, token: string, now: Date): Promise<SessionCaller | null> {
  if (!token) return null;
  const tokenHash = hashToken(token);
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id as sessionId', 's.user_id as userId', 's.department_id as departmentId', 's.scope_path as scopePath', 'u.username', 'u.enabled', 'u.expires_at as userExpiresAt', 'u.user_type as userType'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .executeTakeFirst();
  if (!row || !row.enabled) return null;
  if (row.userExpiresAt && new Date(row.userExpiresAt) <= now) return null;
  const roles = await rolesIn(db, row.userId, row.departmentId);
  return {
    userId: row.userId,
    username: row.username,
    departmentId: row.departmentId,
    isSuperAdmin: roles.some((r) => r.is_super),
    permissions: new Set(await grantedKeys(db, roles)),
    via: 'session',
    sessionId: row.sessionId,
    tokenHash,
    sessionScopePath: row.scopePath ?? null,
    userType: row.userType,
  };
}
