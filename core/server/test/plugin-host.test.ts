import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@linguaport/sdk/testing';
import { syncPermissionTree } from '../src/access/permission-tree.js';
import { createServer } from '../src/server.js';
import { ADMIN_PASSWORD, FIXTURES, createUserWithRole, startKernel, testConfig, writeDist, type TestKernel } from './support/kernel.js';
import { openTestDatabase, type TestDatabase } from './support/test-database.js';

// The plugin host with the fixture deployment set: `notes` (enabled, with a server part) and
// `archive` (disabled; its setup throws if it is ever called).

// Slot contributions: notes fills home.tiles twice (once behind its notes:add button), archive (disabled) once.
const slotsOf: Record<string, unknown[]> = {
  notes: [{ slot: 'home.tiles', view: 'NotesTile', order: 20 }, { slot: 'home.tiles', view: 'NotesAddTile', order: 10, permission: 'notes:add' }],
  archive: [{ slot: 'home.tiles', view: 'ArchiveTile', order: 1 }],
};

const registryOfBuild = {
  sdkVersion: '1.0.0',
  plugins: Object.fromEntries(
    [
      ['notes', [{ path: '/notes', view: 'Notes', title: 'notes:title', menu: { icon: 'document', order: 5, group: 'resources', showInShortcut: false }, fluid: false }, { path: '/noteDetail', view: 'NoteDetail', title: 'notes:detail', parent: '/notes', fluid: false }]],
      ['archive', [{ path: '/archive', view: 'Archive', title: 'archive:title', menu: { icon: 'box', order: 6, showInShortcut: false }, fluid: false }]],
    ].map(([id, routes]) => [id, { id, version: '1.0.0', name: { 'zh-CN': id, 'en-US': id }, type: 'console', sdk: '^1.0.0', bundle: `/plugins/${id}/${id}-abc123.js`, integrity: 'sha384-x', css: null, cssIntegrity: null, locales: { 'zh-CN': '', 'en-US': '' }, i18n: [id], routes, permissions: [], slots: slotsOf[id as string] }]),
  ),
  routes: {
    '/notes': { plugin: 'notes', view: 'Notes', title: 'notes:title', fluid: false },
    '/noteDetail': { plugin: 'notes', view: 'NoteDetail', title: 'notes:detail', parent: '/notes', fluid: false },
    '/archive': { plugin: 'archive', view: 'Archive', title: 'archive:title', fluid: false },
  },
};

let k: TestKernel;
let admin: string;

