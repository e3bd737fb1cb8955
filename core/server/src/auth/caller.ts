import type { Kysely } from 'kysely';
import { resolveCaller, type SessionCaller } from '../access/sessions.js';

/** A session caller, possibly limited to one page (quick access). */
export interface ScopedCaller extends SessionCaller {
  /** Set for quick-access sessions: only permission nodes of this menu path are held. */
  scopePath: string | null;
}

/**
 * The kernel's token resolver: a session as `access/sessions.ts` resolves it, narrowed for a
 * quick-access session to the permissions of its one page (the page's menu node and the buttons
 * and API keys under it), without super-administrator rights.
 */
export async function resolveScopedCaller(db: Kysely<any>, token: string, now: Date): Promise<ScopedCaller | null> {
  const caller = await resolveCaller(db, token, now);
  if (!caller) return null;
  const row = await db.selectFrom('sessions').select('scope_path').where('id', '=', caller.sessionId).executeTakeFirst();
  const scopePath: string | null = row?.scope_path ?? null;
  if (!scopePath) return { ...caller, scopePath: null };
  let query = db.selectFrom('permissions').select('key').where('path', '=', scopePath).where('active', '=', true);
  if (!caller.isSuperAdmin) query = query.where('key', 'in', caller.permissions.size ? [...caller.permissions] : ['']);
  const keys = (await query.execute()).map((r) => r.key as string);
  return { ...caller, isSuperAdmin: false, permissions: new Set(keys), scopePath };
}
