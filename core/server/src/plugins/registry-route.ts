import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError, type RouteDefinition } from '@linguaport/sdk/server';
import { Codes, type Registry } from '@linguaport/sdk/shared';
import { menuKey } from '../access/permission-tree.js';

/**
 * `GET /api/plugins/registry`: the build's registry cut down to what the caller may reach. A plugin
 * is reached when one of its menu routes is permitted; its detail routes come with it.
 */
export function registryRoute(distDir: string, enabledIds: () => ReadonlySet<string>): RouteDefinition {
  const file = join(distDir, 'registry.json');
  return {
    method: 'GET',
    url: '/plugins/registry',
    access: 'signed-in',
    async handler({ caller }) {
      let registry: Registry;
      try {
        registry = JSON.parse(await readFile(file, 'utf8'));
      } catch (err) {
        throw new ApiError(Codes.NOT_FOUND, `The plugin registry ${file} cannot be read (run npm run build): ${(err as Error).message}`);
      }
      const reached = Object.values(registry.plugins).filter(
        (p) => enabledIds().has(p.id) && (caller!.isSuperAdmin || p.routes.some((r) => r.menu && caller!.permissions.has(menuKey(r.path)))),
      );
      const ids = new Set(reached.map((p) => p.id));
      return {
        sdkVersion: registry.sdkVersion,
        plugins: Object.fromEntries(reached.map((p) => [p.id, p])),
        routes: Object.fromEntries(Object.entries(registry.routes).filter(([, r]) => ids.has(r.plugin))),
      } satisfies Registry;
    },
  };
}
