import type { Kysely, NotNull } from 'kysely';
import { TEAM_ROLES, type ManifestRoute, type PluginManifest } from '@linguaport/sdk/shared';
import { corePermissions } from './core-permissions.js';
import { groupKey, MENU_GROUPS } from './migrations.js';
import type { KernelTables } from '../db/schema.js';

/** Permission node types (spec 02 section 3). */
export const PermissionType = { MENU: 1, BUTTON: 2, API: 3, LINK: 4 } as const;

export const menuKey = (path: string) => `menu:${path}`;

export interface LocalizedName {
  zh: string;
  en: string;
}

/** Resolves a route's `title` (an i18n key of the plugin) to its zh-CN and en-US texts. */
export type TitleResolver = (manifest: PluginManifest, route: ManifestRoute) => LocalizedName;

const defaultTitle: TitleResolver = (m, r) => {
  const menus = m.routes.filter((x) => x.menu);
  // A one-screen plugin is named after itself; otherwise fall back to the route path.
  return menus.length === 1 ? { zh: m.name['zh-CN'], en: m.name['en-US'] } : { zh: r.path.slice(1), en: r.path.slice(1) };
};

interface NodeSpec {
  key: string;
  pluginId: string | null;
  type: number;
  path: string | null;
  name: LocalizedName;
  /** Key of the parent node; only applied when the node is first created (the tree is admin-editable). */
  parentKey: string | null;
  icon: string | null;
  sort: number;
  showInShortcut: boolean;
  /** Granted to the default role(s) (and the team roles, which build on it) when the node is first created. */
  defaultGrant?: boolean;
  /** Team roles granted the node when it, or the role, is first created. */
  roles?: readonly string[];
  /** An administration permission: the grant tree never ticks it with its menu. */
  admin?: boolean;
}

function planNodes(manifests: PluginManifest[], titleOf: TitleResolver, warn: (msg: string) => void): NodeSpec[] {
  const groups = new Set<string>(MENU_GROUPS.map((g) => g.key));
  const specs: NodeSpec[] = [];
  const menuOwner = new Map<string, string>();
  const keyOwner = new Map<string, string>(corePermissions.map((p) => [p.key, 'core']));

  for (const p of corePermissions) {
    specs.push({ key: p.key, pluginId: null, type: p.type === 'button' ? 2 : 3, path: null, name: { zh: p.name['zh-CN'], en: p.name['en-US'] }, parentKey: groupKey('system'), icon: null, sort: 100, showInShortcut: false, admin: p.admin });
  }
  for (const m of manifests) {
    for (const r of m.routes) {
      if (!r.menu) continue;
      const other = menuOwner.get(r.path);
      if (other) throw new Error(`menu path ${r.path} is declared by two plugins: ${other} and ${m.id}`);
      menuOwner.set(r.path, m.id);
      let parentKey: string | null = null;
      if (r.menu.group) {
        if (groups.has(r.menu.group)) parentKey = groupKey(r.menu.group);
        else warn(`plugin ${m.id} route ${r.path} names menu group '${r.menu.group}', which does not exist (${[...groups].join(', ')}); placed at top level`);
      }
      specs.push({ key: menuKey(r.path), pluginId: m.id, type: PermissionType.MENU, path: r.path, name: titleOf(m, r), parentKey, icon: r.menu.icon, sort: r.menu.order, showInShortcut: r.menu.showInShortcut, defaultGrant: r.menu.defaultGrant, roles: r.menu.roles });
    }
    const firstMenu = m.routes.find((r) => r.menu)?.path ?? null;
    for (const p of m.permissions) {
      const other = keyOwner.get(p.key);
      if (other) throw new Error(`permission key ${p.key} is declared by two plugins: ${other} and ${m.id}`);
      keyOwner.set(p.key, m.id);
      const menu = p.menu ?? firstMenu;
      specs.push({ key: p.key, pluginId: m.id, type: p.type === 'button' ? PermissionType.BUTTON : PermissionType.API, path: menu, name: { zh: p.name['zh-CN'], en: p.name['en-US'] }, parentKey: menu ? menuKey(menu) : null, icon: null, sort: 100, showInShortcut: false, defaultGrant: p.defaultGrant, roles: p.roles, admin: p.admin });
    }
  }
  return specs;
}

