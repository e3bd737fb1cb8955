// @vitest-environment happy-dom
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry, RegistryPlugin } from '@linguaport/sdk/shared';
import { createI18n } from '../src/i18n.js';
import { PluginLoadError } from '../src/plugins/errors.js';
import { PluginLoader } from '../src/plugins/loader.js';
import { registerSharedModules } from '../src/plugins/shared-modules.js';

// A real loopback server serves System.register bundles and locale files, as the console's server does.
const bundle = (id: string, body: string) => `System.register(['@linguaport/sdk/console', 'i18next'], function (_export) {
  var definePlugin;
  return {
    setters: [function (m) { definePlugin = m.definePlugin; }, function () {}],
    execute: function () { ${body.replace(/ID/g, JSON.stringify(id))} }
  };
});`;

const files: Record<string, string> = {
  '/p/hello.js': bundle('hello', "_export('default', definePlugin({ id: ID, views: { Hello: function () { return null; } } }));"),
  '/p/thrower.js': bundle('thrower', "throw new Error('boom at load');"),
  '/p/noview.js': bundle('noview', "_export('default', definePlugin({ id: ID, views: {} }));"),
  '/p/nodefault.js': bundle('nodefault', "_export('other', 1);"),
  '/p/tampered.js': bundle('tampered', "_export('default', definePlugin({ id: ID, views: { Hello: function () { return null; } } }));"),
  '/p/zh.json': JSON.stringify({ hello: { greet: '你好' } }),
  '/p/en.json': JSON.stringify({ hello: { greet: 'Hello' } }),
};
const requests: string[] = [];
let server: Server;
let base = '';

function plugin(id: string, over: Partial<RegistryPlugin> = {}): RegistryPlugin {
  const bundlePath = `/p/${id}.js`;
  const source = files[bundlePath] ?? '';
  return {
    id,
    version: '1.2.3',
    name: { 'zh-CN': id, 'en-US': id },
    type: 'console',
    sdk: '^1.0.0',
    bundle: `${base}${bundlePath}`,
    integrity: `sha384-${createHash('sha384').update(source).digest('base64')}`,
    css: null,
    cssIntegrity: null,
    locales: { 'zh-CN': `${base}/p/zh.json`, 'en-US': `${base}/p/en.json` },
    i18n: ['hello'],
    routes: [{ path: `/${id}`, view: 'Hello', title: 'hello:greet', fluid: false }],
    permissions: [],
    ...over,
  };
}

async function setup(plugins: RegistryPlugin[], timeoutMs?: number) {
  const registry: Registry = { sdkVersion: '1.0.0', plugins: Object.fromEntries(plugins.map((p) => [p.id, p])), routes: {} };
  const i18n = await createI18n('zh-CN');
  return { i18n, loader: new PluginLoader({ registry: () => registry, i18n, timeoutMs }) };
}

async function failure(promise: Promise<unknown>): Promise<PluginLoadError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(PluginLoadError);
  return error as PluginLoadError;
}

beforeAll(async () => {
  registerSharedModules();
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    res.setHeader('Access-Control-Allow-Origin', '*');
    // The test page's origin differs from the server's: answer happy-dom's CORS preflight.
    if (req.method === 'OPTIONS') {
      res.statusCode = 204;
      res.setHeader('Access-Control-Allow-Methods', 'GET');
      return res.end();
    }
    requests.push(path);
    if (path === '/p/slow.js') return; // never answers
    const body = files[path];
    if (body === undefined) {
      res.statusCode = 404;
      return res.end('not found');
    }
    res.setHeader('content-type', path.endsWith('.json') ? 'application/json' : 'application/javascript');
    // The tampered bundle is served with one byte more than the build hashed.
    res.end(path === '/p/tampered.js' ? `${body}\n` : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('plugin loader', () => {
  it('loads a plugin once: locale resources first, then the verified bundle; a second visit does not refetch', async () => {
    const { loader, i18n } = await setup([plugin('hello')]);
    requests.length = 0;
    const loaded = await loader.load('hello');
    expect(loaded.module.id).toBe('hello');
    expect(typeof loaded.module.views.Hello).toBe('function');
    expect(i18n.t('hello:greet')).toBe('你好');
    expect(requests).toEqual(['/p/zh.json', '/p/hello.js']);
    expect(await loader.load('hello')).toBe(loaded);
    expect(requests).toHaveLength(2);
  });

  it('fetches the other locale of loaded plugins before a switch', async () => {
    const { loader, i18n } = await setup([plugin('hello')]);
    await loader.load('hello');
    requests.length = 0;
    await loader.loadLocaleForAll('en-US');
    expect(requests).toEqual(['/p/en.json']);
    await i18n.changeLanguage('en-US');
    expect(i18n.t('hello:greet')).toBe('Hello');
  });

  it('refuses an incompatible SDK range before fetching anything', async () => {
    const { loader } = await setup([plugin('hello', { sdk: '^2.0.0' })]);
    requests.length = 0;
    const error = await failure(loader.load('hello'));
    expect(error.kind).toBe('sdk-incompatible');
    expect(error.details).toEqual({ range: '^2.0.0', sdk: '1.0.0' });
    expect(requests).toEqual([]);
  });

  it('classifies a missing bundle as http with its status', async () => {
    const { loader } = await setup([plugin('missing')]);
    const error = await failure(loader.load('missing'));
    expect(error.kind).toBe('http');
    expect(error.details.status).toBe(404);
  });

  it('classifies a bundle that does not match its integrity', async () => {
    const { loader } = await setup([plugin('tampered')]);
    expect((await failure(loader.load('tampered'))).kind).toBe('integrity');
  });

  it('classifies a bundle that throws while it is evaluated', async () => {
    const { loader } = await setup([plugin('thrower')]);
    const error = await failure(loader.load('thrower'));
    expect(error.kind).toBe('evaluation');
    expect(error.message).toContain('boom at load');
  });

  it('classifies a module without a definePlugin default export or without a declared view as invalid', async () => {
    const { loader } = await setup([plugin('nodefault'), plugin('noview')]);
    expect((await failure(loader.load('nodefault'))).kind).toBe('invalid-module');
    const error = await failure(loader.load('noview'));
    expect(error.kind).toBe('invalid-module');
    expect(error.message).toContain('Hello');
  });

  it('gives up after the time-out', async () => {
    const { loader } = await setup([plugin('slow', { locales: { 'zh-CN': '', 'en-US': '' } })], 300);
    const error = await failure(loader.load('slow'));
    expect(error.kind).toBe('timeout');
  });

  it('classifies an unreachable server as a network error', async () => {
    const { loader } = await setup([plugin('hello', { locales: { 'zh-CN': '', 'en-US': '' }, bundle: 'http://127.0.0.1:1/p/hello.js' })]);
    expect((await failure(loader.load('hello'))).kind).toBe('network');
  });

  it('forgets a failed load so a retry fetches again', async () => {
    const { loader } = await setup([plugin('missing')]);
    await failure(loader.load('missing'));
    requests.length = 0;
    await failure(loader.load('missing'));
    expect(requests).toContain('/p/missing.js');
  });
});
