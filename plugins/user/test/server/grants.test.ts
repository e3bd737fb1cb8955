import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// A user administrator past the route gate: it grants only what it holds itself, changes no one
// above it, sets another user's password only with user:password, and the guest sees no one.

let kernel: TestKernel;
let admin: string;
let userAdmin: string;
let userAdminRole: number;
let superRole: number;
let defaultDepartment: number;

const db = () => kernel.database.db;
const USER_ADMIN_KEYS = ['user:list', 'user:add', 'user:edit', 'user:enable', 'user:import'];
const form = (over: Record<string, unknown>) => ({
  username: `g${Math.random().toString(36).slice(2, 10)}`,
  password: 'Secret-Passw0rd',
  confirmPassword: 'Secret-Passw0rd',
  realName: 'Granted',
  departmentIds: [defaultDepartment],
  roleIds: [userAdminRole],
  ...over,
});
const userCount = async () => Number((await db().selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const rolesOf = async (userId: number) => (await db().selectFrom('user_department_roles').select('role_id').where('user_id', '=', userId).orderBy('role_id').execute()).map((r) => Number(r.role_id));

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['user'] });
  admin = await kernel.login('admin', ADMIN_PASSWORD);
  const made = await createUserWithRole(kernel, 'useradmin', 'Useradmin-pass-1', 'User administrator', USER_ADMIN_KEYS);
  userAdminRole = made.roleId;
  defaultDepartment = made.departmentId;
  userAdmin = await kernel.login('useradmin', 'Useradmin-pass-1');
  superRole = (await db().selectFrom('roles').select('id').where('is_super', '=', true).executeTakeFirstOrThrow()).id;
}, 120_000);

afterAll(async () => {
  await kernel?.shutdown();
});

