import type { Kysely } from 'kysely';
import type { DomainEvent, EventBus } from '@linguaport/sdk/server';
import type { Observable, Subscription } from 'rxjs';
import type { KernelTables } from '../db/schema.js';

/**
 * `permissions.changed`: tells the affected users' consoles to reload their menus and buttons
 * (spec 01 section 2.6 re-run without a page reload). Plugins cannot import the kernel, so they
 * publish `access.changed` with the same payload and the kernel's bridge turns it into this.
 */

export const PERMISSIONS_CHANGED = 'permissions.changed';
export const ACCESS_CHANGED = 'access.changed';

export interface PermissionChange {
  /** Users holding any of these roles (in any department) are affected. */
  roleIds?: number[];
  userIds?: number[];
  /** The tree itself changed (a node added, moved or deleted): everyone reloads. */
  all?: boolean;
}

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x) && x > 0) : []);

/** Publishes `permissions.changed` to the users the change affects; nothing when nobody is. */
export async function notifyPermissionsChanged(bus: EventBus, db: Kysely<KernelTables>, change: PermissionChange): Promise<number[] | 'all'> {
  if (change.all) {
    await bus.publish({ type: PERMISSIONS_CHANGED, payload: { all: true } });
    return 'all';
  }
  const users = new Set(ids(change.userIds));
  const roleIds = ids(change.roleIds);
  if (roleIds.length) {
    const rows = await db.selectFrom('user_department_roles').select('user_id').distinct().where('role_id', 'in', roleIds).execute();
    for (const r of rows) users.add(r.user_id);
  }
  if (users.size === 0) return [];
  const userIds = [...users].sort((a, b) => a - b);
  await bus.publish({ type: PERMISSIONS_CHANGED, payload: { userIds }, audience: { userIds } });
  return userIds;
}

/**
 * The bridge: `access.changed` {roleIds?, userIds?, all?} from a plugin becomes `permissions.changed`.
 * Only the instance where it was published bridges it (the result reaches every instance anyway), so
 * consoles reload once however many server instances share the database.
 */
export function bridgeAccessChanged(bus: EventBus & { localEvents(type?: string): Observable<DomainEvent> }, db: Kysely<KernelTables>, onError: (err: Error) => void): Subscription {
  return bus.localEvents(ACCESS_CHANGED).subscribe((event) => {
    const p = (event.payload ?? {}) as Record<string, unknown>;
    notifyPermissionsChanged(bus, db, { roleIds: ids(p.roleIds), userIds: ids(p.userIds), all: p.all === true }).catch(onError);
  });
}
