// @vitest-environment happy-dom
import { createHash } from 'node:crypto';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router-dom';
import type { AxiosAdapter } from 'axios';
import { beforeAll, describe, expect, it } from 'vitest';
import { until, type UntilOptions } from '@linguaport/sdk/testing';
import type { RegistryPlugin } from '@linguaport/sdk/shared';
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

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// Views use the SDK through PlatformContext, as a built plugin does.
const source = (id: string, body: string) => `System.register(['react', '@linguaport/sdk/console'], function (_export) {
  var React, sdk;
  return {
    setters: [function (m) { React = m.default; }, function (m) { sdk = m; }],
    execute: function () { ${body.replace(/ID/g, JSON.stringify(id))} }
  };
});`;
const files: Record<string, string> = {
  '/p/hello.js': source('hello', `_export('default', sdk.definePlugin({ id: ID, views: { Main: function () {
    var p = sdk.usePlatform();
    return React.createElement('div', { 'data-testid': 'hello-view' }, 'plugin ' + p.pluginId + ' ' + (React === window.__LP_REACT__));
  } } }));`),
  // A view that suspends (React.lazy) until the test lets it go.
  '/p/lazy.js': source('lazy', `var release; var gate = new Promise(function (r) { release = r; }); window.__LP_RELEASE_LAZY__ = function () { release(); };
    var Inner = React.lazy(function () { return gate.then(function () { return { default: function () { return React.createElement('div', { 'data-testid': 'lazy-view' }, 'lazy ready'); } }; }); });
    _export('default', sdk.definePlugin({ id: ID, views: { Main: function () { return React.createElement(Inner); } } }));`),
  '/p/thrower.js': source('thrower', `_export('default', sdk.definePlugin({ id: ID, views: { Main: function () { throw new Error('render boom'); } } }));`),
};
// The "server" answers in-process: the loader's fetch and the HTTP client's axios adapter call
// `serve` directly. A loopback server made this test flaky under load (a kept-alive socket reset
// between requests, or torn down with a report still in flight: ECONNRESET), and sockets are not
// what it checks.
const base = 'http://console.test';
let hits = 0;
const reports: Record<string, unknown>[] = [];

function serve(method: string, url: string, body: string | undefined): { status: number; type: string; body: string } {
  const path = new URL(url, base).pathname;
  if (method === 'POST' && path === '/api/plugins/reportFailure') {
    reports.push(JSON.parse(body ?? 'null') as Record<string, unknown>);
    return { status: 200, type: 'application/json', body: JSON.stringify({ code: 200, msg: '', data: null }) };
  }
  hits++;
  const file = files[path];
  if (file === undefined) return { status: 404, type: 'text/plain', body: 'missing' };
  return { status: 200, type: 'application/javascript', body: file };
}

const fetchInProcess: typeof fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const res = serve(init?.method ?? 'GET', url, undefined);
  return new Response(res.body, { status: res.status, headers: { 'content-type': res.type } });
};

const axiosInProcess: AxiosAdapter = async (config) => {
  const res = serve((config.method ?? 'get').toUpperCase(), `${config.baseURL ?? ''}${config.url ?? ''}`, typeof config.data === 'string' ? config.data : undefined);
  return { data: res.body, status: res.status, statusText: String(res.status), headers: { 'content-type': res.type }, config, request: {} };
};

beforeAll(() => {
  registerSharedModules();
});

function plugin(id: string): RegistryPlugin {
  const text = files[`/p/${id}.js`] ?? '';
  return {
    id, version: '0.3.0', name: { 'zh-CN': id, 'en-US': id }, type: 'console', sdk: '^1.0.0',
    bundle: `${base}/p/${id}.js`, integrity: `sha384-${createHash('sha384').update(text).digest('base64')}`,
    css: null, cssIntegrity: null, locales: { 'zh-CN': '', 'en-US': '' }, i18n: [id],
    routes: [{ path: `/${id}`, view: 'Main', title: `${id}:title`, fluid: false }], permissions: [],
  };
}

async function kernel(): Promise<Kernel> {
  const i18n = await createI18n('en-US');
  const session = new SessionStore();
  const permissions = new PermissionStore();
  const registry = new RegistryStore();
  registry.set({ sdkVersion: '1.0.0', plugins: { hello: plugin('hello'), thrower: plugin('thrower'), missing: plugin('missing'), lazy: plugin('lazy') }, routes: {} });
  const notifier = new ToastNotifier(i18n);
  const http = new HttpClient({ baseURL: `${base}/api`, token: () => null, toast: () => undefined, endSession: () => undefined, pathname: () => '/' });
  http.axios.defaults.adapter = axiosInProcess;
  const bus = new EventBus();
  return createRootContainer({
    http, session, permissions, registry, bus, notifier, i18n, company: new CompanyConfig(),
    access: new AccessService(http, session, permissions, registry, i18n, () => undefined),
    loader: new PluginLoader({ registry: () => registry.get(), i18n, fetch: fetchInProcess }),
    ws: new WsBridge({ bus, token: () => null, socketPath: async () => '/ws' }),
  });
}