/**
 * Brings the permission tree in line with the enabled plugins: one menu node per menu route
 * (`menu:<path>`) and one node per declared permission. Nodes of plugins no longer enabled (or
 * routes no longer declared) are kept, marked inactive, so role grants survive a re-enable.
 */
export async function syncPermissionTree(
  db: Kysely<KernelTables>,
  manifests: PluginManifest[],
  options: { titleOf?: TitleResolver; warn?: (msg: string) => void } = {},
): Promise<void> {
  const specs = planNodes(manifests, options.titleOf ?? defaultTitle, options.warn ?? (() => {}));
  await db.transaction().execute(async (trx) => {
    const rows: { id: number; key: string }[] = await trx.selectFrom('permissions').select(['id', 'key']).execute();
    const defaultRoles: { id: number }[] = await trx.selectFrom('roles').select('id').where('is_default', '=', true).execute();
    const teamRoles: { id: number; builtin: string; grants_pending: boolean }[] = await trx
      .selectFrom('roles')
      .select(['id', 'builtin', 'grants_pending'])
      .where('builtin', 'in', [...TEAM_ROLES])
      .$narrowType<{ builtin: NotNull }>()
      .execute();
    // A team role holds what its manifests name it for, plus what every user gets by default.
    const teamGrant = (s: NodeSpec, role: string) => !!s.defaultGrant || !!s.roles?.includes(role);
    const idOf = new Map(rows.map((r) => [r.key, r.id]));
    // Menus first so buttons can find their parent menu.
    const ordered = [...specs].sort((a, b) => (a.type === PermissionType.MENU ? 0 : 1) - (b.type === PermissionType.MENU ? 0 : 1));
    for (const s of ordered) {
      const common = { plugin_id: s.pluginId, type: s.type, path: s.path, name_zh: s.name.zh, name_en: s.name.en, admin: !!s.admin, active: true };
      const existing = idOf.get(s.key);
      if (existing !== undefined) {
        await trx.updateTable('permissions').set(common).where('id', '=', existing).execute();
      } else {
        const parentId = s.parentKey ? (idOf.get(s.parentKey) ?? null) : null;
        const inserted = await trx
          .insertInto('permissions')
          .values({ ...common, key: s.key, parent_id: parentId, icon: s.icon, sort: s.sort, show_in_shortcut: s.showInShortcut })
          .returning('id')
          .executeTakeFirstOrThrow();
        idOf.set(s.key, inserted.id);
        const holders = [...(s.defaultGrant ? defaultRoles : []), ...teamRoles.filter((r) => !r.grants_pending && teamGrant(s, r.builtin))];
        if (holders.length) {
          await trx.insertInto('role_permissions').values(holders.map((r) => ({ role_id: r.id, permission_id: inserted.id }))).execute();
        }
      }
    }
    // Team roles just seeded (a new install, or migration 003 on an existing one) get their whole grant once.
    for (const role of teamRoles.filter((r) => r.grants_pending)) {
      const ids = specs.filter((s) => teamGrant(s, role.builtin)).map((s) => idOf.get(s.key)!);
      if (ids.length) {
        await trx.insertInto('role_permissions').values(ids.map((permission_id) => ({ role_id: role.id, permission_id }))).onConflict((oc) => oc.doNothing()).execute();
      }
      await trx.updateTable('roles').set({ grants_pending: false }).where('id', '=', role.id).execute();
    }
    const live = specs.filter((s) => s.pluginId !== null).map((s) => s.key);
    let stale = trx.updateTable('permissions').set({ active: false }).where('plugin_id', 'is not', null);
    if (live.length) stale = stale.where('key', 'not in', live);
    await stale.execute();
  });
}
