import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { ApiError, say, type Caller } from '@linguaport/sdk/server';
import { Codes, type Locale } from '@linguaport/sdk/shared';
import type { PermissionsTable, RolesTable } from '../db/schema.js';
import { PermissionType } from './permission-tree.js';
import type { KernelTables } from '../db/schema.js';

/** What a user holds in one department: the granted permission nodes, through their roles there. */

/** A permission node as grants read it: the kernel schema's row without the shortcut and display columns. */
export type PermissionRow = Omit<Selectable<PermissionsTable>, 'show_in_shortcut' | 'show_to_users' | 'shortcut_image' | 'active' | 'admin'>;

export type RoleRow = Pick<Selectable<RolesTable>, 'id' | 'name' | 'is_super'>;

export async function rolesIn(db: Kysely<KernelTables>, userId: number, departmentId: number | null): Promise<RoleRow[]> {
  if (departmentId === null) return [];
  return db
    .selectFrom('user_department_roles as udr')
    .innerJoin('roles as r', 'r.id', 'udr.role_id')
    .select(['r.id', 'r.name', 'r.is_super'])
    .where('udr.user_id', '=', userId)
    .where('udr.department_id', '=', departmentId)
    .orderBy('r.id')
    .execute();
}

const columns = ['p.id', 'p.parent_id', 'p.plugin_id', 'p.key', 'p.name_zh', 'p.name_en', 'p.type', 'p.path', 'p.icon', 'p.sort', 'p.config_key', 'p.config_value', 'p.show_in_menu'] as const;

export async function activePermissions(db: Kysely<KernelTables>): Promise<PermissionRow[]> {
  return db.selectFrom('permissions as p').select(columns).where('p.active', '=', true).orderBy('p.sort').orderBy('p.id').execute();
}

/** Active nodes granted to these roles (every active node for a super role). */
export async function grantedPermissions(db: Kysely<KernelTables>, roles: RoleRow[]): Promise<PermissionRow[]> {
  if (roles.some((r) => r.is_super)) return activePermissions(db);
  if (roles.length === 0) return [];
  return db
    .selectFrom('permissions as p')
    .select(columns)
    .distinct()
    .innerJoin('role_permissions as rp', 'rp.permission_id', 'p.id')
    .where('rp.role_id', 'in', roles.map((r) => r.id))
    .where('p.active', '=', true)
    .orderBy('p.sort')
    .orderBy('p.id')
    .execute();
}

/**
 * Only the keys of the active nodes granted to these roles (every active key for a super role): what
 * a request's caller needs, without the menu columns (resolved on every call, so kept light).
 */
export async function grantedKeys(db: Kysely<KernelTables>, roles: RoleRow[]): Promise<string[]> {
  if (roles.length === 0) return [];
  if (roles.some((r) => r.is_super)) return (await db.selectFrom('permissions').select('key').where('active', '=', true).execute()).map((r) => r.key as string);
  const rows = await db
    .selectFrom('permissions as p')
    .select('p.key')
    .distinct()
    .innerJoin('role_permissions as rp', 'rp.permission_id', 'p.id')
    .where('rp.role_id', 'in', roles.map((r) => r.id))
    .where('p.active', '=', true)
    .execute();
  return rows.map((r) => r.key as string);
}

export interface MenuNode {
  id: number;
  path: string | null;
  permissionName: string;
  permissionType: number;
  icon: string | null;
  sort: number;
  configKey: string | null;
  configValue: string | null;
  children: MenuNode[];
}

/** A node of the menu tree as the API answers it (children nested). */
export const menuNodeSchema: z.ZodType<MenuNode> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    path: z.string().nullable(),
    permissionName: z.string(),
    permissionType: z.number().int().describe('1 menu, 2 button, 3 link'),
    icon: z.string().nullable(),
    sort: z.number(),
    configKey: z.string().nullable(),
    configValue: z.string().nullable(),
    children: z.array(menuNodeSchema),
  }),
);

