// @vitest-environment happy-dom
import { createHash } from 'node:crypto';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { until, type UntilOptions } from '@linguaport/sdk/testing';
import type { Registry, RegistryPlugin, RegistrySlot } from '@linguaport/sdk/shared';
import { AccessService } from '../src/auth/access.js';
import { PermissionStore } from '../src/auth/permissions.js';
import { SessionStore } from '../src/auth/session.js';
import { EventBus } from '../src/bus/event-bus.js';
import { WsBridge } from '../src/bus/ws-bridge.js';
import { CompanyConfig } from '../src/config/company.js';
import { createRootContainer, KernelContext, type Kernel } from '../src/container.js';
import { HttpClient } from '../src/http/client.js';
import { ToastNotifier } from '../src/http/notifier.js';
import { createI18n } from '../src/i18n.js';
import { PluginLoader } from '../src/plugins/loader.js';
import { PluginMount } from '../src/plugins/PluginMount.js';
import { RegistryStore } from '../src/plugins/registry.js';
import { registerSharedModules } from '../src/plugins/shared-modules.js';
import { SlotOutlet } from '../src/plugins/SlotOutlet.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// Bundles as the build makes them: System.register modules that reach the SDK through the host.
const source = (id: string, body: string) => `System.register(['react', '@linguaport/sdk/console'], function (_export) {
  var React, sdk;
  return {
    setters: [function (m) { React = m.default; }, function (m) { sdk = m; }],
    execute: function () { ${body.replace(/ID/g, JSON.stringify(id))} }
  };
});`;
const files: Record<string, string> = {
  // The offering plugin: its view places the slot `host.tiles` with props.
  '/p/host.js': source('host', `_export('default', sdk.definePlugin({ id: ID, views: { Main: function () {
    return React.createElement('main', { 'data-testid': 'host-view' },
      React.createElement(sdk.Slot, { name: 'host.tiles', props: { who: 'world' }, empty: React.createElement('p', { 'data-testid': 'slot-empty' }, 'nobody') }));
  } } }));`),
  // A contributor: its tile shows its own plugin id (its own services) and the slot's props.
  '/p/alpha.js': source('alpha', `_export('default', sdk.definePlugin({ id: ID, views: {
    AlphaTile: function (p) { return React.createElement('div', { 'data-testid': 'alpha-tile' }, 'alpha ' + sdk.usePlatform().pluginId + ' ' + p.slot + ' ' + p.props.who); },
    AlphaSecret: function () { return React.createElement('div', { 'data-testid': 'alpha-secret' }, 'secret'); }
  } }));`),
  '/p/beta.js': source('beta', `_export('default', sdk.definePlugin({ id: ID, views: { BetaTile: function () { return React.createElement('div', { 'data-testid': 'beta-tile' }, 'beta'); } } }));`),
  '/p/thrower.js': source('thrower', `_export('default', sdk.definePlugin({ id: ID, views: { Tile: function () { throw new Error('tile boom'); } } }));`),
  '/p/forged.js': source('forged', `_export('default', sdk.definePlugin({ id: ID, views: { Tile: function () { return 'forged'; } } }));`),
};
const base = 'http://console.test';
const fetched: string[] = [];

const fetchInProcess: typeof fetch = async (input) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const path = new URL(url, base).pathname;
  fetched.push(path);
  const file = files[path];
  return file === undefined ? new Response('missing', { status: 404 }) : new Response(file, { status: 200, headers: { 'content-type': 'application/javascript' } });
};

beforeAll(() => {
  registerSharedModules();
});

function plugin(id: string, views: string[], integrity?: string): RegistryPlugin {
  const text = files[`/p/${id}.js`] ?? '';
  return {
    id, version: '1.0.0', name: { 'zh-CN': id, 'en-US': id }, type: 'console', sdk: '^1.0.0',
    bundle: `${base}/p/${id}.js`, integrity: integrity ?? `sha384-${createHash('sha384').update(text).digest('base64')}`,
    css: null, cssIntegrity: null, locales: { 'zh-CN': '', 'en-US': '' }, i18n: [id],
    routes: [], permissions: [], views,
  };
}

const tile = (plugin: string, view: string, order: number, permission?: string): RegistrySlot => ({ plugin, view, order, ...(permission ? { permission } : {}) });

async function kernel(registry: Partial<Registry>): Promise<Kernel> {
  const i18n = await createI18n('en-US');
  const session = new SessionStore();
  const permissions = new PermissionStore();
  const store = new RegistryStore();
  store.set({ sdkVersion: '1.0.0', plugins: {}, routes: {}, ...registry });
  const http = new HttpClient({ baseURL: `${base}/api`, token: () => null, toast: () => undefined, endSession: () => undefined, pathname: () => '/' });
  // Failure reports go nowhere in these tests.
  http.axios.defaults.adapter = async (config) => ({ data: '{"code":200,"msg":"","data":null}', status: 200, statusText: '200', headers: { 'content-type': 'application/json' }, config, request: {} });
  const bus = new EventBus();
  return createRootContainer({
    http, session, permissions, registry: store, bus, notifier: new ToastNotifier(i18n), i18n, company: new CompanyConfig(),
    access: new AccessService(http, session, permissions, store, i18n, () => undefined),
    loader: new PluginLoader({ registry: () => store.get(), i18n, fetch: fetchInProcess }),
    ws: new WsBridge({ bus, token: () => null, socketPath: async () => '/ws' }),
  });
}

