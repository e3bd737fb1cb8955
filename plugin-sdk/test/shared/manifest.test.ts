import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/shared/manifest.js';

/** A manifest as a plugin author would write it: one menu route, one detail route, one button. */
function validManifest(): Record<string, unknown> {
  return {
    id: 'term',
    version: '1.2.0',
    name: { 'zh-CN': '术语库', 'en-US': 'Term base' },
    sdk: '^1.0.0',
    i18n: ['term'],
    routes: [
      { path: '/term', view: 'TermList', title: 'term:title', menu: { icon: 'book', order: 20 } },
      { path: '/term/detail', view: 'TermDetail', title: 'term:detail', parent: '/term' },
    ],
    permissions: [{ key: 'term:entry:add', type: 'button', name: { 'zh-CN': '新增', 'en-US': 'Add' }, menu: '/term' }],
    server: 'server/index.ts',
  };
}

function problemsOf(input: unknown): string {
  try {
    parseManifest(input, 'plugins/term/plugin.json');
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the manifest was accepted');
}

describe('parseManifest', () => {
  it('accepts a valid manifest and fills the defaults', () => {
    const m = parseManifest(validManifest());
    expect(m.id).toBe('term');
    expect(m.type).toBe('console');
    expect(m.console).toBe('console/index.tsx');
    expect(m.routes[0].menu).toEqual({ icon: 'book', order: 20, showInShortcut: false });
    expect(m.routes[1]).toMatchObject({ parent: '/term', fluid: false });
    expect(m.permissions[0].key).toBe('term:entry:add');
  });

  it('rejects a route with both menu and parent and names the route', () => {
    const m = validManifest();
    (m.routes as Record<string, unknown>[])[1].menu = {};
    const message = problemsOf(m);
    expect(message).toMatch(/^plugins\/term\/plugin\.json is invalid: /);
    expect(message).toContain('routes.1: a route is either a menu route (menu) or a detail route (parent), not both');
  });

  it('rejects a route with neither menu nor parent', () => {
    const m = validManifest();
    delete (m.routes as Record<string, unknown>[])[1].parent;
    expect(problemsOf(m)).toContain('routes.1: a route needs menu defaults (menu) or a parent menu (parent)');
  });

  it('rejects a route the platform owns: its pages, the public sign-in pages, menu groups and server paths', () => {
    for (const path of ['/login', '/LOGIN', '/login/', '/sso', '/quickAccess', '/redirect/term', '/404', '/custom', '/group/system', '/group', '/plugins/x', '/api/user/list', '/health']) {
      const m = validManifest();
      (m.routes as Record<string, unknown>[])[0].path = path;
      expect(problemsOf(m), path).toContain(`routes.0.path: route ${path} belongs to the platform`);
    }
    const m = validManifest();
    (m.routes as Record<string, unknown>[])[0].path = '/loginHistory';
    (m.routes as Record<string, unknown>[])[1].parent = '/loginHistory';
    (m.permissions as Record<string, unknown>[])[0].menu = '/loginHistory';
    expect(parseManifest(m).routes[0].path).toBe('/loginHistory');
  });

  it('rejects a duplicate route and points at the second one', () => {
    const m = validManifest();
    (m.routes as unknown[]).push({ path: '/term', view: 'Other', title: 'term:other', menu: {} });
    expect(problemsOf(m)).toContain('routes.2.path: route /term is declared twice');
  });

  it('rejects a detail route whose parent is a detail route', () => {
    const m = validManifest();
    (m.routes as unknown[]).push({ path: '/term/deeper', view: 'Deeper', title: 'term:deeper', parent: '/term/detail' });
    expect(problemsOf(m)).toContain('routes.2.parent: detail route /term/deeper has a detail route as parent');
  });

  it('rejects a duplicate permission key', () => {
    const m = validManifest();
    (m.permissions as unknown[]).push({ key: 'term:entry:add', type: 'api', name: { 'zh-CN': '新增', 'en-US': 'Add' } });
    expect(problemsOf(m)).toContain('permissions.1.key: permission term:entry:add is declared twice');
  });

  it.each(['Term', 't', '1term', 'term_base', 'x'.repeat(41)])('rejects the plugin id %j', (id) => {
    expect(problemsOf({ ...validManifest(), id })).toContain('id: plugin id: 2-40 characters');
  });

  it.each(['latest', '^one', '>=1.0.0 banana', ''])('rejects the sdk range %j', (sdk) => {
    expect(problemsOf({ ...validManifest(), sdk })).toMatch(/sdk: /);
  });

  it('names every problem in one message', () => {
    const message = problemsOf({ ...validManifest(), id: 'Bad', version: '1.0', sdk: 'latest' });
    expect(message).toContain('id: ');
    expect(message).toContain('version: version must be x.y.z');
    expect(message).toContain('sdk: sdk must be a semver range such as ^1.0.0');
  });

  it('rejects fields the contract does not know', () => {
    expect(problemsOf({ ...validManifest(), extra: true })).toMatch(/\(root\): .*extra/);
  });

  it('accepts slot contributions of declared views and fills their defaults', () => {
    const m = parseManifest({
      ...validManifest(),
      views: ['TermHints'],
      slots: [{ slot: 'transText.sidePanel', view: 'TermHints', permission: 'term:entry:add' }, { slot: 'home.tiles', view: 'TermList', order: 5 }],
      offers: [{ slot: 'term.detailTabs', description: 'props: { termId }' }],
    });
    expect(m.slots).toEqual([
      { slot: 'transText.sidePanel', view: 'TermHints', order: 100, permission: 'term:entry:add' },
      { slot: 'home.tiles', view: 'TermList', order: 5 },
    ]);
    expect(parseManifest(validManifest())).toMatchObject({ views: [], slots: [], offers: [] });
  });

  it('rejects a slot that names an undeclared view', () => {
    const m = { ...validManifest(), slots: [{ slot: 'transText.sidePanel', view: 'TermHints' }] };
    expect(problemsOf(m)).toContain('slots.0.view: slot transText.sidePanel names view TermHints, which no route and no entry of views declares');
  });

  it('rejects a slot behind a permission the plugin does not declare as a button', () => {
    const m = { ...validManifest(), slots: [{ slot: 'home.tiles', view: 'TermList', permission: 'tm:view' }] };
    expect(problemsOf(m)).toContain('slots.0.permission: slot home.tiles needs permission tm:view, which is not a button permission of this plugin');
  });

  it('rejects the same view filling a slot twice and a slot offered twice', () => {
    const m = {
      ...validManifest(),
      slots: [{ slot: 'home.tiles', view: 'TermList' }, { slot: 'home.tiles', view: 'TermList', order: 1 }],
      offers: [{ slot: 'term.tabs' }, { slot: 'term.tabs' }],
    };
    const message = problemsOf(m);
    expect(message).toContain('slots.1.view: view TermList fills slot home.tiles twice');
    expect(message).toContain('offers.1.slot: slot term.tabs is offered twice');
  });

  it.each(['home', 'Home.tiles', 'home.', 'home..tiles', 'home.tiles-x'])('rejects the slot name %j', (slot) => {
    expect(problemsOf({ ...validManifest(), slots: [{ slot, view: 'TermList' }] })).toContain('slots.0.slot: slot names read area.place');
  });

  it('names nested fields by their path', () => {
    const m = validManifest();
    (m.routes as Record<string, unknown>[])[0].path = 'term';
    expect(problemsOf(m)).toContain('routes.0.path: route path must start with a slash followed by a letter');
  });
});
