import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ApiError, Codes, idList, say, type Caller, type EventBus, type RouteDefinition } from '@linguaport/sdk/server';
import { idSchema, type Locale } from '@linguaport/sdk/shared';
import { localeOf } from '../http/locale.js';
import { CONFIG_PERMISSION_NODES } from '../system/migrations.js';
import { corePermissionKeys } from './core-permissions.js';
import { grantedPermissions, rolesIn, type PermissionRow } from './grants.js';
import { notifyPermissionsChanged } from './notify.js';
import { PermissionType } from './permission-tree.js';
import type { KernelTables } from '../db/schema.js';

/**
 * The permission tree's admin calls (spec 01 section 7.2) and role grants. Nodes that a plugin or
 * the kernel owns come from manifests and are re-synced at every start, so they cannot be deleted
 * and their key, type, path and names cannot change here; admins may move, re-order, re-icon and flag them.
 */

/** A permission node with the columns only its administration reads. */
interface NodeRow extends PermissionRow {
  show_in_shortcut: boolean;
  show_to_users: boolean;
  shortcut_image: string | null;
  active: boolean;
  admin: boolean;
}

export interface AdminMenuNode {
  id: number;
  parentId: number | null;
  key: string;
  permissionName: string;
  nameZh: string;
  nameEn: string;
  permissionType: number;
  path: string | null;
  icon: string | null;
  sort: number;
  configKey: string | null;
  configValue: string | null;
  showInMenu: boolean;
  showInShortcut: boolean;
  showToUsers: boolean;
  shortcutImage: string | null;
  pluginId: string | null;
  /** Owned by a plugin or the kernel: key, type and path are fixed and it cannot be deleted. */
  owned: boolean;
  /** An administration permission: ticking its menu in the grant tree does not grant it. */
  admin: boolean;
  children: AdminMenuNode[];
}

/** A permission node as the administration answers it, without its children (the quick menu's entries). */
const adminNodeFields = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  key: z.string(),
  permissionName: z.string().describe("The name in the request's language"),
  nameZh: z.string(),
  nameEn: z.string(),
  permissionType: z.number().int().describe('1 menu, 2 button, 3 link'),
  path: z.string().nullable(),
  icon: z.string().nullable(),
  sort: z.number(),
  configKey: z.string().nullable(),
  configValue: z.string().nullable(),
  showInMenu: z.boolean(),
  showInShortcut: z.boolean(),
  showToUsers: z.boolean(),
  shortcutImage: z.string().nullable(),
  pluginId: z.string().nullable(),
  owned: z.boolean().describe('Declared by a plugin or the kernel: key, type and path are fixed and it cannot be deleted'),
  admin: z.boolean().describe('An administration permission (every user\'s data, quotas, limits): the grant tree ticks it on its own, never with its menu'),
});
const adminNodeSchema: z.ZodType<AdminMenuNode> = z.lazy(() => adminNodeFields.extend({ children: z.array(adminNodeSchema) }));

const kernelKeys = new Set<string>([...corePermissionKeys, ...CONFIG_PERMISSION_NODES.map((n) => n.key)]);
const isOwned = (r: NodeRow) => r.plugin_id !== null || r.key.startsWith('group:') || kernelKeys.has(r.key);

function present(r: NodeRow, locale: Locale): AdminMenuNode {
  return {
    id: r.id,
    parentId: r.parent_id,
    key: r.key,
    permissionName: locale === 'en-US' ? r.name_en : r.name_zh,
    nameZh: r.name_zh,
    nameEn: r.name_en,
    permissionType: r.type,
    path: r.path,
    icon: r.icon,
    sort: r.sort,
    configKey: r.config_key,
    configValue: r.config_value,
    showInMenu: r.show_in_menu,
    showInShortcut: r.show_in_shortcut,
    showToUsers: r.show_to_users,
    shortcutImage: r.shortcut_image,
    pluginId: r.plugin_id,
    owned: isOwned(r),
    admin: Boolean(r.admin),
    children: [],
  };
}

