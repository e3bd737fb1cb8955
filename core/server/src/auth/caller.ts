import type { Kysely } from 'kysely';
import { resolveCaller, type SessionCaller } from '../access/sessions.js';
import { UserType } from './provision.js';
import { isQuickAccessPath } from './quick-access.js';
import type { KernelTables } from '../db/schema.js';

/** A session caller, possibly limited to one page (quick access). */
export interface ScopedCaller extends SessionCaller {
  /** Set for quick-access sessions: only permission nodes of this menu path are held. */
  scopePath: string | null;
}

/**
 * The kernel's token resolver: a session as `access/sessions.ts` resolves it, narrowed for a
 * quick-access session to the permissions of its one page (the page's menu node and the buttons
 * and API keys under it), without super-administrator rights. Its `via` says which kind of
 * session it is: a member's, the guest's, or a quick-access page's (the latter two reach no
 * `'member'` route: own account settings, API keys, the user directory).
 */
export async function resolveScopedCaller(db: Kysely<KernelTables>, token: string, now: Date): Promise<ScopedCaller | null> {
  const caller = await resolveCaller(db, token, now);
  if (!caller) return null;
  const scopePath = caller.sessionScopePath ?? null;
  // Only an absent scope is a full session: a scope that is there but names no page holds nothing.
  if (scopePath !== null && !isQuickAccessPath(scopePath)) return null;
  // The shared guest account is no member: it reaches no account or user-directory route.
  if (scopePath === null) return { ...caller, via: caller.userType === UserType.GUEST ? 'guest' : 'session', scopePath: null };
  let query = db.selectFrom('permissions').select('key').where('path', '=', scopePath).where('active', '=', true);
  if (!caller.isSuperAdmin) query = query.where('key', 'in', caller.permissions.size ? [...caller.permissions] : ['']);
  const keys = (await query.execute()).map((r) => r.key as string);
  return { ...caller, isSuperAdmin: false, permissions: new Set(keys), via: 'quick-access', scopePath };
}
