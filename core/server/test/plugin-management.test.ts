import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@linguaport/sdk/testing';
import {
  FILES_LIST,
  generatePublisherKey,
  PACKAGE_FORMAT,
  sha256,
  SIGNATURE_FILE,
  signFilesList,
  writeTarGz,
  type FilesList,
  type TarEntry,
} from '@linguaport/sdk/package';
import { createServer } from '../src/server.js';
import { ADMIN_PASSWORD, createUserWithRole, encryptFor, startKernel, writeDist, type TestKernel } from './support/kernel.js';
import { englishCall } from './support/english.js';

/** Refusals are checked in their English wording: calls come from an English console (the locale cookie). */
const enCall: TestKernel['call'] = (...args) => englishCall(k)(...args);

// Plug-in management against one kernel with the plugin-host fixture set (`notes` enabled with a
// server part). Packages are built from tests/fixtures/partner/partner-notes by the packer's own
// builder, then re-signed or altered here to make each refusal.

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const PARTNER = join(ROOT, 'tests', 'fixtures', 'partner', 'partner-notes');
const LOGO = { filename: 'logo.png', data: Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f00000000049454e44ae426082', 'hex') };

interface Built {
  manifest: Record<string, any>;
  entries: TarEntry[];
  layout: Omit<FilesList, 'format' | 'id' | 'version' | 'files'>;
}

let k: TestKernel;
let admin: string;
let built: Built;
const trusted = generatePublisherKey();
const stranger = generatePublisherKey();
const serverKey = generatePublisherKey();

/** Re-assembles a package from the built files: manifest changes, extra files, signing key. */
function pack(options: { manifest?: Record<string, unknown>; extra?: TarEntry[]; key?: string | null; layout?: Partial<Built['layout']>; after?: (entries: TarEntry[]) => TarEntry[] } = {}): Buffer {
  const manifest = { ...built.manifest, ...options.manifest };
  const entries = built.entries.map((e) => (e.path === 'plugin.json' ? { path: e.path, data: Buffer.from(JSON.stringify(manifest)) } : e)).concat(options.extra ?? []);
  const list: FilesList = {
    format: PACKAGE_FORMAT,
    id: manifest.id,
    version: manifest.version,
    ...built.layout,
    ...options.layout,
    files: entries.map((e) => ({ path: e.path, size: e.data.length, sha256: sha256(e.data) })),
  };
  let all = [...entries, { path: FILES_LIST, data: Buffer.from(JSON.stringify(list)) }];
  const key = options.key === undefined ? trusted.privateKeyPem : options.key;
  if (key) all.push({ path: SIGNATURE_FILE, data: Buffer.from(JSON.stringify(signFilesList(list, key))) });
  if (options.after) all = options.after(all);
  return writeTarGz(all);
}

function multipart(fields: Record<string, string>, files: Record<string, { filename: string; data: Buffer }>) {
  const boundary = `----lp${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const [name, f] of Object.entries(files)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${f.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`), f.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(archive: Buffer, token = admin, fields: Record<string, string> = {}, locale = 'en-US') {
  const version = fields.version ?? JSON.parse(readFileSync(join(PARTNER, 'plugin.json'), 'utf8')).version;
  const body = multipart({ version, type: 'console', description: 'Partner notes for tests', ...fields }, { file: { filename: 'partner-notes.tgz', data: archive }, logo: LOGO });
  const res = await k.app.inject({ method: 'POST', url: '/api/plugIn/upload', headers: { jwt: token, cookie: `locale=${locale}`, 'content-type': body.contentType }, payload: body.payload });
  return res.json();
}

async function nothingInstalled(id = 'partner-notes') {
  expect(await k.database.db.selectFrom('plugin_state').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
  expect(existsSync(join(k.config.dataDir, 'plugins', id))).toBe(false);
}

const registryOf = async (token: string) => (await enCall('GET', '/api/plugins/registry', token)).body.data;

beforeAll(async () => {
  k = await startKernel({}, {}, (config) =>
    writeDist(config.distDir, {
      sdkVersion: '1.0.0',
      plugins: {
        notes: { id: 'notes', version: '1.2.0', name: { 'zh-CN': '笔记', 'en-US': 'Notes' }, type: 'console', sdk: '^1.0.0', bundle: '/plugins/notes/notes-abc123.js', integrity: 'sha384-x', css: null, cssIntegrity: null, locales: { 'zh-CN': '', 'en-US': '' }, i18n: ['notes'], routes: [{ path: '/notes', view: 'Notes', title: 'notes:title', menu: { icon: 'document', order: 5, showInShortcut: false }, fluid: false }], permissions: [] },
      },
      routes: { '/notes': { plugin: 'notes', view: 'Notes', title: 'notes:title', fluid: false } },
    }),
  );
  admin = await k.login('admin', ADMIN_PASSWORD);
  // The packer's builder, as `npm run pack-plugin` uses it.
  const { buildPackageFiles } = await import('../../../scripts/lib/pack.mjs');
  const sharedModules = JSON.parse(readFileSync(join(ROOT, 'core', 'console', 'shared-modules.json'), 'utf8')).modules;
  built = await buildPackageFiles(PARTNER, { rootDir: ROOT, sharedModules });
  for (const [name, key, allowServer] of [['Test partner', trusted, false], ['Server partner', serverKey, true]] as const) {
    const res = await enCall('POST', '/api/plugIn/trustedKeys', admin, { name, publicKey: key.publicKeyPem, allowServer });
    expect(res.body).toMatchObject({ code: 200, data: { keyId: key.keyId } });
  }
}, 120_000);
afterAll(async () => {
  await k?.shutdown();
});

describe('upload refusals (each names the check and installs nothing)', () => {
  const cases: [string, () => Buffer, RegExp][] = [
    ['a tampered file', () => pack({ after: (es) => es.map((e) => (e.path.startsWith('bundle/') ? { path: e.path, data: Buffer.concat([e.data, Buffer.from('//x')]) } : e)) }), /bundle\/partner-notes-[0-9a-f]+\.js does not match its SHA-256 in files\.json/],
    ['a tampered files list', () => pack({ after: (es) => es.map((e) => (e.path === FILES_LIST ? { path: e.path, data: Buffer.from(e.data.toString().replace(/("path":"locales\/zh-CN\.json","size":)(\d+)/, (_m, a, n) => `${a}${Number(n) + 1}`)) } : e)) }), /signature does not match files\.json/],
    ['an unsigned package', () => pack({ key: null }), /unsigned \(no signature\.json\)/],
    ['a package signed by an untrusted key', () => pack({ key: stranger.privateKeyPem }), new RegExp(`signed by key ${stranger.keyId}, which is not a trusted publisher key`)],
    ['a path escaping the package', () => pack({ extra: [{ path: '../escape.txt', data: Buffer.from('x') }] }), /\.\.\/escape\.txt points outside the package/],
    ['a symbolic link', symlinkArchive, /is a symbolic link; packages hold plain files only/],
    ['a package over 2 MB', () => pack({ extra: [{ path: 'padding.bin', data: randomBytes(2 * 1024 * 1024 + 10) }] }), /must be under 2 MB/],
    ['a route another plugin owns', () => pack({ manifest: { routes: [{ path: '/notes', view: 'PartnerNotes', title: 'partnerNotes:title', menu: { icon: 'annotation', order: 90 } }] } }), /route \/notes is already owned by plugin notes/],
    ['the sign-in page', () => pack({ manifest: { routes: [{ path: '/login', view: 'PartnerNotes', title: 'partnerNotes:title', menu: { icon: 'annotation', order: 90 } }] } }), /route \/login belongs to the platform/],
    ['a menu group', () => pack({ manifest: { routes: [{ path: '/group/system', view: 'PartnerNotes', title: 'partnerNotes:title', menu: { icon: 'annotation', order: 90 } }] } }), /route \/group\/system belongs to the platform/],
    ['another plugin\'s route spelt in other case', () => pack({ manifest: { routes: [{ path: '/Notes/', view: 'PartnerNotes', title: 'partnerNotes:title', menu: { icon: 'annotation', order: 90 } }] } }), /route \/Notes\/ is already owned by plugin notes/],
    ['a permission under another plugin\'s menu', () => pack({ manifest: { permissions: [{ key: 'partnerNotes:x', type: 'button', name: { 'zh-CN': 'x', 'en-US': 'x' }, menu: '/notes' }] } }), /permission partnerNotes:x names menu \/notes, which is not a menu route of this package/],
    ['a permission key another plugin owns', () => pack({ manifest: { permissions: [{ key: 'notes:add', type: 'button', name: { 'zh-CN': 'x', 'en-US': 'x' } }] } }), /permission key notes:add is already owned by plugin notes/],
    ['a server part from a key not trusted for server code', () => pack({ manifest: { server: 'server/index.mjs' }, layout: { server: 'server/index.mjs' }, extra: [{ path: 'server/index.mjs', data: Buffer.from('export default {}') }] }), /has a server part, and key [0-9a-f]{16} is not trusted for server code/],
    ['an SDK range this platform does not meet', () => pack({ manifest: { sdk: '^2.0.0' } }), /needs SDK \^2\.0\.0; this platform provides SDK 1\.0\.0/],
    ['something that is not a package', () => Buffer.from('not a tar at all'), /not a gzip'd tar archive/],
  ];
  for (const [what, make, message] of cases) {
    it(`refuses ${what}`, async () => {
      const res = await upload(make());
      expect(res.code).toBe(400);
      expect(res.msg).toMatch(message);
      expect(res.msg).toMatch(/Nothing was installed/);
      await nothingInstalled();
    });
  }

  it('refuses a version whose pre-release part would leave the package folder', async () => {
    const res = await upload(pack({ manifest: { version: '1.0.0-x/../../../evil' } }), admin, { version: '1.0.0-x/../../../evil' });
    // npm's semver refuses it in the manifest already (a pre-release holds only [0-9A-Za-z.-]).
    expect(res.msg).toMatch(/plugin\.json is invalid: version: version must be x\.y\.z/);
    await nothingInstalled();
    expect(existsSync(join(k.config.dataDir, 'evil'))).toBe(false);
  });

  it('refuses a version field that disagrees with the package', async () => {
    const res = await upload(pack(), admin, { version: '9.9.9' });
    expect(res.msg).toMatch(/version field says 9\.9\.9 but the package is version 1\.0\.0/);
    await nothingInstalled();
    // A Chinese console reads the platform's own check in Chinese.
    expect((await upload(pack(), admin, { version: '9.9.9' }, 'zh-CN')).msg).toBe('插件包被拒绝：版本字段为 9.9.9，但插件包的版本是 1.0.0。未安装任何内容。');
    await nothingInstalled();
  });

  it('answers 403 and changes nothing for a caller without plugIn:upload', async () => {
    await createUserWithRole(k, 'plain', 'Plain-pass-1', 'Plain', []);
    const res = await upload(pack(), await k.login('plain', 'Plain-pass-1'));
    expect(res.code).toBe(403);
    await nothingInstalled();
  });
});

function randomBytes(n: number): Buffer {
  // Incompressible, so the gzip'd archive really is over the limit.
  return Buffer.from(Array.from({ length: n }, () => Math.floor(Math.random() * 256)));
}

/** An archive whose second entry is a symbolic link (type 2), written by hand. */
function symlinkArchive(): Buffer {
  const good = pack();
  const tar = gunzipSync(good);
  const h = Buffer.alloc(512);
  h.write('link-to-etc', 0);
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write('00000000000\0', 124);
  h.write('00000000000\0', 136);
  h.write('2', 156);
  h.write('/etc/passwd', 157);
  h.write('ustar\0' + '00', 257);
  h.write('        ', 148);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  return gzipSync(Buffer.concat([h, tar]));
}

describe('install, publish, unpublish', () => {
  let user: string;
  let roleId: number;

  it('installs a verified package unpublished: in the list, not in anyone\'s registry', async () => {
    const res = await upload(pack());
    expect(res).toMatchObject({ code: 200, data: { id: 'partner-notes', version: '1.0.0', status: 'new' } });
    const list = (await enCall('GET', '/api/plugIn/list?source=package', admin)).body.data;
    expect(list.records).toEqual([expect.objectContaining({ id: 'partner-notes', version: '1.0.0', published: false, publisher: trusted.keyId, signatureState: 'verified', fileName: 'partner-notes.tgz', description: 'Partner notes for tests', flagged: false })]);
    expect(list.records[0].logo).toBe('/plugins/partner-notes/1.0.0/uploaded-logo.png');
    expect(Object.keys((await registryOf(admin)).plugins)).not.toContain('partner-notes');
  });

  it('refuses the same version again', async () => {
    expect((await upload(pack())).msg).toMatch(/1\.0\.0 is installed; an upload must be a higher version/);
  });

  it('publishes: the registry serves it with a working bundle URL and integrity, its menu joins the tree unassigned', async () => {
    expect((await enCall('POST', '/api/plugIn/publish/partner-notes', admin)).body.code).toBe(200);
    const entry = (await registryOf(admin)).plugins['partner-notes'];
    expect(entry.bundle).toMatch(/^\/plugins\/partner-notes\/1\.0\.0\/bundle\/partner-notes-[0-9a-f]+\.js$/);
    const bundle = await k.app.inject({ method: 'GET', url: entry.bundle });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['cache-control']).toContain('immutable');
    expect(entry.integrity).toBe(`sha384-${(await import('node:crypto')).createHash('sha384').update(bundle.rawPayload).digest('base64')}`);
    expect((await k.app.inject({ method: 'GET', url: entry.locales['en-US'] })).json()).toEqual({ partnerNotes: expect.objectContaining({ title: 'Partner notes' }) });
    const node = await k.database.db.selectFrom('permissions').select(['key', 'active', 'name_en']).where('key', '=', 'menu:/partnerNotes').executeTakeFirst();
    expect(node).toEqual({ key: 'menu:/partnerNotes', active: true, name_en: 'Partner notes' });
    expect(await k.database.db.selectFrom('role_permissions').innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id').select('role_id').where('key', '=', 'menu:/partnerNotes').execute()).toEqual([]);
  });

  it('reaches a user once a role grants its menu', async () => {
    ({ roleId } = await createUserWithRole(k, 'reader', 'Reader-pass-1', 'Reader', []));
    user = await k.login('reader', 'Reader-pass-1');
    expect(Object.keys((await registryOf(user)).plugins)).toEqual([]);
    const perm = await k.database.db.selectFrom('permissions').select('id').where('key', '=', 'menu:/partnerNotes').executeTakeFirstOrThrow();
    await k.database.db.insertInto('role_permissions').values({ role_id: roleId, permission_id: perm.id }).execute();
    expect(Object.keys((await registryOf(user)).plugins)).toEqual(['partner-notes']);
  });

  it('unpublishes: gone from the registry, its menu inactive, the grant kept', async () => {
    expect((await enCall('POST', '/api/plugIn/unpublish/partner-notes', admin)).body.code).toBe(200);
    expect(Object.keys((await registryOf(user)).plugins)).toEqual([]);
    expect((await k.database.db.selectFrom('permissions').select('active').where('key', '=', 'menu:/partnerNotes').executeTakeFirstOrThrow()).active).toBe(false);
    await enCall('POST', '/api/plugIn/publish/partner-notes', admin);
    expect(Object.keys((await registryOf(user)).plugins)).toEqual(['partner-notes']);
  });

  it('shows the routes, menus and permission keys in the details', async () => {
    const d = (await enCall('GET', '/api/plugIn/details/partner-notes', admin)).body.data;
    expect(d.routes).toEqual([{ path: '/partnerNotes', view: 'PartnerNotes', menu: true, parent: null }]);
    expect(d.menus).toEqual([{ path: '/partnerNotes', key: 'menu:/partnerNotes', group: null }]);
    expect(d.permissions).toEqual([expect.objectContaining({ key: 'partnerNotes:write', type: 'button' })]);
  });
});

describe('upgrade and roll back', () => {
  it('stages a higher version, upgrades to it, and rolls back', async () => {
    const staged = await upload(pack({ manifest: { version: '1.1.0' } }), admin, { version: '1.1.0' });
    expect(staged.data).toEqual({ id: 'partner-notes', version: '1.1.0', status: 'staged' });
    expect((await registryOf(admin)).plugins['partner-notes'].version).toBe('1.0.0');
    const up = await enCall('POST', '/api/plugIn/upgrade/partner-notes', admin);
    expect(up.body.data).toMatchObject({ version: '1.1.0', previousVersion: '1.0.0', stagedVersion: null });
    expect((await registryOf(admin)).plugins['partner-notes'].bundle).toContain('/partner-notes/1.1.0/');
    const back = await enCall('POST', '/api/plugIn/rollback/partner-notes', admin);
    expect(back.body.data).toMatchObject({ version: '1.0.0', previousVersion: '1.1.0' });
    expect((await registryOf(admin)).plugins['partner-notes'].version).toBe('1.0.0');
  });

  it('orders versions as npm does: 1.0.0 is an upgrade of 1.0.0-beta, 1.0.0-beta.2 is not of 1.0.0-beta.10', async () => {
    const manifest = (version: string) => ({
      id: 'partner-beta',
      version,
      routes: [{ path: '/partnerBeta', view: 'PartnerNotes', title: 'partnerNotes:title', menu: { icon: 'annotation', order: 91 } }],
      permissions: [{ key: 'partnerBeta:write', type: 'button', name: { 'zh-CN': '写', 'en-US': 'Write' } }],
    });
    const send = (version: string) => upload(pack({ manifest: manifest(version) }), admin, { version });
    expect((await send('1.0.0-beta.10')).data).toEqual({ id: 'partner-beta', version: '1.0.0-beta.10', status: 'new' });
    expect((await send('1.0.0-beta.2')).msg).toMatch(/1\.0\.0-beta\.10 is installed; an upload must be a higher version, not 1\.0\.0-beta\.2/);
    expect((await send('1.0.0')).data).toEqual({ id: 'partner-beta', version: '1.0.0', status: 'staged' });
    expect((await enCall('DELETE', '/api/plugIn/delete/partner-beta', admin)).body.code).toBe(200);
    await nothingInstalled('partner-beta');
  });
});

describe('built-in feature areas', () => {
  it('disables an area: menus and registry drop it, its API answers 404, its data stays; enabling brings it back', async () => {
    const added = await enCall('POST', '/api/notes/add', admin, { text: 'kept' });
    expect(added.body.code).toBe(200);
    expect((await enCall('POST', '/api/plugIn/enable/notes', admin, { enabled: false })).body.data).toMatchObject({ enabled: false, live: false });
    const off = await enCall('GET', `/api/notes/${added.body.data.id}`, admin);
    expect(off.status).toBe(404);
    expect(off.body.msg).toContain('feature area notes is disabled');
    expect(Object.keys((await registryOf(admin)).plugins)).not.toContain('notes');
    expect((await k.database.db.selectFrom('permissions').select('active').where('key', '=', 'menu:/notes').executeTakeFirstOrThrow()).active).toBe(false);
    await enCall('POST', '/api/plugIn/enable/notes', admin, { enabled: true });
    expect((await enCall('GET', `/api/notes/${added.body.data.id}`, admin)).body.data).toMatchObject({ text: 'kept' });
    expect(Object.keys((await registryOf(admin)).plugins)).toContain('notes');
  });

  it('refuses to publish, upgrade or delete a built-in', async () => {
    expect((await enCall('DELETE', '/api/plugIn/delete/notes', admin)).body.msg).toMatch(/built-in feature area/);
  });

  it('answers 403 and changes nothing for a caller without the keys', async () => {
    const plain = await k.login('plain', 'Plain-pass-1');
    for (const [method, url, body] of [
      ['POST', '/api/plugIn/enable/notes', { enabled: false }],
      ['POST', '/api/plugIn/unpublish/partner-notes', undefined],
      ['POST', '/api/plugIn/rollback/partner-notes', undefined],
      ['DELETE', '/api/plugIn/delete/partner-notes', undefined],
      ['POST', '/api/plugIn/trustedKeys', { name: 'x', publicKey: stranger.publicKeyPem }],
    ] as const) {
      expect((await enCall(method, url, plain, body)).status).toBe(403);
    }
    const rows = await k.database.db.selectFrom('plugin_state').select(['id', 'enabled', 'published', 'current_version']).where('id', 'in', ['notes', 'partner-notes']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'notes', enabled: true, published: true, current_version: '1.2.0' },
      { id: 'partner-notes', enabled: true, published: true, current_version: '1.0.0' },
    ]);
  });
});

describe('containment', () => {
  it('flags a plugin after 5 load failures of its version from 3 distinct users', async () => {
    const tokens = [admin, await k.login('reader', 'Reader-pass-1'), await k.login('plain', 'Plain-pass-1')];
    const report = (token: string) => enCall('POST', '/api/plugins/reportFailure', token, { pluginId: 'partner-notes', version: '1.0.0', kind: 'load', message: 'integrity mismatch' });
    for (const t of [tokens[0], tokens[0], tokens[1], tokens[1]]) expect((await report(t)).body.code).toBe(200);
    const row = async () => (await enCall('GET', '/api/plugIn/list?source=package', admin)).body.data.records[0];
    expect(await row()).toMatchObject({ failures: 4, failureUsers: 2, flagged: false });
    await report(tokens[2]);
    expect(await row()).toMatchObject({ failures: 5, failureUsers: 3, flagged: true });
  });
});

describe('delete', () => {
  it('removes the package, its files and its registry entry', async () => {
    expect((await enCall('DELETE', '/api/plugIn/delete/partner-notes', admin)).body.code).toBe(200);
    await nothingInstalled();
    expect(Object.keys((await registryOf(admin)).plugins)).not.toContain('partner-notes');
  });
});

describe('download-type packages', () => {
  it('lists a published download for signed-in users with a link to the uploaded file', async () => {
    const archive = pack({ manifest: { id: 'office-addin', type: 'download', routes: [], permissions: [] } });
    expect((await upload(archive, admin, { type: 'download' })).data).toMatchObject({ id: 'office-addin', status: 'new' });
    const reader = await k.login('reader', 'Reader-pass-1');
    expect((await enCall('GET', '/api/plugIn/downloads', reader)).body.data).toEqual([]);
    await enCall('POST', '/api/plugIn/publish/office-addin', admin);
    const [item] = (await enCall('GET', '/api/plugIn/downloads', reader)).body.data;
    expect(item).toMatchObject({ id: 'office-addin', version: '1.0.0', fileName: 'partner-notes.tgz', url: '/api/plugIn/download/office-addin' });
    const file = await k.app.inject({ method: 'GET', url: item.url, headers: { jwt: reader } });
    expect(file.rawPayload.equals(archive)).toBe(true);
    expect(file.headers['content-disposition']).toBe('attachment; filename="partner-notes.tgz"');
    // A download is not a console feature: it never enters the registry.
    expect(Object.keys((await registryOf(admin)).plugins)).not.toContain('office-addin');
  });

  it('serves the uploaded original to signed-in users only, never as a static file', async () => {
    const anonymous = await k.app.inject({ method: 'GET', url: '/api/plugIn/download/office-addin' });
    expect(anonymous.json()).toMatchObject({ code: 601 });
    expect(anonymous.rawPayload.includes(Buffer.from('plugin.json'))).toBe(false);
    for (const url of ['/plugins/office-addin/1.0.0/original/partner-notes.tgz', '/plugins/office-addin/1.0.0/%6Friginal/partner-notes.tgz', '/plugins/office-addin/1.0.0/./original/partner-notes.tgz', '/plugins/office-addin/1.0.0/original/']) {
      const res = await k.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.rawPayload.length, url).toBeLessThan(100);
    }
    const unpublished = pack({ manifest: { id: 'unlisted-addin', type: 'download', routes: [], permissions: [] } });
    expect((await upload(unpublished, admin, { type: 'download' })).code).toBe(200);
    const reader = await k.login('reader', 'Reader-pass-1');
    expect((await enCall('GET', '/api/plugIn/download/unlisted-addin', reader)).body.code).toBe(404);
    expect((await enCall('DELETE', '/api/plugIn/delete/unlisted-addin', admin)).body.code).toBe(200);
  });
});

