import type { Kysely } from 'kysely';
import { seededName, type Locale } from '@linguaport/sdk/shared';
import type { Secret } from './secret.js';
import { activePermissions, buildMenuTree, grantedPermissions, type MenuNode, type PermissionRow, type RoleRow } from '../access/grants.js';
import type { KernelTables } from '../db/schema.js';

/** The user-info answer of spec 01 section 3: the user and, per department, their roles. */

export interface DepartmentRef {
  id: number;
  departmentName: string;
}

export async function departmentsOf(db: Kysely<KernelTables>, userId: number): Promise<DepartmentRef[]> {
  return db
    .selectFrom('user_department_roles as udr')
    .innerJoin('departments as d', 'd.id', 'udr.department_id')
    .select(['d.id', 'd.name as departmentName'])
    .distinct()
    .where('udr.user_id', '=', userId)
    .orderBy('d.id')
    .execute();
}

function firstPath(nodes: MenuNode[]): string | null {
  for (const n of nodes) {
    if (n.children.length) {
      const inner = firstPath(n.children);
      if (inner) return inner;
    } else if (n.path && n.permissionType === 1) return n.path;
  }
  return null;
}

/** `secret` given: the API key is unsealed for the answer (only ever for the user asking about themselves). */
export async function userInfo(db: Kysely<KernelTables>, userId: number, currentDepartmentId: number | null = null, secret: Secret | null = null, locale: Locale = 'zh-CN') {
  const user = await db
    .selectFrom('users')
    .select(['id', 'username', 'real_name', 'user_type', 'api_key_sealed', 'locale', 'email', 'phone'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return null;
  const rows: { department_id: number; departmentName: string; role_id: number; roleName: string; is_super: boolean }[] = await db
    .selectFrom('user_department_roles as udr')
    .innerJoin('departments as d', 'd.id', 'udr.department_id')
    .innerJoin('roles as r', 'r.id', 'udr.role_id')
    .select(['udr.department_id', 'd.name as departmentName', 'udr.role_id', 'r.name as roleName', 'r.is_super'])
    .where('udr.user_id', '=', userId)
    .orderBy('udr.department_id')
    .orderBy('udr.role_id')
    .execute();
  let all: PermissionRow[] | null = null;
  const pathOfRole = new Map<number, string | null>();
  // A role's path is its first permitted screen: the console's logo link goes there.
  const rolePath = async (role: RoleRow) => {
    if (!pathOfRole.has(role.id)) {
      all ??= await activePermissions(db);
      pathOfRole.set(role.id, firstPath(buildMenuTree(all, await grantedPermissions(db, [role]), 'zh-CN')));
    }
    return pathOfRole.get(role.id)!;
  };
  const departmentRoleBos: { department: DepartmentRef; roles: { id: number; roleName: string; path: string | null }[] }[] = [];
  for (const r of rows) {
    let entry = departmentRoleBos.find((e) => e.department.id === r.department_id);
    if (!entry) departmentRoleBos.push((entry = { department: { id: r.department_id, departmentName: seededName(r.departmentName, locale) }, roles: [] }));
    entry.roles.push({ id: r.role_id, roleName: seededName(r.roleName, locale), path: await rolePath({ id: r.role_id, name: r.roleName, is_super: r.is_super }) });
  }
  return {
    user: {
      id: user.id,
      userId: user.id,
      username: user.username,
      // The guest account's seeded name follows the reader's language, as seeded departments and roles do.
      realName: seededName(user.real_name, locale),
      userType: user.user_type,
      apiKey: secret && user.api_key_sealed ? secret.decrypt(user.api_key_sealed) : null,
      // Additions to the spec's fields: what the settings dialog and the locale switch show.
      email: user.email,
      phone: user.phone,
      locale: user.locale,
    },
    departmentRoleBos,
    /** The department the session is bound to (an addition to the spec's fields). */
    currentDepartmentId,
  };
}