const nameIn = (row: PermissionRow, locale: Locale) => (locale === 'en-US' ? row.name_en : row.name_zh);
const isMenu = (row: PermissionRow) => (row.type === PermissionType.MENU || row.type === PermissionType.LINK) && row.show_in_menu;
const isGroup = (row: PermissionRow) => row.key.startsWith('group:');

/**
 * The menu tree of the granted menu nodes. A granted menu brings its ancestors along (a role may
 * grant a screen without its directory); directory groups without a permitted child are dropped.
 */
export function buildMenuTree(all: PermissionRow[], granted: PermissionRow[], locale: Locale): MenuNode[] {
  const byId = new Map(all.filter(isMenu).map((r) => [r.id, r]));
  const included = new Set<number>();
  for (const g of granted) {
    let row: PermissionRow | undefined = byId.get(g.id);
    while (row && !included.has(row.id)) {
      included.add(row.id);
      row = row.parent_id === null ? undefined : byId.get(row.parent_id);
    }
  }
  const nodes = new Map<number, MenuNode>();
  for (const id of included) {
    const r = byId.get(id)!;
    nodes.set(id, { id, path: r.path, permissionName: nameIn(r, locale), permissionType: r.type, icon: r.icon, sort: r.sort, configKey: r.config_key, configValue: r.config_value, children: [] });
  }
  const roots: MenuNode[] = [];
  for (const [id, node] of nodes) {
    const parent = byId.get(id)!.parent_id;
    const parentNode = parent === null ? undefined : nodes.get(parent);
    (parentNode ? parentNode.children : roots).push(node);
  }
  const prune = (list: MenuNode[]): MenuNode[] =>
    list
      .map((n) => ({ ...n, children: prune(n.children) }))
      .filter((n) => !(isGroup(byId.get(n.id)!) && n.children.length === 0))
      .sort((a, b) => a.sort - b.sort || a.id - b.id);
  return prune(roots);
}

/** Paths of the granted screens (menu nodes that are not directory groups). */
export function permittedMenuPaths(granted: PermissionRow[]): Set<string> {
  return new Set(granted.filter((r) => r.type === PermissionType.MENU && !isGroup(r) && r.path).map((r) => r.path!));
}

export function buttonEntries(granted: PermissionRow[], locale: Locale) {
  return granted
    .filter((r) => r.type === PermissionType.BUTTON)
    .map((r) => ({ id: r.id, permissionKey: r.key, path: r.path, permissionName: nameIn(r, locale) }));
}

export function systemConfigEntries(granted: PermissionRow[]) {
  return granted.filter((r) => r.config_key !== null).map((r) => ({ configKey: r.config_key!, configValue: r.config_value }));
}

/**
 * Who may give what. A caller grants only what it holds itself: a role whose every permission it
 * holds, in a department it belongs to; the super administrator role only a super administrator
 * grants. The same rule keeps a caller away from users it could not have made: a user holding a
 * permission the caller lacks (a super administrator above all) is changed only by one who holds it.
 * Every route that grants roles or changes users asks here (through the SDK's `ctx.auth`).
 */
export interface Grant {
  roleIds: number[];
  departmentIds: number[];
}

export type GrantRefusal = { reason: 'super' } | { reason: 'role'; roleId: number; permission: string } | { reason: 'department'; departmentId: number };