describe('granting roles and departments', () => {
  it('refuses a user administrator granting the super administrator role, and creates nobody', async () => {
    const count = await userCount();
    const res = await kernel.call('POST', '/api/user/add', userAdmin, form({ roleIds: [superRole] }));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 403, data: null });
    expect(await userCount()).toBe(count);
    // Nor by editing someone into it.
    const plain = await createUserWithRole(kernel, 'plainone', 'Plainone-pass-1', 'Plain one', []);
    const edit = await kernel.call('PUT', '/api/user/update', userAdmin, { ...form({ username: 'plainone', roleIds: [superRole] }), id: plain.userId, password: '' });
    expect(edit.status).toBe(403);
    expect(await rolesOf(plain.userId)).toEqual([plain.roleId]);
  });

  it('refuses a role holding a permission the caller lacks, and a department it is not in', async () => {
    const stronger = await createUserWithRole(kernel, 'deleter', 'Deleter-pass-1', 'Deleter', ['user:delete']);
    const count = await userCount();
    const role = await kernel.call('POST', '/api/user/add', userAdmin, form({ roleIds: [stronger.roleId] }));
    expect(role.status).toBe(403);
    expect(role.body.msg).toContain('user:delete');
    const sales = (await db().insertInto('departments').values({ name: 'Sales', code: 'sales-g' }).returning('id').executeTakeFirstOrThrow()).id;
    const department = await kernel.call('POST', '/api/user/add', userAdmin, form({ departmentIds: [sales] }));
    expect(department.status).toBe(403);
    expect(await userCount()).toBe(count);
    // What it holds itself, where it belongs, it grants.
    expect((await kernel.call('POST', '/api/user/add', userAdmin, form({}))).body.code).toBe(200);
    // The super administrator grants anything.
    expect((await kernel.call('POST', '/api/user/add', admin, form({ roleIds: [superRole, stronger.roleId], departmentIds: [sales] }))).body.code).toBe(200);
  });

  it('refuses an import whose default role holds what the caller lacks', async () => {
    const defaultRole = (await db().selectFrom('roles').select('id').where('is_default', '=', true).executeTakeFirstOrThrow()).id;
    const deleteKey = (await db().selectFrom('permissions').select('id').where('key', '=', 'user:delete').executeTakeFirstOrThrow()).id;
    await db().insertInto('role_permissions').values({ role_id: defaultRole, permission_id: deleteKey }).execute();
    try {
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['用户名 / User name *'], ['importedg']]), 'users');
      const data = XLSX.write(book, { bookType: 'biff8', type: 'buffer' }) as Buffer;
      const boundary = '----lpgrant';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="u.xls"\r\nContent-Type: application/vnd.ms-excel\r\n\r\n`),
        data,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const count = await userCount();
      const res = await kernel.app.inject({ method: 'POST', url: '/api/user/importUsers', headers: { jwt: userAdmin, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
      expect(res.statusCode).toBe(403);
      expect(await userCount()).toBe(count);
    } finally {
      await db().deleteFrom('role_permissions').where('role_id', '=', defaultRole).where('permission_id', '=', deleteKey).execute();
    }
  });
});

describe('changing users', () => {
  it('refuses a user administrator changing the super administrator: the password and account stay', async () => {
    const res = await kernel.call('PUT', '/api/user/update', userAdmin, {
      id: 1, username: 'admin', realName: 'Taken', departmentIds: [defaultDepartment], roleIds: [userAdminRole], password: 'Taken-Passw0rd', confirmPassword: 'Taken-Passw0rd',
    });
    expect(res.status).toBe(403);
    expect(await kernel.login('admin', ADMIN_PASSWORD)).toBeTruthy();
    expect(await rolesOf(1)).toEqual([superRole]);
    expect((await kernel.call('PUT', '/api/user/updateIsUse/0?ids=1', userAdmin)).status).toBe(403);
    expect((await db().selectFrom('users').select('enabled').where('id', '=', 1).executeTakeFirstOrThrow()).enabled).toBe(true);
  });

  it("sets another user's password only with user:password, records it, and ends that user's sessions", async () => {
    const target = await createUserWithRole(kernel, 'target', 'Target-pass-1', 'Target role', []);
    const targetSession = await kernel.login('target', 'Target-pass-1');
    const edit = (password: string) => ({ id: target.userId, username: 'target', realName: 'Target', departmentIds: [defaultDepartment], roleIds: [target.roleId], password, confirmPassword: password });
    // The role holds nothing the user administrator lacks, so editing it is fine; its password is not.
    await db().insertInto('user_department_roles').values({ user_id: (await db().selectFrom('users').select('id').where('username', '=', 'useradmin').executeTakeFirstOrThrow()).id, department_id: defaultDepartment, role_id: target.roleId }).execute();
    const refused = await kernel.call('PUT', '/api/user/update', userAdmin, edit('Other-Passw0rd1'));
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toContain('user:password');
    expect(await kernel.login('target', 'Target-pass-1')).toBeTruthy();

    await createUserWithRole(kernel, 'resetter', 'Resetter-pass-1', 'Password resetter', [...USER_ADMIN_KEYS, 'user:password']);
    await db().insertInto('user_department_roles').values({ user_id: (await db().selectFrom('users').select('id').where('username', '=', 'resetter').executeTakeFirstOrThrow()).id, department_id: defaultDepartment, role_id: target.roleId }).execute();
    const resetter = await kernel.login('resetter', 'Resetter-pass-1');
    expect((await kernel.call('PUT', '/api/user/update', resetter, edit('Other-Passw0rd1'))).body.code).toBe(200);
    expect(await kernel.login('target', 'Other-Passw0rd1')).toBeTruthy();
    expect((await kernel.call('GET', '/api/user/getUserInfoByToken', targetSession)).body.code).toBe(601);
    await expect
      .poll(async () => (await db().selectFrom('operation_log').select('message').where('operator_name', '=', 'resetter').execute()).map((r) => r.message), { timeout: 5000 })
      .toContainEqual(expect.stringContaining("Change another user's password: target"));
    // The super administrator holds the new permission too (the console's edit form still sets passwords).
    expect((await kernel.call('PUT', '/api/user/update', admin, edit('Third-Passw0rd1'))).body.code).toBe(200);
  });
});

describe('the guest', () => {
  it('sees nothing about other users', async () => {
    await db().insertInto('system_config').values({ config_key: 'GUEST_LOGIN', config_value: '1' }).onConflict((oc) => oc.column('config_key').doUpdateSet({ config_value: '1' })).execute();
    const guest: string = (await kernel.call('GET', '/api/user/getGuestUser')).body.data.token;
    for (const [method, url] of [['GET', '/api/user/getAllUser'], ['OPTIONS', '/api/user/getAccountAdmin'], ['GET', '/api/user/getAllUserOfAdmin'], ['GET', '/api/user/getAllUserForIncrement']]) {
      const res = await kernel.call(method!, url!, guest);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain('admin');
    }
    // A member still gets the pickers.
    expect((await kernel.call('GET', '/api/user/getAllUser', userAdmin)).body.data.length).toBeGreaterThan(1);
  });
});