describe('uploaded files never run in the console origin', () => {
  const evil = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>fetch("/api/user/info")</script><rect width="10" height="10"/></svg>');

  it('keeps an uploaded SVG logo with script as a PNG drawn from it', async () => {
    const archive = pack({ manifest: { id: 'svg-logo', type: 'download', routes: [], permissions: [] } });
    const body = multipart({ version: '1.0.0', type: 'download' }, { file: { filename: 'svg-logo.tgz', data: archive }, logo: { filename: 'evil.svg', data: evil } });
    const res = await k.app.inject({ method: 'POST', url: '/api/plugIn/upload', headers: { jwt: admin, 'content-type': body.contentType }, payload: body.payload });
    expect(res.json()).toMatchObject({ code: 200 });
    const logo = (await enCall('GET', '/api/plugIn/details/svg-logo', admin)).body.data.logo;
    expect(logo).toBe('/plugins/svg-logo/1.0.0/uploaded-logo.png');
    const served = await k.app.inject({ method: 'GET', url: logo });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(served.rawPayload.includes('script')).toBe(false);
    expect((await enCall('DELETE', '/api/plugIn/delete/svg-logo', admin)).body.code).toBe(200);
  });

  it('serves an SVG a package carries as a sandboxed, unsniffed download', async () => {
    const archive = pack({ manifest: { id: 'svg-logo', type: 'download', routes: [], permissions: [] }, extra: [{ path: 'evil.svg', data: evil }] });
    const body = multipart({ version: '1.0.0', type: 'download' }, { file: { filename: 'svg-logo.tgz', data: archive }, logo: LOGO });
    const res = await k.app.inject({ method: 'POST', url: '/api/plugIn/upload', headers: { jwt: admin, 'content-type': body.contentType }, payload: body.payload });
    expect(res.json()).toMatchObject({ code: 200 });
    const served = await k.app.inject({ method: 'GET', url: '/plugins/svg-logo/1.0.0/evil.svg' });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-disposition']).toBe('attachment');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const csp = String(served.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/(^|; )sandbox(;|$)/);
    expect(csp).not.toMatch(/script-src/);
    expect((await enCall('DELETE', '/api/plugIn/delete/svg-logo', admin)).body.code).toBe(200);
  });

  it('sends every static file and API answer with nosniff and a policy that runs no script', async () => {
    for (const url of ['/plugins/notes/notes-abc123.js', '/api/plugins/registry', '/api/no/such/call']) {
      const res = await k.app.inject({ method: 'GET', url, headers: { jwt: admin } });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(String(res.headers['content-security-policy']), url).toMatch(/default-src 'none'.*sandbox/);
    }
  });

  it('serves the console page under its own policy: script from its origin only, no inline script', async () => {
    for (const url of ['/', '/home', '/index.html']) {
      const res = await k.app.inject({ method: 'GET', url });
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("script-src 'self' 'unsafe-eval'");
      expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp, url).toContain("object-src 'none'");
      expect(csp, url).toContain("connect-src 'self'");
    }
  });
});

