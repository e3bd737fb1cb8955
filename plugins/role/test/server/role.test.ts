import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The role plugin loaded by the real kernel; calls through app.inject.

let kernel: TestKernel;
let admin: string;
let plain: string;
const db = () => kernel.database.db;
const roleNames = async () => (await db().selectFrom('roles').select('name').orderBy('id').execute()).map((r) => r.name);

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['role'] });
  admin = await kernel.login('admin', ADMIN_PASSWORD);
  await createUserWithRole(kernel, 'plain', 'Plain-Passw0rd', 'plain-role', []);
  plain = await kernel.login('plain', 'Plain-Passw0rd');
}, 120_000);

afterAll(async () => {
  await kernel?.shutdown();
});

describe('roles', () => {
  it('adds a role with its creator and lists it with its user count', async () => {
    const res = await kernel.call('POST', '/api/role/add', admin, { name: 'Editor', description: 'edits' });
    expect(res.body.code).toBe(200);
    const page = await kernel.call('GET', '/api/role/getRoleByPage?name=edit', admin);
    expect(page.body.data.total).toBe(1);
    expect(page.body.data.records[0]).toMatchObject({ id: res.body.data.id, name: 'Editor', description: 'edits', creatorName: 'admin', userCount: 0, isSuper: false });
    const plainRole = (await kernel.call('GET', '/api/role/getRoleByPage?name=plain-role', admin)).body.data.records[0];
    expect(plainRole.userCount).toBe(1);
  });

  it('refuses an empty name and a name that exists (any case)', async () => {
    const empty = await kernel.call('POST', '/api/role/add', admin, { name: '  ' });
    expect(empty.body.msg).toContain('body.name: 此项为必填项');
    const taken = await kernel.call('POST', '/api/role/add', admin, { name: 'editor' });
    expect(taken.status).toBe(400);
    expect(taken.body.msg).toMatch(/^name: /);
    expect((await roleNames()).filter((n) => n.toLowerCase() === 'editor')).toHaveLength(1);
  });

  it('edits name and description; refuses to take another role name; 404 for a missing role', async () => {
    const { id } = (await kernel.call('POST', '/api/role/add', admin, { name: 'Temp' })).body.data;
    expect((await kernel.call('PUT', '/api/role/update', admin, { id, name: 'Temp2', description: 'd' })).body.code).toBe(200);
    expect(await roleNames()).toContain('Temp2');
    expect((await kernel.call('PUT', '/api/role/update', admin, { id, name: 'Editor' })).status).toBe(400);
    expect((await kernel.call('PUT', '/api/role/update', admin, { id: 99999, name: 'X' })).body.code).toBe(404);
  });

  it('refuses to delete a role users hold, naming it and the count, and the built-in roles', async () => {
    const held = (await kernel.call('GET', '/api/role/getRoleByPage?name=plain-role', admin)).body.data.records[0];
    const res = await kernel.call('DELETE', `/api/role/delete?ids=${held.id}`, admin);
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('plain-role (1)');
    const builtIn = await db().selectFrom('roles').select('id').where((eb) => eb.or([eb('is_super', '=', true), eb('is_default', '=', true)])).execute();
    for (const r of builtIn) expect((await kernel.call('DELETE', `/api/role/delete?ids=${r.id}`, admin)).status).toBe(400);
    expect(await roleNames()).toContain('plain-role');
  });

  it('deletes unused roles in bulk', async () => {
    const a = (await kernel.call('POST', '/api/role/add', admin, { name: 'Gone1' })).body.data.id;
    const b = (await kernel.call('POST', '/api/role/add', admin, { name: 'Gone2' })).body.data.id;
    expect((await kernel.call('DELETE', `/api/role/delete?ids=${a},${b}`, admin)).body.data).toEqual({ deleted: 2 });
    expect(await roleNames()).not.toContain('Gone1');
  });

  it('lists role names to any signed-in user for pickers', async () => {
    const list = (await kernel.call('GET', '/api/role/list', plain)).body.data as Array<{ name: string }>;
    expect(list.map((r) => r.name)).toContain('Editor');
  });

  it('shows the built-in roles in the reader\'s language while their names are the seeded ones; a renamed one as written', async () => {
    const as = async (url: string, locale: string) => (await kernel.app.inject({ method: 'GET', url, headers: { jwt: admin, cookie: `locale=${locale}` } })).json().data;
    const en = (await as('/api/role/list', 'en-US')) as Array<{ name: string; isSuper: boolean }>;
    expect(en.filter((r) => ['Super administrator', 'Normal user'].includes(r.name))).toHaveLength(2);
    expect(en.map((r) => r.name)).not.toContain('超级管理员');
    const zh = (await as('/api/role/list', 'zh-CN')) as Array<{ name: string }>;
    expect(zh.map((r) => r.name)).toEqual(expect.arrayContaining(['超级管理员', '普通用户', 'Editor']));
    const page = await as('/api/role/getRoleByPage?pageSize=50', 'en-US');
    expect(page.records.find((r: { isSuper: boolean }) => r.isSuper)).toMatchObject({ name: 'Super administrator', description: 'Super administrator: holds every permission' });
    expect((await as('/api/role/getRoleByPage?pageSize=50', 'zh-CN')).records.find((r: { isSuper: boolean }) => r.isSuper)).toMatchObject({ name: '超级管理员', description: '超级管理员：拥有全部权限' });
    // The stored name is untouched: it stays what was seeded until an administrator renames it.
    expect(await roleNames()).toContain('超级管理员');
  });

  it('answers 403 to every mutating call and the page list without the key, changing nothing', async () => {
    const before = await db().selectFrom('roles').selectAll().orderBy('id').execute();
    const editor = before.find((r) => r.name === 'Editor')!;
    for (const [method, url, body] of [
      ['POST', '/api/role/add', { name: 'Sneaky' }],
      ['PUT', '/api/role/update', { id: editor.id, name: 'Renamed' }],
      ['DELETE', `/api/role/delete?ids=${editor.id}`, undefined],
      ['GET', '/api/role/getRoleByPage', undefined],
    ] as const) {
      expect([url, (await kernel.call(method, url, plain, body)).status]).toEqual([url, 403]);
    }
    expect(await db().selectFrom('roles').selectAll().orderBy('id').execute()).toEqual(before);
  });
});
