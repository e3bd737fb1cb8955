import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The department plugin loaded by the real kernel; calls through app.inject.

let kernel: TestKernel;
let admin: string;
let plain: string;
let roleId: number;
const db = () => kernel.database.db;
const rows = () => db().selectFrom('departments').selectAll().orderBy('id').execute();

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['department'] });
  admin = await kernel.login('admin', ADMIN_PASSWORD);
  await createUserWithRole(kernel, 'plain', 'Plain-Passw0rd', 'plain-role', []);
  plain = await kernel.login('plain', 'Plain-Passw0rd');
  roleId = (await db().insertInto('roles').values({ name: 'Translator' }).returning('id').executeTakeFirstOrThrow()).id;
}, 120_000);

afterAll(async () => {
  await kernel?.shutdown();
});

describe('departments', () => {
  it('shows the default department in the reader\'s language in the lists and pickers', async () => {
    const as = async (url: string, locale: string) => (await kernel.app.inject({ method: 'GET', url, headers: { jwt: admin, cookie: `locale=${locale}` } })).json().data;
    expect((await as('/api/department/list', 'en-US')).find((d: { isDefault: boolean }) => d.isDefault).name).toBe('Default department');
    expect((await as('/api/department/list', 'zh-CN')).find((d: { isDefault: boolean }) => d.isDefault).name).toBe('默认部门');
    expect((await as('/api/department/getDepartmentByPage?pageSize=50', 'en-US')).records.find((d: { isDefault: boolean }) => d.isDefault)).toMatchObject({ name: 'Default department', description: 'Default department' });
    expect((await as('/api/department/getDepartmentByPage?pageSize=50', 'zh-CN')).records.find((d: { isDefault: boolean }) => d.isDefault)).toMatchObject({ name: '默认部门', description: '默认部门' });
  });

  it('adds a department with head and roles, and lists it with them', async () => {
    const head = await db().selectFrom('users').select('id').where('username', '=', 'plain').executeTakeFirstOrThrow();
    const res = await kernel.call('POST', '/api/department/add', admin, { name: 'Legal', code: 'legal', description: 'contracts', headUserId: head.id, roleIds: [roleId] });
    expect(res.body.code).toBe(200);
    const page = await kernel.call('GET', '/api/department/getDepartmentByPage?code=leg', admin);
    expect(page.body.data.records).toEqual([
      expect.objectContaining({ name: 'Legal', code: 'legal', description: 'contracts', headUserId: head.id, headName: 'plain', creatorName: 'admin', userCount: 0, roles: [{ id: roleId, name: 'Translator' }] }),
    ]);
  });

  it.each([
    ['an empty name', { name: '', code: 'x1' }, 'body.name: 此项为必填项'],
    ['an empty code', { name: 'X', code: '' }, 'body.code: 此项为必填项'],
    ['a code with spaces', { name: 'X', code: 'a b' }, 'body.code: department:codeFormat'],
  ])('refuses %s', async (_what, body, message) => {
    const before = await rows();
    const res = await kernel.call('POST', '/api/department/add', admin, body);
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain(message);
    expect(await rows()).toEqual(before);
  });

  it('refuses a code in use (any case), a missing head and a missing role', async () => {
    expect((await kernel.call('POST', '/api/department/add', admin, { name: 'L2', code: 'LEGAL' })).body.msg).toMatch(/^code: /);
    expect((await kernel.call('POST', '/api/department/add', admin, { name: 'L2', code: 'l2', headUserId: 99999 })).body.msg).toMatch(/^headUserId: /);
    expect((await kernel.call('POST', '/api/department/add', admin, { name: 'L2', code: 'l2', roleIds: [99999] })).body.msg).toMatch(/^roleIds: /);
  });

  it('edits a department and replaces its roles', async () => {
    const { id } = (await kernel.call('POST', '/api/department/add', admin, { name: 'Tmp', code: 'tmp', roleIds: [roleId] })).body.data;
    expect((await kernel.call('PUT', '/api/department/update', admin, { id, name: 'Tmp2', code: 'tmp2', roleIds: [] })).body.code).toBe(200);
    const row = (await kernel.call('GET', '/api/department/getDepartmentByPage?code=tmp2', admin)).body.data.records[0];
    expect(row).toMatchObject({ name: 'Tmp2', roles: [] });
    expect((await kernel.call('PUT', '/api/department/update', admin, { id, name: 'Tmp2', code: 'legal' })).status).toBe(400);
    expect((await kernel.call('PUT', '/api/department/update', admin, { id: 99999, name: 'N', code: 'n' })).body.code).toBe(404);
  });

  it('refuses to delete a department with users (naming it and the count) and the default one; deletes empty ones', async () => {
    const legal = (await rows()).find((d) => d.code === 'legal')!;
    const user = await db().selectFrom('users').select('id').where('username', '=', 'plain').executeTakeFirstOrThrow();
    await db().insertInto('user_department_roles').values({ user_id: user.id, department_id: legal.id, role_id: roleId }).execute();
    const refused = await kernel.call('DELETE', `/api/department/delete?ids=${legal.id}`, admin);
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('Legal (1)');
    const def = (await rows()).find((d) => d.is_default)!;
    expect((await kernel.call('DELETE', `/api/department/delete?ids=${def.id}`, admin)).status).toBe(400);
    const empty = (await kernel.call('POST', '/api/department/add', admin, { name: 'Empty', code: 'empty' })).body.data.id;
    expect((await kernel.call('DELETE', `/api/department/delete?ids=${empty}`, admin)).body.data).toEqual({ deleted: 1 });
    expect((await rows()).map((d) => d.code)).toContain('legal');
  });

  it('lists departments to any signed-in user for pickers', async () => {
    expect(((await kernel.call('GET', '/api/department/list', plain)).body.data as Array<{ code: string }>).map((d) => d.code)).toContain('legal');
  });

  it('answers 403 to every mutating call and the page list without the key, changing nothing', async () => {
    const before = await rows();
    const legal = before.find((d) => d.code === 'legal')!;
    for (const [method, url, body] of [
      ['POST', '/api/department/add', { name: 'S', code: 'sneaky' }],
      ['PUT', '/api/department/update', { id: legal.id, name: 'Renamed', code: 'legal' }],
      ['DELETE', `/api/department/delete?ids=${legal.id}`, undefined],
      ['GET', '/api/department/getDepartmentByPage', undefined],
    ] as const) {
      expect([url, (await kernel.call(method, url, plain, body)).status]).toEqual([url, 403]);
    }
    expect(await rows()).toEqual(before);
  });
});