describe('a server part from a key trusted for server code', () => {
  // A server part with a GET (query schema), a POST (body schema, recorded in the operation log) and a path parameter.
  const serverSource = (tag: string) =>
    "import { z } from 'zod';\n" +
    "const q = z.object({ n: z.coerce.number().default(1) });\n" +
    "const b = z.object({ text: z.string().min(1) });\n" +
    'export default { setup(ctx) {\n' +
    `  ctx.route({ method: 'GET', url: '/partner-server/ping', access: 'signed-in', schema: { query: q }, handler: ({ query }) => ({ pong: ctx.pluginId, tag: '${tag}', n: query.n }) });\n` +
    "  ctx.route({ method: 'POST', url: '/partner-server/echo/:id', access: 'signed-in', summary: 'Echo', schema: { body: b }, handler: ({ params, body }) => ({ id: params.id, text: body.text }) });\n" +
    '} };\n';
  const serverPackage = (version: string, tag: string) =>
    pack({
      key: serverKey.privateKeyPem,
      manifest: { id: 'partner-server', version, server: 'server/index.mjs', routes: [{ path: '/partnerServer', view: 'PartnerNotes', title: 'partnerNotes:title', menu: { icon: 'annotation', order: 92 } }], permissions: [] },
      layout: { server: 'server/index.mjs' },
      extra: [{ path: 'server/index.mjs', data: Buffer.from(serverSource(tag)) }],
    });
  const details = async () => (await enCall('GET', '/api/plugIn/details/partner-server', admin)).body.data;

  it('starts live when published: routes answer at once through the access checks, validation, envelope and operation log', async () => {
    expect((await upload(serverPackage('1.0.0', 'v1'), admin, { version: '1.0.0' })).data).toMatchObject({ id: 'partner-server', status: 'new' });
    expect((await details()).serverPart).toBe('off');
    expect((await enCall('GET', '/api/partner-server/ping', admin)).status).toBe(404);
    await enCall('POST', '/api/plugIn/publish/partner-server', admin);
    expect((await details()).serverPart).toBe('running');
    expect((await enCall('GET', '/api/partner-server/ping?n=3', admin)).body.data).toEqual({ pong: 'partner-server', tag: 'v1', n: 3 });
    // The same rules as any route: a token is required, the body is validated, the path parameter is read.
    expect((await enCall('GET', '/api/partner-server/ping')).body.code).toBe(601);
    const bad = await enCall('POST', '/api/partner-server/echo/7', admin, { text: '' });
    expect(bad.body).toMatchObject({ code: 400 });
    expect(bad.body.msg).toMatch(/text/);
    expect((await enCall('POST', '/api/partner-server/echo/7', admin, { text: 'hi' })).body).toMatchObject({ code: 200, data: { id: '7', text: 'hi' } });
    const row = await until(() => k.database.db.selectFrom('operation_log').selectAll().where('url', '=', '/api/partner-server/echo/7').where('outcome', '=', 'success').executeTakeFirst(), { timeout: 5000 });
    expect(row).toMatchObject({ method: 'POST', operator_name: 'admin' });
  });

  it('stops when unpublished and starts again when published', async () => {
    await enCall('POST', '/api/plugIn/unpublish/partner-server', admin);
    expect((await enCall('GET', '/api/partner-server/ping', admin)).status).toBe(404);
    expect((await details()).serverPart).toBe('off');
    await enCall('POST', '/api/plugIn/publish/partner-server', admin);
    expect((await enCall('GET', '/api/partner-server/ping', admin)).body.data).toMatchObject({ tag: 'v1' });
  });

  it('serves the new version after an upgrade and the old one after a roll back, without a restart', async () => {
    expect((await upload(serverPackage('1.1.0', 'v2'), admin, { version: '1.1.0' })).data).toMatchObject({ status: 'staged' });
    expect((await enCall('GET', '/api/partner-server/ping', admin)).body.data).toMatchObject({ tag: 'v1' });
    await enCall('POST', '/api/plugIn/upgrade/partner-server', admin);
    expect((await enCall('GET', '/api/partner-server/ping', admin)).body.data).toMatchObject({ tag: 'v2' });
    expect((await details()).serverPart).toBe('running');
    await enCall('POST', '/api/plugIn/rollback/partner-server', admin);
    expect((await enCall('GET', '/api/partner-server/ping', admin)).body.data).toMatchObject({ tag: 'v1' });
  });

  it('shows a server part that fails to start as failed, with its reason, and registers none of its routes', async () => {
    const broken = "export default { setup(ctx) { ctx.route({ method: 'GET', url: '/partner-broken/x', access: 'signed-in', handler: () => 1 }); throw new Error('no licence server configured'); } };\n";
    const archive = pack({
      key: serverKey.privateKeyPem,
      manifest: { id: 'partner-broken', server: 'server/index.mjs', routes: [{ path: '/partnerBroken', view: 'PartnerNotes', title: 'partnerNotes:title', menu: { icon: 'annotation', order: 93 } }], permissions: [] },
      layout: { server: 'server/index.mjs' },
      extra: [{ path: 'server/index.mjs', data: Buffer.from(broken) }],
    });
    expect((await upload(archive)).data).toMatchObject({ id: 'partner-broken', status: 'new' });
    await enCall('POST', '/api/plugIn/publish/partner-broken', admin);
    const d = (await enCall('GET', '/api/plugIn/details/partner-broken', admin)).body.data;
    expect(d).toMatchObject({ serverPart: 'failed' });
    expect(d.serverError).toContain('no licence server configured');
    expect((await enCall('GET', '/api/partner-broken/x', admin)).status).toBe(404);
    expect((await enCall('DELETE', '/api/plugIn/delete/partner-broken', admin)).body.code).toBe(200);
  });

  it('starts with the server after a restart, its imports resolved, and follows the live state', async () => {
    await k.close();
    const again = await createServer(k.config, { database: k.testDb.database, now: () => k.clock.now, logStream: { write: (l) => void k.logLines.push(l) }, print: () => {} });
    try {
      const call = async (method: 'GET' | 'POST', url: string, token: string, payload?: object) => {
        const res = await again.app.inject({ method, url, headers: { jwt: token }, ...(payload ? { payload } : {}) });
        return { status: res.statusCode, body: res.json() };
      };
      const key = (await again.app.inject({ method: 'GET', url: '/api/user/getOnePublicKey' })).json().data;
      const login = await again.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: encryptFor(key, ADMIN_PASSWORD), publicKey: key, symbol: '' } });
      const token = login.json().data.token;
      expect((await call('GET', '/api/partner-server/ping?n=3', token)).body.data).toEqual({ pong: 'partner-server', tag: 'v1', n: 3 });
      expect((await call('GET', '/api/plugIn/details/partner-server', token)).body.data.serverPart).toBe('running');
      // Started after a restart it is replaced live too (roll back once more: 1.1.0 becomes current).
      expect((await call('POST', '/api/plugIn/rollback/partner-server', token)).body.data).toMatchObject({ version: '1.1.0' });
      expect((await call('GET', '/api/partner-server/ping', token)).body.data).toMatchObject({ tag: 'v2' });
      await call('POST', '/api/plugIn/unpublish/partner-server', token);
      expect((await call('GET', '/api/partner-server/ping', token)).status).toBe(404);
    } finally {
      await again.close();
    }
  }, 120_000);
});
