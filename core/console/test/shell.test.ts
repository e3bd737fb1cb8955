import { describe, expect, it } from 'vitest';
import { addView, afterClose, closeAll, closeOthers, closeView, type VisitedView } from '../src/shell/tags.js';
import { breadcrumbs } from '../src/shell/breadcrumb.js';
import { readCrumb } from '../src/shell/page.js';
import { DEFAULT_SETTINGS, loadSettings, saveSettings, SETTINGS_KEY } from '../src/shell/settings.js';
import { shouldShowEngineNotice, snoozed } from '../src/shell/engine-notice.js';
import { clearLoginExpired, LOGIN_EXPIRED_KEY, loginExpiredRecently, markLoginExpired } from '../src/auth/expired.js';
import { toSsoPage, toSymbols } from '../src/pages/login/public-api.js';
import type { MenuEntry } from '../src/auth/types.js';

const view = (path: string, affix = false, title = path): VisitedView => ({ path, title, fullPath: path, query: {}, meta: { affix } });

class MemoryStorage {
  map = new Map<string, string>();
  getItem(k: string) { return this.map.get(k) ?? null; }
  setItem(k: string, v: string) { this.map.set(k, v); }
  removeItem(k: string) { this.map.delete(k); }
}

describe('tags view', () => {
  const views = [view('/home', true), view('/term'), view('/TM'), view('/user')];

  it('adds a page once and updates its title in place', () => {
    const again = addView(views, view('/term', false, 'Terms'));
    expect(again.map((v) => v.path)).toEqual(['/home', '/term', '/TM', '/user']);
    expect(again[1]!.title).toBe('Terms');
    expect(addView(views, view('/corpus')).at(-1)!.path).toBe('/corpus');
  });

  it('never closes an affix tab', () => {
    expect(closeView(views, '/home').map((v) => v.path)).toContain('/home');
    expect(closeAll(views).map((v) => v.path)).toEqual(['/home']);
  });

  it('close others keeps the chosen tab and the affix tabs', () => {
    expect(closeOthers(views, '/TM').map((v) => v.path)).toEqual(['/home', '/TM']);
  });

  it('after closing the active tab goes to the last one left, or home', () => {
    expect(afterClose(closeView(views, '/user'), '/home')).toBe('/TM');
    expect(afterClose([], '/home')).toBe('/home');
  });
});

describe('breadcrumbs', () => {
  const tree: MenuEntry[] = [
    { id: 1, path: '/resources', permissionName: 'Resources', permissionType: 1, children: [
      { id: 2, path: '/dictionary', permissionName: 'Dictionary', permissionType: 1 },
      { id: 3, path: '/TM', permissionName: 'TM', permissionType: 1 },
    ] },
  ];

  it('shows the menu chain of a menu page', () => {
    expect(breadcrumbs({ tree, path: '/TM', screen: 'TM' }).map((c) => c.text)).toEqual(['Resources', 'TM']);
  });

  it('puts a detail page under its parent, with a link to the parent', () => {
    const crumbs = breadcrumbs({ tree, path: '/TMHistory', parent: '/TM', screen: 'TM history' });
    expect(crumbs).toEqual([{ text: 'Resources' }, { text: 'TM', href: '/TM' }, { text: 'TM history' }]);
  });

  it('adds the selected dictionary type on dictionarySetting', () => {
    const crumbs = breadcrumbs({ tree, path: '/dictionarySetting', parent: '/dictionary', screen: 'Settings', crumb: 'Medical' });
    expect(crumbs.map((c) => c.text)).toEqual(['Resources', 'Dictionary', 'Medical', 'Settings']);
  });

  it('reads the dictionary type from session storage as JSON or text', () => {
    expect(readCrumb(JSON.stringify({ dictTypeName: 'Legal' }), 'dictTypeName')).toBe('Legal');
    expect(readCrumb('Plain', 'dictTypeName')).toBe('Plain');
    expect(readCrumb(null, 'dictTypeName')).toBeNull();
  });
});

describe('settings panel memory', () => {
  it('round-trips the choices and falls back to the defaults on bad data', () => {
    const store = new MemoryStorage();
    expect(loadSettings(store)).toEqual(DEFAULT_SETTINGS);
    saveSettings({ themeColor: '#11a983', tagsView: false, fixedHeader: true, sidebarLogo: true }, store);
    expect(loadSettings(store)).toEqual({ themeColor: '#11a983', tagsView: false, fixedHeader: true, sidebarLogo: true });
    store.setItem(SETTINGS_KEY, '{"themeColor":"red","tagsView":"yes"}');
    expect(loadSettings(store)).toEqual(DEFAULT_SETTINGS);
    store.setItem(SETTINGS_KEY, 'not json');
    expect(loadSettings(store)).toEqual(DEFAULT_SETTINGS);
  });
});