async function render(k: Kernel, node: React.ReactNode): Promise<{ root: Root; el: HTMLElement }> {
  const el = document.createElement('div');
  document.body.appendChild(el);
  const root = createRoot(el);
  await act(async () => {
    root.render(
      <KernelContext.Provider value={k}>
        <MemoryRouter>{node}</MemoryRouter>
      </KernelContext.Provider>,
    );
  });
  return { root, el };
}

// Pauses inside act() so React's updates land; deadlines generous for a machine under load.
const inAct: UntilOptions = { timeout: 10_000, interval: 20, pause: (wait) => act(wait) };

const grantButtons = (k: Kernel, keys: string[]) =>
  k.permissions.set({ menusPermissionMenus: [], buttonsPermissionMenus: keys.map((permissionKey, i) => ({ id: i + 1, permissionKey }) as never), systemConfigPermissionMenus: [] });

describe('console slots', { timeout: 30_000 }, () => {
  it('renders the contributions a plugin view places with <Slot>, in order, each with its own plugin services and the slot props', async () => {
    const k = await kernel({
      plugins: { host: plugin('host', []), alpha: plugin('alpha', ['AlphaTile']), beta: plugin('beta', ['BetaTile']) },
      slots: { 'host.tiles': [tile('beta', 'BetaTile', 10), tile('alpha', 'AlphaTile', 20)] },
    });
    const { el, root } = await render(k, <PluginMount pluginId="host" view="Main" path="/host" />);
    await until(() => el.querySelector('[data-testid="alpha-tile"]') !== null && el.querySelector('[data-testid="beta-tile"]') !== null, inAct);
    const items = [...el.querySelectorAll('[data-slot="host.tiles"]')].map((e) => e.getAttribute('data-slot-item'));
    expect(items).toEqual(['beta/BetaTile', 'alpha/AlphaTile']);
    expect(el.querySelector('[data-testid="alpha-tile"]')!.textContent).toBe('alpha alpha host.tiles world');
    expect(el.querySelector('[data-testid="slot-empty"]')).toBeNull();
    await act(async () => root.unmount());
  });

  it('shows the empty content when nobody contributes, and loads no bundle for it', async () => {
    const k = await kernel({ plugins: { host: plugin('host', []) }, slots: {} });
    fetched.length = 0;
    const { el, root } = await render(k, <PluginMount pluginId="host" view="Main" path="/host" />);
    await until(() => el.querySelector('[data-testid="slot-empty"]') !== null, inAct);
    expect(el.querySelector('[data-slot="host.tiles"]')).toBeNull();
    expect(fetched).toEqual(['/p/host.js']);
    await act(async () => root.unmount());
  });

  it('leaves out a contribution whose plugin is not in the registry, and one behind a button the user lacks until it is granted', async () => {
    const k = await kernel({
      plugins: { alpha: plugin('alpha', ['AlphaTile', 'AlphaSecret']) },
      // beta is not in this user's registry (off, or not reached): its contribution never renders.
      slots: { 'host.tiles': [tile('alpha', 'AlphaTile', 1), tile('alpha', 'AlphaSecret', 2, 'alpha:secret'), tile('beta', 'BetaTile', 3)] },
    });
    grantButtons(k, []);
    fetched.length = 0;
    const { el, root } = await render(k, <SlotOutlet name="host.tiles" props={{ who: 'you' }} />);
    await until(() => el.querySelector('[data-testid="alpha-tile"]') !== null, inAct);
    expect(el.querySelector('[data-testid="alpha-secret"]')).toBeNull();
    expect(el.querySelector('[data-testid="beta-tile"]')).toBeNull();
    expect(fetched).not.toContain('/p/beta.js');
    await act(async () => grantButtons(k, ['alpha:secret']));
    await until(() => el.querySelector('[data-testid="alpha-secret"]') !== null, inAct);
    await act(async () => grantButtons(k, []));
    await until(() => el.querySelector('[data-testid="alpha-secret"]') === null, inAct);
    expect(el.querySelector('[data-testid="alpha-tile"]')).not.toBeNull();
    await act(async () => root.unmount());
  });

  it('keeps a failing contribution in its room: a throwing view and a bundle failing integrity show their own panels, the others render', async () => {
    const k = await kernel({
      plugins: {
        alpha: plugin('alpha', ['AlphaTile']),
        thrower: plugin('thrower', ['Tile']),
        forged: plugin('forged', ['Tile'], 'sha384-AAAA'),
        beta: plugin('beta', ['BetaTile']),
      },
      slots: { 'host.tiles': [tile('thrower', 'Tile', 1), tile('alpha', 'AlphaTile', 2), tile('forged', 'Tile', 3), tile('beta', 'BetaTile', 4)] },
    });
    const { el, root } = await render(k, <SlotOutlet name="host.tiles" props={{ who: 'all' }} />);
    await until(() => el.querySelectorAll('[data-testid="plugin-error"]').length === 2 && el.querySelector('[data-testid="beta-tile"]') !== null, inAct);
    const kind = (item: string) => el.querySelector(`[data-slot-item="${item}"] [data-testid="plugin-error"]`)?.getAttribute('data-error-kind');
    expect(kind('thrower/Tile')).toBe('render');
    expect(kind('forged/Tile')).toBe('integrity');
    expect(el.querySelector('[data-slot-item="alpha/AlphaTile"]')!.textContent).toBe('alpha alpha host.tiles all');
    await act(async () => root.unmount());
  });
});