/** Every active node as a tree; a node whose parent is inactive (its plugin disabled) is left out with it. */
export function buildAdminTree(rows: NodeRow[], locale: Locale): AdminMenuNode[] {
  const active = rows.filter((r) => r.active);
  const nodes = new Map(active.map((r) => [r.id, present(r, locale)]));
  const inactive = new Set(rows.filter((r) => !r.active).map((r) => r.id));
  const roots: AdminMenuNode[] = [];
  for (const n of nodes.values()) {
    if (n.parentId === null) roots.push(n);
    else if (nodes.has(n.parentId)) nodes.get(n.parentId)!.children.push(n);
    else if (!inactive.has(n.parentId)) roots.push(n);
  }
  const order = (list: AdminMenuNode[]) => {
    list.sort((a, b) => a.sort - b.sort || a.id - b.id);
    for (const n of list) order(n.children);
    return list;
  };
  return order(roots);
}

const id = idSchema;
const text = z.string().trim().min(1).max(200);
const optionalText = z.string().trim().max(500).nullish().transform((v) => (v ? v : null));

/** Spec 02 section 5 (Permission): name, type, identification and menu address required; sort a positive integer. */
const nodeFields = z.object({
  parentId: id.nullish(),
  permissionName: text.optional(),
  nameZh: text.optional(),
  nameEn: text.optional(),
  permissionType: z.coerce.number().int().refine((t) => [1, 2, 3, 4].includes(t), 'type must be 1 (menu), 2 (button), 3 (API) or 4 (external link)'),
  key: z.string().trim().min(1, 'identification (key) is required').max(100).regex(/^[A-Za-z][A-Za-z0-9:/_.-]*$/, 'identification (key): letters, digits and : / _ . -'),
  path: z.string().trim().min(1, 'menu address is required').max(500),
  icon: optionalText,
  sort: z.coerce.number({ error: 'sort must be a positive integer' }).int('sort must be a positive integer').positive('sort must be a positive integer').default(100),
  configKey: optionalText,
  configValue: optionalText,
  showInMenu: z.boolean().default(true),
  showInShortcut: z.boolean().default(false),
  showToUsers: z.boolean().default(true),
  shortcutImage: optionalText,
});

type NodeFields = z.infer<typeof nodeFields>;

function checkNode(n: NodeFields, ctx: z.RefinementCtx) {
  if (!n.permissionName && !(n.nameZh && n.nameEn)) ctx.addIssue({ code: 'custom', path: ['permissionName'], message: 'name is required (permissionName, or nameZh and nameEn)' });
  // An external link (type 4) may point outside the console; every other address is a console path.
  const external = n.permissionType === PermissionType.LINK && /^https?:\/\//.test(n.path);
  if (!external && !n.path.startsWith('/')) ctx.addIssue({ code: 'custom', path: ['path'], message: 'menu address must start with a slash' });
}

const addBody = nodeFields.superRefine(checkNode);

/** The columns an add or an edit writes from the form (the names are chosen by the caller: declared nodes keep theirs). */
const nodeColumns = (body: NodeFields) => ({
  parent_id: body.parentId ?? null,
  key: body.key,
  type: body.permissionType,
  path: body.path,
  icon: body.icon,
  sort: body.sort,
  config_key: body.configKey,
  config_value: body.configValue,
  show_in_menu: body.showInMenu,
  show_in_shortcut: body.showInShortcut,
  show_to_users: body.showToUsers,
  shortcut_image: body.shortcutImage,
});
const updateBody = nodeFields.extend({ id }).superRefine(checkNode);

const names = (n: NodeFields) => ({ name_zh: n.nameZh ?? n.permissionName!, name_en: n.nameEn ?? n.permissionName! });