describe('engine-expiry notice', () => {
  const now = new Date('2026-11-21T10:00:00Z');
  const engines = [{ imagesAlias: 'eng-spa', daysBetween: 2 }];

  it('shows when the flag is on and engines expire, unless snoozed within 3 days', () => {
    expect(shouldShowEngineNotice(true, engines, null, now)).toBe(true);
    expect(shouldShowEngineNotice(false, engines, null, now)).toBe(false);
    expect(shouldShowEngineNotice(true, [], null, now)).toBe(false);
    expect(shouldShowEngineNotice(true, engines, '2026-11-19T10:00:00Z', now)).toBe(false);
    expect(shouldShowEngineNotice(true, engines, '2026-11-18T09:59:00Z', now)).toBe(true);
  });

  it('ignores a snooze date in the future or unreadable', () => {
    expect(snoozed('2026-12-01T00:00:00Z', now)).toBe(false);
    expect(snoozed('garbage', now)).toBe(false);
  });
});

describe('login-expired mark', () => {
  it('holds for a minute across reloads and is removed by signing in or out', () => {
    const store = new MemoryStorage();
    const now = Date.now();
    markLoginExpired(store);
    expect(loginExpiredRecently(store, now)).toBe(true);
    expect(loginExpiredRecently(store, now)).toBe(true);
    expect(loginExpiredRecently(store, now + 61_000)).toBe(false);
    clearLoginExpired(store);
    expect(loginExpiredRecently(store, now)).toBe(false);
    expect(store.getItem(LOGIN_EXPIRED_KEY)).toBeNull();
  });
});

describe('sign-in page answers', () => {
  it('reads directory symbols as strings or objects and drops the unreadable', () => {
    expect(toSymbols(['corp'])).toEqual([{ symbol: 'corp', name: 'corp' }]);
    expect(toSymbols([{ symbol: 'ad', name: 'Active Directory' }, { name: 'no symbol' }, 7])).toEqual([{ symbol: 'ad', name: 'Active Directory' }]);
    expect(toSymbols(null)).toEqual([]);
  });

  it('reads the single sign-on page with its ticket', () => {
    expect(toSsoPage({ url: 'http://idp/auth', ticket: 't1' })).toEqual({ url: 'http://idp/auth', state: 't1' });
    expect(toSsoPage('http://idp/auth')).toEqual({ url: 'http://idp/auth', state: null });
    expect(toSsoPage({})).toBeNull();
  });
});

describe('known paths of the guard', () => {
  it('knows every enabled plugin\'s paths from the manifests and every route a registry listed earlier, not other paths', async () => {
    const { AccessService } = await import('../src/auth/access.js');
    const { SessionStore } = await import('../src/auth/session.js');
    const { PermissionStore } = await import('../src/auth/permissions.js');
    const { RegistryStore } = await import('../src/plugins/registry.js');
    const { HttpClient } = await import('../src/http/client.js');
    const { createI18n } = await import('../src/i18n.js');
    const { decide } = await import('../src/auth/guard.js');
    const registry = new RegistryStore();
    const permissions = new PermissionStore();
    const http = new HttpClient({ token: () => null, toast: () => {}, endSession: () => {}, pathname: () => '/' });
    const access = new AccessService(http, new SessionStore(), permissions, registry, await createI18n('en-US'), () => {});
    const route = (plugin: string) => ({ plugin, view: 'Main', title: plugin, fluid: false });
    // `paths` holds every route of every enabled plugin: /user and its detail /userDetail exist, /archive (disabled) does not.
    const paths = ['/hello', '/second', '/user', '/userDetail'];
    registry.set({ sdkVersion: '1.0.0', plugins: {}, routes: { '/second': route('second'), '/hello': route('hello') }, paths });
    permissions.set({ menusPermissionMenus: [{ id: 1, path: '/hello', permissionName: 'Hello', permissionType: 1 }], buttonsPermissionMenus: [], systemConfigPermissionMenus: [] });
    // A live change removes /second from this user's registry: it still exists, so it is not a 404.
    registry.set({ sdkVersion: '1.0.0', plugins: {}, routes: { '/hello': route('hello') }, paths: paths.filter((p) => p !== '/second') });
    // Signed in (the token cookie is the browser's; here the state says so).
    const state = { ...access.guardState(), hasToken: true };
    expect(state.known('/second')).toBe(true);
    expect(state.known('/user')).toBe(true);
    expect(state.known('/no-such-page')).toBe(false);
    expect(state.known('/archive')).toBe(false);
    // Exists but is not yours: the first permitted page. A menu route and a detail route alike.
    expect(decide(state, '/user')).toEqual({ action: 'redirect', to: '/hello', reason: 'forbidden' });
    expect(decide(state, '/userDetail')).toEqual({ action: 'redirect', to: '/hello', reason: 'forbidden' });
    expect(decide(state, '/second')).toEqual({ action: 'redirect', to: '/hello', reason: 'forbidden' });
    // No such page, or the page of a plugin that is off or not installed: 404.
    expect(decide(state, '/no-such-page')).toEqual({ action: 'redirect', to: '/404' });
    expect(decide(state, '/archive')).toEqual({ action: 'redirect', to: '/404' });
    expect(decide(state, '/transFile')).toEqual({ action: 'redirect', to: '/404' });
  });
});
