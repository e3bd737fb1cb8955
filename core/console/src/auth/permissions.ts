import { Subject, type Observable } from 'rxjs';
import type { PermissionService } from '@linguaport/sdk/console';
import { SessionKeys, sessionStore } from './storage.js';
import { PERMISSION_TYPE_CUSTOM, type ButtonPermission, type MenuEntry, type PermissionMenuList, type SystemConfigPermission } from './types.js';

/**
 * The permitted menu tree, button permissions and system-config permissions of the chosen
 * department (spec 01 section 6). Hiding in the UI is never the protection: the server checks too.
 */
export class PermissionStore implements PermissionService {
  private menus: MenuEntry[] = [];
  private buttons: ButtonPermission[] = [];
  private configs: SystemConfigPermission[] = [];
  private loaded = false;
  private readonly changed = new Subject<void>();

  /** True once the menu list of the chosen department has been fetched (“roles loaded”). */
  get rolesLoaded(): boolean {
    return this.loaded;
  }

  get menuTree(): readonly MenuEntry[] {
    return this.menus;
  }

  set(list: PermissionMenuList): void {
    this.menus = sortTree(list.menusPermissionMenus ?? []);
    this.buttons = list.buttonsPermissionMenus ?? [];
    this.configs = list.systemConfigPermissionMenus ?? [];
    this.loaded = true;
    const store = sessionStore();
    store?.setItem(SessionKeys.routersMenu, JSON.stringify(this.menus));
    store?.setItem(SessionKeys.buttonMenu, JSON.stringify(this.buttons));
    store?.setItem(SessionKeys.systemConfig, JSON.stringify(this.configs));
    this.changed.next();
  }

  clear(): void {
    this.menus = [];
    this.buttons = [];
    this.configs = [];
    this.loaded = false;
    this.changed.next();
  }

  hasButton(key: string): boolean {
    return this.buttons.some((b) => b.permissionKey === key);
  }

  hasRoute(path: string): boolean {
    return findMenu(this.menus, path) !== null;
  }

  hasSystemConfig(configKey: string): boolean {
    return this.configs.some((c) => c.configKey === configKey && String(c.configValue) === '1');
  }

  changes(): Observable<void> {
    return this.changed.asObservable();
  }
}

export function sortTree(entries: MenuEntry[]): MenuEntry[] {
  return [...entries]
    .sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0))
    .map((e) => (e.children?.length ? { ...e, children: sortTree(e.children) } : e));
}

export function findMenu(entries: readonly MenuEntry[], path: string): MenuEntry | null {
  for (const e of entries) {
    if (e.path === path) return e;
    const hit = e.children ? findMenu(e.children, path) : null;
    if (hit) return hit;
  }
  return null;
}

/** The chain of entries from the top of the tree down to `path` (for breadcrumbs and highlighting). */
export function menuChain(entries: readonly MenuEntry[], path: string): MenuEntry[] {
  for (const e of entries) {
    if (e.path === path) return [e];
    const below = e.children ? menuChain(e.children, path) : [];
    if (below.length) return [e, ...below];
  }
  return [];
}

/** Where a menu entry navigates: type-4 entries open the custom page (spec 01 2.2). */
export function menuTarget(entry: MenuEntry): string {
  if (entry.permissionType === PERMISSION_TYPE_CUSTOM) {
    const url = entry.path.length > 1 ? entry.path.replace(/\/+$/, '') : entry.path;
    return `/custom?url=${encodeURIComponent(url)}&name=${encodeURIComponent(entry.permissionName)}`;
  }
  return entry.path;
}

/**
 * Keep only entries that lead somewhere: a route a plugin provides, a custom page, or a parent
 * with such children. `routable(path)` says whether the registry has the path.
 */
export function reachableTree(entries: readonly MenuEntry[], routable: (path: string) => boolean): MenuEntry[] {
  const out: MenuEntry[] = [];
  for (const e of entries) {
    const children = e.children?.length ? reachableTree(e.children, routable) : [];
    if (children.length) out.push({ ...e, children });
    else if (e.permissionType === PERMISSION_TYPE_CUSTOM || (!e.children?.length && routable(e.path))) out.push({ ...e, children: [] });
  }
  return out;
}

/** The first leaf of a tree in menu order: where a signed-in user lands. */
export function firstLeafTarget(entries: readonly MenuEntry[]): string | null {
  for (const e of entries) {
    if (e.children?.length) {
      const hit = firstLeafTarget(e.children);
      if (hit) return hit;
    } else return menuTarget(e);
  }
  return null;
}