async function mount(k: Kernel, ids: string[]): Promise<{ root: Root; el: HTMLElement }> {
  const el = document.createElement('div');
  document.body.appendChild(el);
  const root = createRoot(el);
  await act(async () => {
    root.render(
      <KernelContext.Provider value={k}>
        <MemoryRouter>
          {ids.map((id) => <section key={id} data-slot={id}><PluginMount pluginId={id} view="Main" path={`/${id}`} /></section>)}
        </MemoryRouter>
      </KernelContext.Provider>,
    );
  });
  return { root, el };
}

// Pauses inside act() so React's updates land; deadlines generous for a machine under load.
const inAct: UntilOptions = { timeout: 10_000, interval: 20, pause: (wait) => act(wait) };

describe('PluginMount', { timeout: 30_000 }, () => {
  it('renders a plugin view with its platform services and the host React', async () => {
    const { el, root } = await mount(await kernel(), ['hello']);
    await until(() => el.querySelector('[data-testid="hello-view"]') !== null, inAct);
    expect(el.textContent).toContain('plugin hello true');
    await act(async () => root.unmount());
  });

  it('keeps failures in their room: a missing bundle and a throwing view show their own panels, the other plugin renders', async () => {
    const { el, root } = await mount(await kernel(), ['missing', 'thrower', 'hello']);
    await until(() => el.querySelectorAll('[data-testid="plugin-error"]').length === 2 && el.querySelector('[data-testid="hello-view"]') !== null, inAct);
    const kind = (id: string) => el.querySelector(`[data-slot="${id}"] [data-testid="plugin-error"]`)?.getAttribute('data-error-kind');
    expect(kind('missing')).toBe('http');
    expect(kind('thrower')).toBe('render');
    const panel = el.querySelector('[data-slot="missing"]')!.textContent!;
    expect(panel).toContain('HTTP 404');
    expect(panel).toContain('missing 0.3.0');
    // In the console's language only (English here): no line in the other language.
    expect(panel).toContain('This feature could not be shown');
    expect(panel).not.toMatch(/\p{Script=Han}/u);
    await act(async () => root.unmount());
  });

  it('holds a view that suspends inside its own mount while the other plugin renders', async () => {
    const { el, root } = await mount(await kernel(), ['lazy', 'hello']);
    await until(() => el.querySelector('[data-testid="hello-view"]') !== null && typeof (window as { __LP_RELEASE_LAZY__?: unknown }).__LP_RELEASE_LAZY__ === 'function', inAct);
    expect(el.querySelector('[data-testid="lazy-view"]')).toBeNull();
    expect(el.querySelector('[data-slot="lazy"] [data-testid="plugin-error"]')).toBeNull();
    await act(async () => (window as unknown as { __LP_RELEASE_LAZY__(): void }).__LP_RELEASE_LAZY__());
    await until(() => el.querySelector('[data-testid="lazy-view"]') !== null, inAct);
    expect(el.querySelector('[data-slot="lazy"]')!.textContent).toContain('lazy ready');
    await act(async () => root.unmount());
  });

  it('fetches again when the user retries a failed load', async () => {
    const { el, root } = await mount(await kernel(), ['missing']);
    await until(() => el.querySelector('[data-testid="plugin-error"]') !== null, inAct);
    const before = hits;
    await act(async () => (el.querySelector('[data-testid="plugin-retry"]') as HTMLButtonElement).click());
    await until(() => hits > before && el.querySelector('[data-testid="plugin-error"]') !== null, inAct);
    expect(hits).toBe(before + 1);
    await act(async () => root.unmount());
  });

  it('reports each failing plugin to the server with its kind and version', async () => {
    reports.length = 0;
    const { el, root } = await mount(await kernel(), ['missing', 'thrower']);
    await until(() => el.querySelectorAll('[data-testid="plugin-error"]').length === 2, inAct);
    await until(() => reports.length >= 2, inAct);
    const byId = Object.fromEntries(reports.map((r) => [r.pluginId, r]));
    expect(byId.missing).toMatchObject({ pluginId: 'missing', version: '0.3.0', kind: 'http' });
    expect(byId.thrower).toMatchObject({ pluginId: 'thrower', version: '0.3.0', kind: 'render' });
    expect(String(byId.thrower!.message)).toContain('render boom');
    await act(async () => root.unmount());
  });
});
