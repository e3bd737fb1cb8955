import type { Kysely } from 'kysely';
import type { Locale } from '@linguaport/sdk/shared';
import { PermissionType } from './permission-tree.js';

/** What a user holds in one department: the granted permission nodes, through their roles there. */

export interface PermissionRow {
  id: number;
  parent_id: number | null;
  plugin_id: string | null;
  key: string;
  name_zh: string;
  name_en: string;
  type: number;
  path: string | null;
  icon: string | null;
  sort: number;
  config_key: string | null;
  config_value: string | null;
  show_in_menu: boolean;
}

export interface RoleRow {
  id: number;
  name: string;
  is_super: boolean;
}

export async function rolesIn(db: Kysely<any>, userId: number, departmentId: number | null): Promise<RoleRow[]> {
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

export async function activePermissions(db: Kysely<any>): Promise<PermissionRow[]> {
  return db.selectFrom('permissions as p').select(columns).where('p.active', '=', true).orderBy('p.sort').orderBy('p.id').execute();
}

/** Active nodes granted to these roles (every active node for a super role). */
export async function grantedPermissions(db: Kysely<any>, roles: RoleRow[]): Promise<PermissionRow[]> {
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
