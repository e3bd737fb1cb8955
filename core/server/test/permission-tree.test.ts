import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseManifest } from '@linguaport/sdk/shared';
import { runMigrations } from '../src/db/migrations.js';
import { coreMigrations } from '../src/db/core-migrations.js';
import { accessMigrations } from '../src/access/migrations.js';
import { syncPermissionTree } from '../src/access/permission-tree.js';
import { openTestDatabase, type TestDatabase } from './support/test-database.js';

const manifest = parseManifest({
  id: 'grants',
  version: '1.0.0',
  name: { 'zh-CN': '授权', 'en-US': 'Grants' },
  sdk: '^1.0.0',
  i18n: ['grants'],
  routes: [
    { path: '/open', view: 'Open', title: 'grants:open', menu: { defaultGrant: true } },
    { path: '/closed', view: 'Closed', title: 'grants:closed', menu: {} },
  ],
  permissions: [
    { key: 'grants:use', type: 'api', name: { 'zh-CN': '使用', 'en-US': 'Use' }, menu: '/open', defaultGrant: true },
    { key: 'grants:admin', type: 'button', name: { 'zh-CN': '管理', 'en-US': 'Manage' }, menu: '/closed' },
  ],
});

describe('default grants of the normal-user role', () => {
  let t: TestDatabase;
  const granted = async () =>
    (
      await t.database.db
        .selectFrom('role_permissions as rp')
        .innerJoin('roles as r', 'r.id', 'rp.role_id')
        .innerJoin('permissions as p', 'p.id', 'rp.permission_id')
        .select('p.key')
        .where('r.is_default', '=', true)
        .where('p.plugin_id', '=', 'grants')
        .orderBy('p.key')
        .execute()
    ).map((r) => r.key);

  beforeAll(async () => {
    t = await openTestDatabase();
    await runMigrations(t.database, 'core', coreMigrations);
    await runMigrations(t.database, 'core.access', accessMigrations);
  });
  afterAll(async () => t?.cleanup());

  it('grants the menus and keys a manifest marks defaultGrant, and nothing else', async () => {
    await syncPermissionTree(t.database.db, [manifest]);
    expect(await granted()).toEqual(['grants:use', 'menu:/open']);
  });

  it('does not grant again what an administrator revoked', async () => {
    const node = await t.database.db.selectFrom('permissions').select('id').where('key', '=', 'menu:/open').executeTakeFirstOrThrow();
    await t.database.db.deleteFrom('role_permissions').where('permission_id', '=', node.id).execute();
    await syncPermissionTree(t.database.db, [manifest]);
    expect(await granted()).toEqual(['grants:use']);
  });
});
