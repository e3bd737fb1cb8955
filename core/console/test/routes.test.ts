import { describe, expect, it } from 'vitest';
import type { Registry } from '@linguaport/sdk/shared';
import { buildRouteSpecs } from '../src/router/routes.js';
import type { MenuEntry } from '../src/auth/types.js';

const r = (plugin: string, view: string, parent?: string) => ({ plugin, view, title: `${plugin}:title`, parent, fluid: false });
const registry: Registry = {
  sdkVersion: '1.0.0',
  plugins: {},
  routes: { '/term': r('term', 'Term'), '/termHistory': r('term', 'History', '/term'), '/catManagerInfo': r('cat', 'Info', '/catManager'), '/user': r('users', 'User') },
};
const m = (id: number, path: string, over: Partial<MenuEntry> = {}): MenuEntry => ({ id, path, permissionName: path, permissionType: 1, ...over });

describe('run-time routes (spec 01 2.5)', () => {
  const tree = [m(1, '/term'), m(2, '/system', { children: [m(3, '/user')] }), m(4, '/docs/', { permissionType: 4 })];
  const specs = buildRouteSpecs(tree, registry, (p) => ['/term', '/system', '/user'].includes(p));

  it('mounts each menu path on the view its plugin names', () => {
    expect(specs).toContainEqual({ path: '/term', kind: 'plugin', pluginId: 'term', view: 'Term' });
    expect(specs).toContainEqual({ path: '/user', kind: 'plugin', pluginId: 'users', view: 'User' });
  });

  it('redirects a parent with children to its first child', () => {
    expect(specs).toContainEqual({ path: '/system', kind: 'redirect', to: '/user' });
  });

  it('adds a detail route only when its parent menu is permitted', () => {
    expect(specs.map((s) => s.path)).toContain('/termHistory');
    expect(specs.map((s) => s.path)).not.toContain('/catManagerInfo');
  });

  it('adds no route for custom pages (they open /custom)', () => {
    expect(specs.map((s) => s.path)).not.toContain('/docs/');
  });
});