beforeAll(async () => {
  k = await startKernel({}, {}, (config) => {
    mkdirSync(join(config.dataDir, 'config'), { recursive: true });
    writeFileSync(join(config.dataDir, 'config', 'notes.json'), JSON.stringify({ greeting: 'configured' }));
    writeDist(config.distDir, registryOfBuild);
  });
  admin = await k.login('admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await k?.shutdown();
});

describe('loading a plugin server part', () => {
  it('ran its migration under module plugin:notes', async () => {
    const rows = await k.database.db.selectFrom('kernel_migrations').select(['module', 'name']).where('module', '=', 'plugin:notes').execute();
    expect(rows).toEqual([{ module: 'plugin:notes', name: '001_create_notes' }]);
  });

  it('serves its routes and works its jobs', async () => {
    const added = await k.call('POST', '/api/notes/add', admin, { text: 'first note' });
    expect(added.body.code).toBe(200);
    const id = added.body.data.id;
    const note = await until(async () => {
      const row = (await k.call('GET', `/api/notes/${id}`, admin)).body.data;
      return row?.indexed && row;
    }, { timeout: 30_000, interval: 200, what: `note ${id} to be indexed by its job` });
    expect(note).toMatchObject({ id, text: 'first note', indexed: true });
  });

  it('gives it its own configuration file and its own storage', async () => {
    expect((await k.call('GET', '/api/notes-public/settings')).body.data).toEqual({ config: { greeting: 'configured' } });
    const boundary = 'b0undary';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="hello.txt"\r\nContent-Type: text/plain\r\n\r\nhello storage\r\n--${boundary}--\r\n`;
    const res = await k.app.inject({ method: 'POST', url: '/api/notes/upload', headers: { jwt: admin, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(res.json().data.files).toEqual([{ filename: 'hello.txt', size: 13, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
  });

  it('lets a handler answer raw bytes', async () => {
    const res = await k.app.inject({ method: 'GET', url: '/api/notes/export', headers: { jwt: admin } });
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body).toMatch(/^\d+,first note/);
  });

  it('does not start a disabled plugin and keeps its menus out of the tree', async () => {
    const archive = await k.database.db.selectFrom('permissions').select(['key']).where('plugin_id', '=', 'archive').execute();
    expect(archive).toEqual([]);
    const info = (await k.call('GET', '/api/user/getUserInfoByToken', admin)).body.data;
    const menu = (await k.call('GET', `/api/permissionMenu/getPermissionMenu?userId=${info.user.id}&departmentId=${info.departmentRoleBos[0].department.id}`, admin)).body.data;
    expect(JSON.stringify(menu)).not.toContain('/archive');
  });
});

describe('the registry endpoint', () => {
  it('gives a super administrator every enabled plugin, never a disabled one', async () => {
    const res = await k.call('GET', '/api/plugins/registry', admin);
    expect(Object.keys(res.body.data.plugins)).toEqual(['notes']);
    expect(Object.keys(res.body.data.routes).sort()).toEqual(['/noteDetail', '/notes']);
    expect(res.body.data.sdkVersion).toBe('1.0.0');
  });

  it('gives a user only plugins whose menus they may reach, with their detail routes', async () => {
    await createUserWithRole(k, 'viewer', 'Viewer-pass-1', 'Viewer', ['menu:/notes']);
    await createUserWithRole(k, 'outsider', 'Outsider-pass-1', 'Outsider', ['notes:view']);
    const viewer = await k.call('GET', '/api/plugins/registry', await k.login('viewer', 'Viewer-pass-1'));
    expect(Object.keys(viewer.body.data.routes).sort()).toEqual(['/noteDetail', '/notes']);
    const outsider = await k.call('GET', '/api/plugins/registry', await k.login('outsider', 'Outsider-pass-1'));
    expect(outsider.body.data).toEqual({ sdkVersion: '1.0.0', plugins: {}, routes: {}, paths: ['/noteDetail', '/notes'], slots: {} });
  });

  it('lists every enabled plugin\'s route paths for everyone, never a disabled plugin\'s', async () => {
    await createUserWithRole(k, 'pathless', 'Pathless-pass-1', 'Pathless', ['notes:view']);
    for (const token of [admin, await k.login('pathless', 'Pathless-pass-1')]) {
      expect((await k.call('GET', '/api/plugins/registry', token)).body.data.paths).toEqual(['/noteDetail', '/notes']);
    }
  });

  it('sends slot contributions only of plugins the caller reaches, each behind its own permission', async () => {
    await createUserWithRole(k, 'reader', 'Reader-pass-1', 'Reader', ['menu:/notes']);
    await createUserWithRole(k, 'writer', 'Writer-pass-1', 'Writer', ['menu:/notes', 'notes:add']);
    await createUserWithRole(k, 'stranger', 'Stranger-pass-1', 'Stranger', ['notes:add']);
    const slotsFor = async (token: string) => (await k.call('GET', '/api/plugins/registry', token)).body.data.slots;
    expect(await slotsFor(await k.login('reader', 'Reader-pass-1'))).toEqual({ 'home.tiles': [{ plugin: 'notes', view: 'NotesTile', order: 20 }] });
    const both = { 'home.tiles': [{ plugin: 'notes', view: 'NotesAddTile', order: 10, permission: 'notes:add' }, { plugin: 'notes', view: 'NotesTile', order: 20 }] };
    expect(await slotsFor(await k.login('writer', 'Writer-pass-1'))).toEqual(both);
    // The button alone does not reach the plugin; the disabled archive never contributes, not even to the super administrator.
    expect(await slotsFor(await k.login('stranger', 'Stranger-pass-1'))).toEqual({});
    expect(await slotsFor(admin)).toEqual(both);
  });

  it('is closed to callers who are not signed in', async () => {
    expect((await k.call('GET', '/api/plugins/registry')).body.code).toBe(601);
  });
});

describe('serving the build output', () => {
  it('serves plugin bundles as immutable', async () => {
    const res = await k.app.inject({ method: 'GET', url: '/plugins/notes/notes-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await k.app.inject({ method: 'GET', url: '/plugins/notes/gone.js' })).statusCode).toBe(404);
  });

  it('serves the console page uncached, and falls back to it for page paths', async () => {
    for (const url of ['/', '/notes', '/login?redirect=/notes']) {
      const res = await k.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    const api = await k.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(api.json()).toMatchObject({ code: 404 });
  });
});

describe('the permission tree across enable and disable', () => {
  it('keeps the nodes of a plugin no longer enabled but serves them to nobody', async () => {
    const db = k.database.db;
    await syncPermissionTree(db, []);
    const kept = await db.selectFrom('permissions').select(['key', 'active']).where('plugin_id', '=', 'notes').orderBy('key').execute();
    expect(kept).toEqual([
      { key: 'menu:/notes', active: false },
      { key: 'notes:add', active: false },
      { key: 'notes:view', active: false },
    ]);
    const info = (await k.call('GET', '/api/user/getUserInfoByToken', admin)).body.data;
    const menu = (await k.call('GET', `/api/permissionMenu/getPermissionMenu?userId=${info.user.id}&departmentId=${info.departmentRoleBos[0].department.id}`, admin)).body.data;
    expect(menu.menusPermissionMenus).toEqual([]);
    // Re-enabling brings the same nodes (and so every role grant) back.
    const manifest = JSON.parse((await import('node:fs')).readFileSync(join(FIXTURES, 'plugins/notes/plugin.json'), 'utf8'));
    const { parseManifest } = await import('@linguaport/sdk/shared');
    await syncPermissionTree(db, [parseManifest(manifest)]);
    const back = await db.selectFrom('permissions').select(['key', 'active']).where('plugin_id', '=', 'notes').orderBy('key').execute();
    expect(back.every((r) => r.active)).toBe(true);
  });
});

describe('start-up refusals', () => {
  let testDb: TestDatabase;
  const dirs = mkdtempSync(join(tmpdir(), 'linguaport-bad-plugins-'));

  beforeAll(async () => {
    testDb = await openTestDatabase();
  });
  afterAll(async () => {
    await testDb?.cleanup();
  });

  /** A deployment set with one plugin made of this manifest and server source. */
  function deployment(name: string, manifest: object, server?: string): string {
    const dir = join(dirs, name);
    mkdirSync(join(dir, 'plugin', 'server'), { recursive: true });
    writeFileSync(join(dir, 'plugin', 'plugin.json'), JSON.stringify(manifest));
    if (server) writeFileSync(join(dir, 'plugin', 'server', 'index.ts'), server);
    writeFileSync(join(dir, 'registry.json'), JSON.stringify({ plugins: [{ id: (manifest as { id: string }).id, path: 'plugin', enabled: true }] }));
    return join(dir, 'registry.json');
  }
  const base = { version: '1.0.0', name: { 'zh-CN': '坏', 'en-US': 'Bad' }, sdk: '^1.0.0', i18n: ['bad'], routes: [{ path: '/bad', view: 'Bad', title: 'bad:title', menu: {} }] };
  const start = (registryFile: string) => createServer(testConfig(testDb.dataDir, testDb.databaseUrl, { registryFile, logLevel: 'silent' }), { database: testDb.database });

  it('refuses an invalid manifest, naming the file and the field', async () => {
    const file = deployment('invalid', { ...base, id: 'bad', routes: [{ path: 'no-slash', view: 'Bad', title: 'x', menu: {} }] });
    await expect(start(file)).rejects.toThrow(new RegExp(`${join(dirs, 'invalid', 'plugin', 'plugin.json')} is invalid: routes\\.0\\.path`));
  });

  it('refuses a plugin that needs another SDK', async () => {
    const file = deployment('sdk', { ...base, id: 'future', sdk: '^2.0.0' });
    await expect(start(file)).rejects.toThrow('plugin future needs SDK ^2.0.0, this server provides 1.0.0');
  });

  it('refuses a route without an access declaration', async () => {
    const server = `export default { setup(ctx) { ctx.route({ method: 'GET', url: '/bad/open', handler: () => 1 }); } };`;
    const file = deployment('noaccess', { ...base, id: 'noaccess', server: 'server/index.ts' }, server);
    await expect(start(file)).rejects.toThrow('plugin noaccess route GET /bad/open has no access declaration');
  });

  it('refuses a route guarded by a key the manifest does not declare', async () => {
    const server = `export default { setup(ctx) { ctx.route({ method: 'POST', url: '/bad/wipe', access: { permission: 'bad:wipe' }, handler: () => 1 }); } };`;
    const file = deployment('undeclared', { ...base, id: 'undeclared', server: 'server/index.ts' }, server);
    await expect(start(file)).rejects.toThrow("plugin undeclared route POST /bad/wipe needs permission bad:wipe, which the plugin's manifest does not declare");
  });

  it('refuses a plugin that claims a kernel route', async () => {
    const server = `export default { setup(ctx) { ctx.route({ method: 'POST', url: '/login', access: 'public', handler: () => 1 }); } };`;
    const file = deployment('thief', { ...base, id: 'thief', server: 'server/index.ts' }, server);
    await expect(start(file)).rejects.toThrow('route POST /login is registered twice: by core and by thief');
  });

  it('refuses a server entry without setup', async () => {
    const file = deployment('nosetup', { ...base, id: 'nosetup', server: 'server/index.ts' }, 'export default {};');
    await expect(start(file)).rejects.toThrow(/plugin nosetup: .* must default-export defineServerPlugin/);
  });
});
