import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseManifest } from '@linguaport/sdk/shared';
import { runMigrations } from '../src/db/migrations.js';
import { coreMigrations } from '../src/db/core-migrations.js';
import { accessMigrations } from '../src/access/migrations.js';
import { syncPermissionTree } from '../src/access/permission-tree.js';
import { openTestDatabase, type TestDatabase } from './support/test-database.js';

// An installation made before the team roles existed: migration 003 adds them, the next sync grants
// them what the manifests name them for (and the normal user's defaults), and never admin permissions.

const manifest = parseManifest({
  id: 'area',
  version: '1.0.0',
  name: { 'zh-CN': '区域', 'en-US': 'Area' },
  sdk: '^1.0.0',
  i18n: ['area'],
  routes: [
    { path: '/open', view: 'Open', title: 'area:open', menu: { defaultGrant: true } },
    { path: '/work', view: 'Work', title: 'area:work', menu: { roles: ['translator', 'reviewer'] } },
  ],
  permissions: [
    { key: 'area:use', type: 'button', name: { 'zh-CN': '使用', 'en-US': 'Use' }, menu: '/work', roles: ['translator', 'reviewer'] },
    { key: 'area:review', type: 'button', name: { 'zh-CN': '审核', 'en-US': 'Review' }, menu: '/work', roles: ['reviewer'] },
    { key: 'area:all', type: 'button', name: { 'zh-CN': '管理所有人的', 'en-US': "Manage everyone's" }, menu: '/work', admin: true },
  ],
});

describe('team roles on an existing installation', () => {
  let t: TestDatabase;
  const db = () => t.database.db;
  const keysOf = async (builtin: string) =>
    (
      await db()
        .selectFrom('role_permissions as rp')
        .innerJoin('roles as r', 'r.id', 'rp.role_id')
        .innerJoin('permissions as p', 'p.id', 'rp.permission_id')
        .select('p.key')
        .where('r.builtin', '=', builtin)
        .where('p.plugin_id', '=', 'area')
        .orderBy('p.key')
        .execute()
    ).map((r) => r.key);

  beforeAll(async () => {
    t = await openTestDatabase();
    await runMigrations(t.database, 'core', coreMigrations);
    // The database as it was: identity tables and seeds, a synced tree, an administrator's own role named like a team role.
    await runMigrations(t.database, 'core.access', accessMigrations.slice(0, 2));
    const before = { ...manifest, routes: manifest.routes, permissions: manifest.permissions.map(({ roles: _r, admin: _a, ...p }) => p) };
    await db().insertInto('roles').values({ name: '项目经理', description: 'ours' }).execute();
    await syncPermissionTreeBefore003(before);
    // Up to 003 only: the migrations after it are not this test's subject.
    const upTo003 = accessMigrations.slice(0, accessMigrations.findIndex((m) => m.name === '003_team_roles') + 1);
    expect(await runMigrations(t.database, 'core.access', upTo003)).toEqual(['003_team_roles']);
  });
  afterAll(async () => t?.cleanup());

  // Before 003 the tree had no admin column: the old sync is the insert of plain nodes.
  async function syncPermissionTreeBefore003(m: typeof manifest) {
    for (const r of m.routes) await db().insertInto('permissions').values({ key: `menu:${r.path}`, plugin_id: 'area', name_zh: r.path, name_en: r.path, type: 1, path: r.path }).execute();
    for (const p of m.permissions) await db().insertInto('permissions').values({ key: p.key, plugin_id: 'area', name_zh: p.name['zh-CN'], name_en: p.name['en-US'], type: 2, path: p.menu ?? null }).execute();
  }

  it('adds the translator and reviewer, marks the seeded roles built in, and leaves an administrator\'s role of the same name alone', async () => {
    const roles = await db().selectFrom('roles').select(['name', 'builtin', 'description']).orderBy('id').execute();
    expect(roles.map((r) => [r.name, r.builtin])).toEqual([
      ['超级管理员', 'super'],
      ['普通用户', 'normal'],
      ['项目经理', null],
      ['翻译员', 'translator'],
      ['审校员', 'reviewer'],
    ]);
    expect(roles.find((r) => r.name === '项目经理')!.description).toBe('ours');
  });

  it('grants them their work and the defaults at the next sync, and no admin permission', async () => {
    await syncPermissionTree(db(), [manifest]);
    expect(await keysOf('translator')).toEqual(['area:use', 'menu:/open', 'menu:/work']);
    expect(await keysOf('reviewer')).toEqual(['area:review', 'area:use', 'menu:/open', 'menu:/work']);
    const admin = await db().selectFrom('permissions').select(['key', 'admin']).where('plugin_id', '=', 'area').orderBy('key').execute();
    expect(admin.filter((p) => p.admin).map((p) => p.key)).toEqual(['area:all']);
  });

  it('grants once: what an administrator takes from a team role stays taken', async () => {
    const node = await db().selectFrom('permissions').select('id').where('key', '=', 'area:use').executeTakeFirstOrThrow();
    const role = await db().selectFrom('roles').select('id').where('builtin', '=', 'translator').executeTakeFirstOrThrow();
    await db().deleteFrom('role_permissions').where('role_id', '=', role.id).where('permission_id', '=', node.id).execute();
    await syncPermissionTree(db(), [manifest]);
    expect(await keysOf('translator')).toEqual(['menu:/open', 'menu:/work']);
  });
});