export function menuRoutes(db: Kysely<KernelTables>, bus: EventBus): RouteDefinition[] {
  const allRows = (): Promise<NodeRow[]> => db.selectFrom('permissions').selectAll().$castTo<NodeRow>().orderBy('sort').orderBy('id').execute();
  const nodeById = async (nodeId: number): Promise<NodeRow> => {
    const row = await db.selectFrom('permissions').selectAll().$castTo<NodeRow>().where('id', '=', nodeId).executeTakeFirst();
    if (!row) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `找不到编号为 ${nodeId} 的权限节点`, 'en-US': `No permission node with id ${nodeId}` });
    return row;
  };
  const checkParent = async (parentId: number | null | undefined, selfId?: number) => {
    if (parentId == null) return;
    const rows = await allRows();
    const byId = new Map(rows.map((r) => [r.id, r]));
    if (!byId.has(parentId)) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `请求无效：parentId: 不存在编号为 ${parentId} 的权限节点`, 'en-US': `Invalid request: parentId: no permission node with id ${parentId}` });
    // Moving a node under itself or one of its descendants would cut the branch off the tree.
    for (let at: NodeRow | undefined = byId.get(parentId); at; at = at.parent_id === null ? undefined : byId.get(at.parent_id)) {
      if (at.id === selfId) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': '请求无效：parentId: 节点不能移动到自身或其后代之下', 'en-US': 'Invalid request: parentId: a node cannot be moved under itself or its own descendant' });
    }
  };
  /** An added or edited node needs a key no other node has and a parent that can hold it. */
  const checkKeyAndParent = async (body: NodeFields, selfId?: number) => {
    let q = db.selectFrom('permissions').select('id').where('key', '=', body.key);
    if (selfId !== undefined) q = q.where('id', '!=', selfId);
    if (await q.executeTakeFirst()) throw new ApiError(Codes.CONFLICT, { 'zh-CN': `键为 ${body.key} 的权限节点已存在`, 'en-US': `A permission node with key ${body.key} already exists` });
    await checkParent(body.parentId, selfId);
  };
  /**
   * A role's grant changes only in keys the caller holds itself: adding a key it lacks would hand it
   * out (to its own role too), removing one would take away what it cannot give back. Keys the caller
   * lacks that the role already holds stay as they are only if left in the request.
   */
  const assertOwnKeysOnly = async (caller: Caller | null, roleId: number, wanted: number[], headers: Record<string, string | string[] | undefined>) => {
    if (caller?.isSuperAdmin) return;
    const current = (await db.selectFrom('role_permissions').select('permission_id').where('role_id', '=', roleId).execute()).map((r) => Number(r.permission_id));
    const want = new Set(wanted);
    const had = new Set(current);
    const changed = [...wanted.filter((i) => !had.has(i)), ...current.filter((i) => !want.has(i))];
    if (!changed.length) return;
    const keys = await db.selectFrom('permissions').select(['id', 'key']).where('id', 'in', changed).orderBy('key').execute();
    const foreign = keys.find((k) => !caller?.permissions.has(String(k.key)));
    if (!foreign) return;
    const added = !had.has(Number(foreign.id));
    throw new ApiError(
      Codes.FORBIDDEN,
      added
        ? say(headers, `不能授予权限 ${foreign.key}：您自己没有该权限`, `You cannot grant the permission ${foreign.key}: you do not hold it yourself`)
        : say(headers, `不能收回权限 ${foreign.key}：您自己没有该权限`, `You cannot take away the permission ${foreign.key}: you do not hold it yourself`),
    );
  };

  return [
    {
      method: 'GET',
      url: '/permissionMenu/getAllPermissionMenu',
      access: { permission: 'permission:view' },
      summary: 'List the whole permission menu tree',
      response: { data: z.array(adminNodeSchema) },
      handler: async ({ headers }) => buildAdminTree(await allRows(), localeOf(headers)),
    },
    {
      method: 'GET',
      url: '/permissionMenu/getPermissionMenuById/:id',
      access: { permission: 'permission:view' },
      summary: 'Get a permission menu node',
      response: { data: adminNodeSchema, errors: [404] },
      schema: { params: z.object({ id }) },
      handler: async ({ params, headers }) => present(await nodeById(params.id), localeOf(headers)),
    },
    {
      method: 'GET',
      url: '/permissionMenu/getQuickMenu',
      access: 'signed-in',
      summary: "Get a user's quick menu",
      response: { data: z.array(adminNodeFields) },
      schema: { query: z.object({ userId: id.optional(), departmentId: id.optional() }) },
      async handler({ caller, query, headers }) {
        const userId = query.userId ?? caller!.userId;
        if (userId !== caller!.userId && !caller!.isSuperAdmin) throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': '无权限：只有超级管理员可以读取其他用户的快捷方式', 'en-US': "Permission denied: only a super administrator may read another user's shortcuts" });
        const departmentId = query.departmentId ?? (userId === caller!.userId ? caller!.departmentId : null);
        const granted = await grantedPermissions(db, await rolesIn(db, userId, departmentId));
        const ids = granted.map((g) => g.id);
        if (ids.length === 0) return [];
        const rows: NodeRow[] = await db
          .selectFrom('permissions')
          .selectAll()
          .$castTo<NodeRow>()
          .where('id', 'in', ids)
          .where('show_in_shortcut', '=', true)
          .where('type', 'in', [PermissionType.MENU, PermissionType.LINK])
          .orderBy('sort')
          .orderBy('id')
          .execute();
        const locale = localeOf(headers);
        return rows.filter((r) => r.path && !r.key.startsWith('group:')).map((r) => ({ ...present(r, locale), children: undefined }));
      },
    },
    {
      method: 'POST',
      url: '/permissionMenu/add',
      access: { permission: 'permission:add' },
      module: 'permission',
      summary: 'Add a permission node',
      response: { data: adminNodeSchema, errors: [409] },
      schema: { body: addBody },
      async handler({ body, headers }) {
        await checkKeyAndParent(body);
        const row = await db
          .insertInto('permissions')
          .values({ ...nodeColumns(body), plugin_id: null, ...names(body) })
          .returningAll()
          .$castTo<NodeRow>()
          .executeTakeFirstOrThrow();
        await notifyPermissionsChanged(bus, db, { all: true });
        return present(row, localeOf(headers));
      },
    },
    {
      method: 'PUT',
      url: '/permissionMenu/update',
      access: { permission: 'permission:edit' },
      module: 'permission',
      summary: 'Edit a permission node',
      response: { data: adminNodeSchema, errors: [404, 409] },
      schema: { body: updateBody },
      async handler({ body, headers }) {
        const current = await nodeById(body.id);
        if (isOwned(current)) {
          const fixed = (['key', 'permissionType', 'path'] as const).filter((f) => {
            const was = f === 'key' ? current.key : f === 'permissionType' ? current.type : current.path;
            return body[f] !== was;
          });
          if (fixed.length) {
            const owner = current.plugin_id ? `plugin ${current.plugin_id}` : 'the kernel';
            throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `请求无效：节点 ${current.key} 的 ${fixed.join('、')} 不能修改：它由 ${owner} 声明`, 'en-US': `Invalid request: ${fixed.join(', ')} of node ${current.key} cannot change: it is declared by ${owner}` });
          }
        }
        // Declared nodes take their names from the plugin's locale files (or the kernel) at every start:
        // a rename here would silently come undone, so it is refused.
        const declared = current.plugin_id !== null || kernelKeys.has(current.key);
        const renamed =
          (body.nameZh !== undefined && body.nameZh !== current.name_zh) ||
          (body.nameEn !== undefined && body.nameEn !== current.name_en) ||
          (body.nameZh === undefined && body.nameEn === undefined && body.permissionName !== current.name_zh && body.permissionName !== current.name_en);
        if (declared && renamed) {
          throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `请求无效：${current.key} 的名称来自${current.plugin_id ? `插件 ${current.plugin_id} 的语言文件` : '内核'}，不能在此修改`, 'en-US': `Invalid request: the name of ${current.key} comes from ${current.plugin_id ? `plugin ${current.plugin_id}'s locale files` : 'the kernel'} and cannot be changed here` });
        }
        const keepNames = declared ? { name_zh: current.name_zh, name_en: current.name_en } : names(body);
        await checkKeyAndParent(body, body.id);
        const row = await db
          .updateTable('permissions')
          .set({ ...nodeColumns(body), ...keepNames })
          .where('id', '=', body.id)
          .returningAll()
          .$castTo<NodeRow>()
          .executeTakeFirstOrThrow();
        await notifyPermissionsChanged(bus, db, { all: true });
        return present(row, localeOf(headers));
      },
    },
    {
      method: 'DELETE',
      url: '/permissionMenu/deleteBatch',
      access: { permission: 'permission:delete' },
      module: 'permission',
      summary: 'Delete permission nodes',
      response: { data: z.object({ deleted: z.number().int() }), errors: [404, 409] },
      schema: { query: z.object({ ids: idList.transform((ids) => [...new Set(ids)]) }) },
      async handler({ query }) {
        const ids: number[] = query.ids;
        const rows = await allRows();
        const byId = new Map(rows.map((r) => [r.id, r]));
        const missing = ids.filter((i) => !byId.has(i));
        if (missing.length) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `找不到编号为 ${missing.join(', ')} 的权限节点`, 'en-US': `No permission node with id ${missing.join(', ')}` });
        const owned = ids.map((i) => byId.get(i)!).filter(isOwned);
        if (owned.length) {
          const list = owned.map((r) => `${r.key} (${r.plugin_id ? `plugin ${r.plugin_id}` : 'the kernel'})`).join(', ');
          throw new ApiError(Codes.CONFLICT, { 'zh-CN': `不能删除 ${list}：由插件或内核声明的节点需通过停用或卸载其所属方移除`, 'en-US': `Cannot delete ${list}: nodes declared by a plugin or the kernel are removed by disabling or uninstalling their owner` });
        }
        const doomed = new Set(ids);
        const orphans = rows.filter((r) => r.parent_id !== null && doomed.has(r.parent_id) && !doomed.has(r.id));
        if (orphans.length) throw new ApiError(Codes.CONFLICT, { 'zh-CN': `不能删除：${orphans.map((r) => r.key).join(', ')} 仍位于要删除的节点之下；请先删除或移走它们`, 'en-US': `Cannot delete: ${orphans.map((r) => r.key).join(', ')} still sit under the nodes to delete; delete or move them first` });
        // Users who held a deleted node lose it: they are told along with everyone else (tree changed).
        const result = await db.deleteFrom('permissions').where('id', 'in', ids).executeTakeFirst();
        await notifyPermissionsChanged(bus, db, { all: true });
        return { deleted: Number(result.numDeletedRows) };
      },
    },
    {
      method: 'GET',
      url: '/role/permissions/:roleId',
      access: { permission: 'role:grant' },
      summary: 'Get the permissions granted to a role',
      response: { data: z.object({ roleId: z.number().int(), roleName: z.string(), isSuper: z.boolean(), permissionIds: z.array(z.number().int()) }), errors: [404] },
      schema: { params: z.object({ roleId: id }) },
      async handler({ params }) {
        const role = await db.selectFrom('roles').select(['id', 'name', 'is_super']).where('id', '=', params.roleId).executeTakeFirst();
        if (!role) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `找不到编号为 ${params.roleId} 的角色`, 'en-US': `No role with id ${params.roleId}` });
        const rows = await db.selectFrom('role_permissions').select('permission_id').where('role_id', '=', params.roleId).orderBy('permission_id').execute();
        return { roleId: role.id, roleName: role.name, isSuper: role.is_super, permissionIds: rows.map((r) => r.permission_id as number) };
      },
    },
    {
      method: 'PUT',
      url: '/role/permissions/:roleId',
      access: { permission: 'role:grant' },
      module: 'role',
      summary: 'Grant permissions to a role',
      response: { data: z.object({ roleId: z.number().int(), permissionIds: z.array(z.number().int()), notifiedUsers: z.number().int().nullable().describe('Users told to reload their menus; null: everyone') }), errors: [404] },
      schema: { params: z.object({ roleId: id }), body: z.object({ permissionIds: z.array(id).max(5000) }) },
      async handler({ params, body, caller, headers }) {
        const role = await db.selectFrom('roles').select(['id', 'is_super']).where('id', '=', params.roleId).executeTakeFirst();
        if (!role) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `找不到编号为 ${params.roleId} 的角色`, 'en-US': `No role with id ${params.roleId}` });
        if (role.is_super) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': '请求无效：超级管理员角色拥有全部权限，其授权不能编辑', 'en-US': 'Invalid request: the super administrator role holds every permission; its grants cannot be edited' });
        const wanted: number[] = [...new Set<number>(body.permissionIds)];
        if (wanted.length) {
          const found = new Set<number>((await db.selectFrom('permissions').select('id').where('id', 'in', wanted).execute()).map((r) => r.id as number));
          const unknown = wanted.filter((i) => !found.has(i));
          if (unknown.length) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `请求无效：permissionIds: 不存在编号为 ${unknown.join(', ')} 的权限节点`, 'en-US': `Invalid request: permissionIds: no permission node with id ${unknown.join(', ')}` });
        }
        await assertOwnKeysOnly(caller, params.roleId, wanted, headers);
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('role_permissions').where('role_id', '=', params.roleId).execute();
          if (wanted.length) await trx.insertInto('role_permissions').values(wanted.map((permission_id) => ({ role_id: params.roleId, permission_id }))).execute();
        });
        const notified = await notifyPermissionsChanged(bus, db, { roleIds: [params.roleId] });
        return { roleId: params.roleId, permissionIds: wanted.sort((a, b) => a - b), notifiedUsers: notified === 'all' ? null : notified.length };
      },
    },
  ];
}
