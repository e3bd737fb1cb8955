import { describe, expect, it } from 'vitest';
import { parseManifest, registryRouteOf, slotTable } from '../../plugin-sdk/src/shared/manifest.js';
import { satisfies } from '../../plugin-sdk/src/shared/semver.js';
import { SDK_VERSION } from '../../plugin-sdk/src/shared/version.js';
// @ts-expect-error: plain ESM build code without type declarations
import { assembleRegistry, checkDeployment } from '../lib/registry.mjs';

const sdk = { SDK_VERSION, satisfies, registryRouteOf, slotTable };

function plugin(id: string, routes: unknown[], extra: { enabled?: boolean; sdk?: string; manifestId?: string; folder?: string } = {}) {
  const manifest = parseManifest({
    id: extra.manifestId ?? id,
    version: '1.2.3',
    name: { 'zh-CN': id, 'en-US': id },
    sdk: extra.sdk ?? '^1.0.0',
    routes,
    i18n: [id],
  });
  return {
    id,
    dir: `/repo/plugins/${extra.folder ?? id}`,
    enabled: extra.enabled ?? true,
    manifest,
    source: `plugins/${id}/plugin.json`,
    built: {
      bundle: `/plugins/${id}/${id}-abc.js`,
      integrity: 'sha384-x',
      css: null,
      cssIntegrity: null,
      locales: { 'zh-CN': `/plugins/${id}/locales/zh-CN-1.json`, 'en-US': `/plugins/${id}/locales/en-US-2.json` },
    },
  };
}

const menu = (path: string, view = 'Main') => ({ path, view, title: 'x:title', menu: { icon: 'home' } });
const detail = (path: string, parent: string, view = 'Detail') => ({ path, view, title: 'x:detail', parent });

describe('assembleRegistry', () => {
  it('keys enabled plugins by id and their menu and detail routes by path', () => {
    const registry = assembleRegistry(
      [plugin('term', [menu('/term'), detail('/termDetail', '/term')]), plugin('tm', [menu('/tm')], { enabled: false })],
      sdk,
    );
    expect(registry.sdkVersion).toBe(SDK_VERSION);
    expect(Object.keys(registry.plugins)).toEqual(['term']);
    expect(registry.plugins.term).toMatchObject({ id: 'term', version: '1.2.3', bundle: '/plugins/term/term-abc.js', css: null, i18n: ['term'] });
    expect(registry.routes).toEqual({
      '/term': { plugin: 'term', view: 'Main', title: 'x:title', fluid: false },
      '/termDetail': { plugin: 'term', view: 'Detail', title: 'x:detail', parent: '/term', fluid: false },
    });
  });

  it('lists every enabled route path and the slot contributions of enabled plugins, ordered', () => {
    const alpha = plugin('alpha', [menu('/a')]);
    alpha.manifest = parseManifest({ ...alpha.manifest, views: ['Tile'], slots: [{ slot: 'home.tiles', view: 'Tile', order: 50 }] });
    const beta = plugin('beta', [menu('/b')]);
    beta.manifest = parseManifest({ ...beta.manifest, slots: [{ slot: 'home.tiles', view: 'Main', order: 10 }] });
    const off = plugin('off', [menu('/off')], { enabled: false });
    off.manifest = parseManifest({ ...off.manifest, slots: [{ slot: 'home.tiles', view: 'Main' }] });
    const registry = assembleRegistry([alpha, beta, off], sdk);
    expect(registry.paths).toEqual(['/a', '/b']);
    expect(registry.slots).toEqual({ 'home.tiles': [{ plugin: 'beta', view: 'Main', order: 10 }, { plugin: 'alpha', view: 'Tile', order: 50 }] });
    expect(registry.plugins.alpha).toMatchObject({ views: ['Tile'], slots: [{ slot: 'home.tiles', view: 'Tile', order: 50 }], offers: [] });
  });

  it('accepts a detail route whose parent menu belongs to another enabled plugin', () => {
    const registry = assembleRegistry([plugin('alpha', [menu('/a')]), plugin('beta', [detail('/bDetail', '/a')])], sdk);
    expect(registry.routes['/bDetail']).toMatchObject({ plugin: 'beta', parent: '/a' });
  });

  it('rejects two enabled plugins declaring one path, naming both', () => {
    expect(() => assembleRegistry([plugin('alpha', [menu('/same')]), plugin('beta', [menu('/same')])], sdk)).toThrow(
      'route /same is declared by two plugins: alpha and beta',
    );
  });

  it('lets a disabled plugin share a path with an enabled one', () => {
    expect(() => checkDeployment([plugin('alpha', [menu('/same')]), plugin('beta', [menu('/same')], { enabled: false })], sdk)).not.toThrow();
  });

  it('rejects a detail route whose parent no enabled plugin declares', () => {
    expect(() => assembleRegistry([plugin('alpha', [menu('/a'), detail('/aDetail', '/nowhere')])], sdk)).toThrow(
      'plugins/alpha/plugin.json: detail route /aDetail has parent /nowhere, which no enabled plugin declares',
    );
  });

  it('rejects a detail route whose parent belongs to a disabled plugin', () => {
    expect(() => assembleRegistry([plugin('alpha', [menu('/a')], { enabled: false }), plugin('beta', [detail('/bDetail', '/a')])], sdk)).toThrow(
      /has parent \/a, which no enabled plugin declares/,
    );
  });

  it('rejects a detail route whose parent is itself a detail route of another plugin', () => {
    const plugins = [plugin('alpha', [menu('/a'), detail('/aDetail', '/a')]), plugin('beta', [detail('/bDetail', '/aDetail')])];
    expect(() => assembleRegistry(plugins, sdk)).toThrow(/parent \/aDetail, which is not a menu route/);
  });

  it('rejects a plugin whose sdk range does not accept the platform SDK', () => {
    expect(() => assembleRegistry([plugin('alpha', [menu('/a')], { sdk: '^2.0.0' })], sdk)).toThrow(
      `plugins/alpha/plugin.json: sdk range ^2.0.0 does not accept the platform SDK ${SDK_VERSION}`,
    );
  });

  it('checks the sdk range of disabled plugins too', () => {
    expect(() => checkDeployment([plugin('alpha', [menu('/a')], { sdk: '>=9.0.0', enabled: false })], sdk)).toThrow(/sdk range >=9.0.0/);
  });

  it('rejects a set entry whose manifest carries another id', () => {
    expect(() => assembleRegistry([plugin('alpha', [menu('/a')], { manifestId: 'other' })], sdk)).toThrow(
      'plugins/alpha/plugin.json: id is other but the deployment set lists it as alpha',
    );
  });

  it('rejects a plugin whose folder is not named after its id', () => {
    expect(() => assembleRegistry([plugin('alpha', [menu('/a')], { folder: 'alpha-old' })], sdk)).toThrow(/sits in folder alpha-old/);
  });

  it('refuses to list an enabled plugin that has no build output', () => {
    const p = { ...plugin('alpha', [menu('/a')]), built: undefined };
    expect(() => assembleRegistry([p], sdk)).toThrow('plugin alpha has no build output');
  });
});
