import type { ManifestPermission } from '@linguaport/sdk/shared';

/**
 * The permission keys the kernel's own routes use, declared like a plugin manifest's so the same
 * registration check applies to core routes. They are nodes of the tree under the `system` menu
 * group, so roles can be granted them. Those that gate a control in an admin screen are buttons:
 * the console's button check reads `buttonsPermissionMenus`, which lists button nodes only.
 */
export const CORE_PLUGIN_ID = 'core';

// Every kernel button administers the platform: the grant tree ticks each on its own (admin).
const button = (key: string, zh: string, en: string): ManifestPermission => ({ key, type: 'button', name: { 'zh-CN': zh, 'en-US': en }, admin: true });

export const corePermissions: ManifestPermission[] = [
  { key: 'user:view', type: 'api', name: { 'zh-CN': '查看用户', 'en-US': 'View users' } },
  button('permission:view', '查看权限树', 'View the permission tree'),
  button('permission:add', '新增权限', 'Add permissions'),
  button('permission:edit', '编辑权限', 'Edit permissions'),
  button('permission:delete', '删除权限', 'Delete permissions'),
  button('role:grant', '角色授权', 'Grant permissions to roles'),
  button('systemConfig:view', '查看系统配置', 'View the system configuration'),
  button('systemConfig:edit', '修改系统配置', 'Change the system configuration'),
  // Sign-in methods (core/server/src/auth).
  button('apiKey:reset', '重置他人的API密钥', "Reset other users' API keys"),
  button('quickAccess:create', '创建快捷访问链接', 'Create quick-access links'),
  button('directory:manage', '管理目录域(LDAP)', 'Manage directory (LDAP) domains'),
  button('sso:manage', '管理单点登录', 'Manage single sign-on providers'),
];

export const corePermissionKeys: ReadonlySet<string> = new Set(corePermissions.map((p) => p.key));
