import type { Kysely } from 'kysely';
import type { AuthService, Caller } from '@linguaport/sdk/server';
import { assertMayGrant, assertMayManage } from './grants.js';
import { can, hashPassword, verifyPassword } from './passwords.js';
import { endSessions, type SessionCaller } from './sessions.js';
import { storeOperationTitle } from '../oplog/record.js';
import { KERNEL_TITLES } from '../oplog/titles.js';
import type { KernelTables } from '../db/schema.js';

const PASSWORD_CHANGED_FOR = 'user.passwordChangedFor';

/** The SDK's `ctx.auth`: permission checks, password hashing, the grant rule and session ends, over the kernel's tables. */

export interface AuthServiceDeps {
  db: Kysely<KernelTables>;
  now: () => Date;
  /** A session ended: its sockets are closed. */
  onSessionEnded(tokenHash: string): void;
}

/** The session a caller came with (none for an API key). */
const tokenHashOf = (caller: Caller): string | null => (caller as Partial<SessionCaller>).tokenHash ?? null;

/**
 * Sets a password and ends the user's other sessions: all of them when an administrator changed
 * it, all but the caller's own when the user did. A change of another user's password is
 * recorded in the operation log under its own title.
 */
export async function setPassword(deps: AuthServiceDeps, caller: Caller | null, userId: number, passwordHash: string, origin: { ip: string; method: string; url: string } | null): Promise<void> {
  const { db } = deps;
  const at = deps.now();
  const user = await db.updateTable('users').set({ password_hash: passwordHash, password_changed_at: at }).where('id', '=', userId).returning('username').executeTakeFirst();
  if (!user) return;
  const own = caller?.userId === userId;
  for (const hash of await endSessions(db, [userId], at, own && caller ? tokenHashOf(caller) : null)) deps.onSessionEnded(hash);
  if (!own && caller && origin) {
    await storeOperationTitle(db, PASSWORD_CHANGED_FOR, KERNEL_TITLES[PASSWORD_CHANGED_FOR]!);
    await db
      .insertInto('operation_log')
      .values({
        module: 'user',
        message: `Change another user's password: ${user.username} (${origin.method} ${origin.url})`,
        route: PASSWORD_CHANGED_FOR,
        params: JSON.stringify({ username: user.username }),
        operator_id: caller.userId,
        operator_name: caller.username,
        method: origin.method,
        url: origin.url,
        outcome: 'success',
        code: 200,
        ip: origin.ip,
        created_at: at,
      })
      .execute();
  }
}

export function createAuthService(deps: AuthServiceDeps): AuthService {
  const { db } = deps;
  return {
    can,
    hashPassword,
    verifyPassword,
    assertMayGrant: (caller, grant, headers) => assertMayGrant(db, caller, grant, headers),
    assertMayManage: (caller, userIds, headers) => assertMayManage(db, caller, userIds, headers),
    setPassword: async (caller, userId, plain, origin) => setPassword(deps, caller, userId, await hashPassword(plain), origin),
    async endSessions(userIds) {
      for (const hash of await endSessions(db, userIds, deps.now())) deps.onSessionEnded(hash);
    },
  };
}