export async function grantRefusal(db: Kysely<KernelTables>, caller: Caller, grant: Grant): Promise<GrantRefusal | null> {
  if (caller.isSuperAdmin) return null;
  const roleIds = [...new Set(grant.roleIds)];
  if (roleIds.length) {
    const roles = await db.selectFrom('roles').select(['id', 'is_super']).where('id', 'in', roleIds).execute();
    if (roles.some((r) => r.is_super)) return { reason: 'super' };
    const keys = await db
      .selectFrom('role_permissions as rp')
      .innerJoin('permissions as p', 'p.id', 'rp.permission_id')
      .select(['rp.role_id', 'p.key'])
      .where('rp.role_id', 'in', roleIds)
      .where('p.active', '=', true)
      .orderBy('rp.role_id')
      .orderBy('p.key')
      .execute();
    const missing = keys.find((k) => !caller.permissions.has(k.key));
    if (missing) return { reason: 'role', roleId: missing.role_id, permission: missing.key };
  }
  const departmentIds = [...new Set(grant.departmentIds)];
  if (departmentIds.length) {
    const own = await db.selectFrom('user_department_roles').select('department_id').distinct().where('user_id', '=', caller.userId).execute();
    const mine = new Set(own.map((r) => Number(r.department_id)));
    const foreign = departmentIds.find((d) => !mine.has(d));
    if (foreign !== undefined) return { reason: 'department', departmentId: foreign };
  }
  return null;
}

/** The first of these users the caller may not change (one holding what the caller lacks), or null. */
export async function manageRefusal(db: Kysely<KernelTables>, caller: Caller, userIds: number[]): Promise<{ userId: number; refusal: GrantRefusal } | null> {
  if (caller.isSuperAdmin) return null;
  for (const userId of [...new Set(userIds)]) {
    if (userId === caller.userId) continue;
    const held = await db.selectFrom('user_department_roles').select('role_id').distinct().where('user_id', '=', userId).execute();
    const refusal = await grantRefusal(db, caller, { roleIds: held.map((r) => Number(r.role_id)), departmentIds: [] });
    if (refusal) return { userId, refusal };
  }
  return null;
}

type Headers = Record<string, string | string[] | undefined>;

function refusalMessage(refusal: GrantRefusal, headers: Headers): string {
  switch (refusal.reason) {
    case 'super':
      return say(headers, '只有超级管理员可以授予超级管理员角色', 'Only a super administrator can grant the super administrator role');
    case 'role':
      return say(headers, `不能授予角色 ${refusal.roleId}：您自己没有其中的权限 ${refusal.permission}`, `You cannot grant role ${refusal.roleId}: it holds the permission ${refusal.permission}, which you do not hold yourself`);
    case 'department':
      return say(headers, `不能授予部门 ${refusal.departmentId}：您自己不属于该部门`, `You cannot grant department ${refusal.departmentId}: you do not belong to it yourself`);
  }
}

/** Throws 403 when the caller may not grant these roles and departments. */
export async function assertMayGrant(db: Kysely<KernelTables>, caller: Caller | null, grant: Grant, headers: Headers): Promise<void> {
  if (!caller) throw new ApiError(Codes.FORBIDDEN, say(headers, '需要登录', 'Sign in first'));
  const refusal = await grantRefusal(db, caller, grant);
  if (refusal) throw new ApiError(Codes.FORBIDDEN, refusalMessage(refusal, headers));
}

/** Throws 403 when the caller may not change one of these users. */
export async function assertMayManage(db: Kysely<KernelTables>, caller: Caller | null, userIds: number[], headers: Headers): Promise<void> {
  if (!caller) throw new ApiError(Codes.FORBIDDEN, say(headers, '需要登录', 'Sign in first'));
  const found = await manageRefusal(db, caller, userIds);
  if (!found) return;
  if (found.refusal.reason === 'super') throw new ApiError(Codes.FORBIDDEN, say(headers, '只有超级管理员可以修改超级管理员', 'Only a super administrator can change a super administrator'));
  const permission = found.refusal.reason === 'role' ? found.refusal.permission : '';
  throw new ApiError(Codes.FORBIDDEN, say(headers, `不能修改用户 ${found.userId}：该用户拥有您没有的权限 ${permission}`, `You cannot change user ${found.userId}: the user holds the permission ${permission}, which you do not hold yourself`));
}
