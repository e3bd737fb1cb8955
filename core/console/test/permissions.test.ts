// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { PermissionStore, firstLeafTarget, menuChain, menuTarget, reachableTree } from '../src/auth/permissions.js';
import type { MenuEntry, PermissionMenuList } from '../src/auth/types.js';

const entry = (id: number, path: string, over: Partial<MenuEntry> = {}): MenuEntry => ({ id, path, permissionName: path.slice(1), permissionType: 1, sort: id, ...over });

const list: PermissionMenuList = {
  menusPermissionMenus: [
    entry(2, '/system', { children: [entry(5, '/user'), entry(4, '/role')] }),
    entry(1, '/term'),
    entry(3, '/docs/', { permissionType: 4, permissionName: 'Docs' }),
  ],
  buttonsPermissionMenus: [{ id: 1, permissionKey: 'term:add', path: '/term', permissionName: 'add' }],
  systemConfigPermissionMenus: [
    { configKey: 'GUEST', configValue: '1' },
    { configKey: 'REGISTER', configValue: '0' },
  ],
};

describe('permission checks (spec 01 section 6)', () => {
  let store: PermissionStore;
  beforeEach(() => {
    sessionStorage.clear();
    store = new PermissionStore();
    store.set(list);
  });

  it('grants a button when a stored button entry has the key', () => {
    expect(store.hasButton('term:add')).toBe(true);
    expect(store.hasButton('term:delete')).toBe(false);
  });

  it('grants a route found on a menu entry or any child', () => {
    expect(store.hasRoute('/term')).toBe(true);
    expect(store.hasRoute('/role')).toBe(true);
    expect(store.hasRoute('/TM')).toBe(false);
  });

  it('grants a system-config permission only when its value is 1', () => {
    expect(store.hasSystemConfig('GUEST')).toBe(true);
    expect(store.hasSystemConfig('REGISTER')).toBe(false);
    expect(store.hasSystemConfig('MISSING')).toBe(false);
  });

  it('stores menus, buttons and system-config permissions in session storage', () => {
    expect(JSON.parse(sessionStorage.getItem('buttonmenu')!)).toHaveLength(1);
    expect(JSON.parse(sessionStorage.getItem('routersmenu')!)[0].path).toBe('/term');
    expect(JSON.parse(sessionStorage.getItem('systemConfigPermissionMenus')!)).toHaveLength(2);
  });

  it('forgets everything on clear', () => {
    store.clear();
    expect(store.rolesLoaded).toBe(false);
    expect(store.hasRoute('/term')).toBe(false);
    expect(store.hasButton('term:add')).toBe(false);
  });

  it('orders the tree by sort, children too', () => {
    expect(store.menuTree.map((e) => e.path)).toEqual(['/term', '/system', '/docs/']);
    expect(store.menuTree[1].children!.map((e) => e.path)).toEqual(['/role', '/user']);
  });

  it('opens a type-4 entry as a custom page without the trailing slash', () => {
    expect(menuTarget(list.menusPermissionMenus[2])).toBe('/custom?url=%2Fdocs&name=Docs');
  });

  it('keeps only entries a plugin provides, custom pages, and parents of such', () => {
    const tree = reachableTree(store.menuTree, (p) => p === '/role');
    expect(tree.map((e) => e.path)).toEqual(['/system', '/docs/']);
    expect(tree[0].children!.map((e) => e.path)).toEqual(['/role']);
    expect(firstLeafTarget(tree)).toBe('/role');
  });

  it('finds the chain of parents of a path', () => {
    expect(menuChain(store.menuTree, '/user').map((e) => e.path)).toEqual(['/system', '/user']);
    expect(menuChain(store.menuTree, '/nowhere')).toEqual([]);
  });
});
