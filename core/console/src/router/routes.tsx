import { lazy } from 'react';
import { Navigate, Route } from 'react-router-dom';
import type { Registry } from '@linguaport/sdk/shared';
import { PERMISSION_TYPE_CUSTOM, type MenuEntry } from '../auth/types.js';
import { firstLeafTarget } from '../auth/permissions.js';

// The plugin runtime (and Blueprint with it) is a split chunk, fetched after sign-in.
const PluginMount = lazy(() => import('../plugins/PluginMount.js').then((m) => ({ default: m.PluginMount })));

export interface RouteSpec {
  path: string;
  /** `plugin`: mount a plugin view; `redirect`: a parent menu goes to its first child. */
  kind: 'plugin' | 'redirect';
  pluginId?: string;
  view?: string;
  to?: string;
}

/**
 * The routes inside the shell, built from the permitted (reachable) menu tree and the registry:
 * menu paths mount their plugin's view, parents redirect to their first child, detail routes are
 * added only when their parent menu is permitted. Pure, so it is tested without a browser.
 */
export function buildRouteSpecs(tree: readonly MenuEntry[], registry: Registry, permitted: (path: string) => boolean): RouteSpec[] {
  const out: RouteSpec[] = [];
  const seen = new Set<string>();
  const visit = (entries: readonly MenuEntry[]) => {
    for (const e of entries) {
      if (e.permissionType === PERMISSION_TYPE_CUSTOM || seen.has(e.path)) continue;
      if (e.children?.length) {
        const to = firstLeafTarget(e.children);
        if (to && !registry.routes[e.path]) {
          seen.add(e.path);
          out.push({ path: e.path, kind: 'redirect', to });
        }
        visit(e.children);
      }
      const r = registry.routes[e.path];
      if (r && !seen.has(e.path)) {
        seen.add(e.path);
        out.push({ path: e.path, kind: 'plugin', pluginId: r.plugin, view: r.view });
      }
    }
  };
  visit(tree);
  for (const [path, r] of Object.entries(registry.routes)) {
    if (r.parent && !seen.has(path) && permitted(r.parent)) {
      seen.add(path);
      out.push({ path, kind: 'plugin', pluginId: r.plugin, view: r.view });
    }
  }
  return out;
}

export function renderRouteSpecs(specs: RouteSpec[]) {
  return specs.map((s) =>
    s.kind === 'redirect' ? (
      <Route key={s.path} path={s.path} element={<Navigate to={s.to!} replace />} />
    ) : (
      <Route key={s.path} path={s.path} element={<PluginMount key={s.path} pluginId={s.pluginId!} view={s.view!} path={s.path} />} />
    ),
  );
}
