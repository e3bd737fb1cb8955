import type { ManifestPermission } from '@linguaport/sdk/shared';

/**
 * The permission keys the kernel's own routes use, declared like a plugin manifest's so the same
 * registration check applies to core routes. They sit under the `system` menu group.
 */
export const CORE_PLUGIN_ID = 'core';

export const corePermissions: ManifestPermission[] = [
  { key: 'user:view', type: 'api', name: { 'zh-CN': '查看用户', 'en-US': 'View users' } },
];

export const corePermissionKeys: ReadonlySet<string> = new Set(corePermissions.map((p) => p.key));
