import * as XLSX from '@e965/xlsx';
import { validationMessage } from '@linguaport/sdk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The user plugin loaded by the real kernel (PGlite, or PostgreSQL with DATABASE_URL); calls through app.inject.

let kernel: TestKernel;
let admin: string;
let plain: string;
let departmentId: number;
let roleId: number;

const db = () => kernel.database.db;
const valid = (over: Record<string, unknown> = {}) => ({
  username: `u${Math.random().toString(36).slice(2, 10)}`,
  password: 'Secret-Passw0rd',
  confirmPassword: 'Secret-Passw0rd',
  realName: 'Real Name',
  email: 'someone@example.com',
  phone: '13800138000',
  employeeNo: 'E1',
  departmentIds: [departmentId],
  roleIds: [roleId],
  expiresAt: '',
  priority: 3,
  memo: 'memo',
  ...over,
});
const userCount = async () => Number((await db().selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

async function multipart(url: string, token: string, files: Array<{ name: string; data: Buffer }>) {
  const boundary = '----lp' + Math.random().toString(16).slice(2);
  const parts = files.flatMap((f) => [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: application/vnd.ms-excel\r\n\r\n`),
    f.data,
    Buffer.from('\r\n'),
  ]);
  const res = await kernel.app.inject({
    method: 'POST',
    url,
    headers: { jwt: token, 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en-US' },
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
  });
  return { status: res.statusCode, body: res.json() };
}

function xls(rows: unknown[][], bookType: XLSX.BookType = 'biff8'): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'users');
  return XLSX.write(book, { bookType, type: 'buffer' }) as Buffer;
}

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['user'] });
  admin = await kernel.login('admin', ADMIN_PASSWORD);
  await createUserWithRole(kernel, 'plain', 'Plain-Passw0rd', 'plain', []);
  plain = await kernel.login('plain', 'Plain-Passw0rd');
  departmentId = (await db().insertInto('departments').values({ name: 'Sales', code: 'sales' }).returning('id').executeTakeFirstOrThrow()).id;
  roleId = (await db().insertInto('roles').values({ name: 'Seller' }).returning('id').executeTakeFirstOrThrow()).id;
}, 120_000);

afterAll(async () => {
  await kernel?.shutdown();
});

describe('adding users', () => {
  it('adds a user in the chosen departments and roles, and lists it with them', async () => {
    const body = valid({ username: 'alice' });
    const res = await kernel.call('POST', '/api/user/add', admin, body);
    expect(res.body.code).toBe(200);
    const list = await kernel.call('GET', '/api/user/getAllUserByPage?username=alic', admin);
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.records[0]).toMatchObject({
      username: 'alice', realName: 'Real Name', email: 'someone@example.com', status: 'checked', isUse: true, priority: 3, creatorName: 'admin',
      departments: [{ id: departmentId, name: 'Sales' }], roles: [{ id: roleId, name: 'Seller' }],
    });
    // The new account can sign in with the password it was given.
    await expect(kernel.login('alice', 'Secret-Passw0rd')).resolves.toBeTypeOf('string');
    // The seeded administrator's department and role read in the reader's language.
    const adminRow = async (locale: string) => (await kernel.app.inject({ method: 'GET', url: '/api/user/getAllUserByPage?username=admin', headers: { jwt: admin, cookie: `locale=${locale}` } })).json().data.records.find((r: { username: string }) => r.username === 'admin');
    expect(await adminRow('en-US')).toMatchObject({ departments: [{ name: 'Default department' }], roles: [{ name: 'Super administrator' }] });
    expect(await adminRow('zh-CN')).toMatchObject({ departments: [{ name: '默认部门' }], roles: [{ name: '超级管理员' }] });
  });

  it.each([
    ['a one-character user name', { username: 'a' }, 'username', 'validation.userNameLength'],
    ['a missing password', { password: '' }, 'password', 'validation.required'],
    ['a confirmation that differs', { confirmPassword: 'other' }, 'confirmPassword', 'validation.passwordMismatch'],
    ['a bad email', { email: 'not-an-email' }, 'email', 'validation.email'],
    ['a bad phone', { phone: '12345' }, 'phone', 'validation.phone'],
    ['no department', { departmentIds: [] }, 'departmentIds', 'validation.required'],
    ['no role', { roleIds: [] }, 'roleIds', 'validation.required'],
    ['no real name', { realName: ' ' }, 'realName', 'validation.required'],
    ['a priority above the highest level', { priority: 10 }, 'priority', 'user:priorityRange'],
  ])('refuses %s with 400 naming the field, and adds nobody', async (_what, over, field, key) => {
    const before = await userCount();
    const res = await kernel.call('POST', '/api/user/add', admin, valid(over));
    expect(res.status).toBe(400);
    // Validation keys come back as their text in the request's language (Chinese without a locale); a plugin's own i18n key as is.
    expect(res.body.msg).toContain(`body.${field}: ${validationMessage(key, 'zh-CN')}`);
    expect(await userCount()).toBe(before);
  });

  it('refuses a taken user name (any letter case) and a department that does not exist', async () => {
    const taken = await kernel.call('POST', '/api/user/add', admin, valid({ username: 'ALICE' }));
    expect(taken.status).toBe(400);
    expect(taken.body.msg).toMatch(/^username: /);
    const ghost = await kernel.call('POST', '/api/user/add', admin, valid({ departmentIds: [99999] }));
    expect(ghost.body.msg).toMatch(/^departmentIds: /);
  });

  it('checks user names live: taken, free, and free when it is the edited user own name', async () => {
    const alice = await db().selectFrom('users').select('id').where('username', '=', 'alice').executeTakeFirstOrThrow();
    expect((await kernel.call('POST', '/api/user/checkUserName?username=Alice', null)).body.data).toEqual({ available: false });
    expect((await kernel.call('POST', '/api/user/checkUserName?username=nobody-here', null)).body.data).toEqual({ available: true });
    expect((await kernel.call('POST', `/api/user/checkUserName?username=alice&id=${alice.id}`, null)).body.data).toEqual({ available: true });
  });
});

describe('editing, enabling, checking, deleting', () => {
  it('edits profile and memberships, keeps the password when none is given, and changes it when confirmed', async () => {
    const { id } = (await kernel.call('POST', '/api/user/add', admin, valid({ username: 'bob' }))).body.data;
    const other = (await db().insertInto('roles').values({ name: 'Buyer' }).returning('id').executeTakeFirstOrThrow()).id;
    const res = await kernel.call('PUT', '/api/user/update', admin, { ...valid({ username: 'bobby', realName: 'Bob B', roleIds: [other] }), id, password: '', confirmPassword: '' });
    expect(res.body.code).toBe(200);
    const row = (await kernel.call('GET', '/api/user/getAllUserByPage?username=bobby', admin)).body.data.records[0];
    expect(row).toMatchObject({ username: 'bobby', realName: 'Bob B', roles: [{ id: other, name: 'Buyer' }] });
    await expect(kernel.login('bobby', 'Secret-Passw0rd')).resolves.toBeTypeOf('string');
    const mismatch = await kernel.call('PUT', '/api/user/update', admin, { ...valid({ username: 'bobby' }), id, password: 'New-Passw0rd', confirmPassword: 'x' });
    expect(mismatch.body.msg).toContain('body.confirmPassword: 两次输入的密码不一致');
    await kernel.call('PUT', '/api/user/update', admin, { ...valid({ username: 'bobby' }), id, password: 'New-Passw0rd', confirmPassword: 'New-Passw0rd' });
    await expect(kernel.login('bobby', 'New-Passw0rd')).resolves.toBeTypeOf('string');
  });

  it('answers 404 for an edit of a user that does not exist', async () => {
    expect((await kernel.call('PUT', '/api/user/update', admin, { ...valid(), id: 99999 })).body.code).toBe(404);
  });

  it('disables and enables users; a disabled user cannot sign in and its sessions end', async () => {
    const { id } = (await kernel.call('POST', '/api/user/add', admin, valid({ username: 'carol' }))).body.data;
    const token = await kernel.login('carol', 'Secret-Passw0rd');
    expect((await kernel.call('PUT', `/api/user/updateIsUse/0?ids=${id}`, admin)).body.data).toEqual({ updated: 1 });
    await expect(kernel.login('carol', 'Secret-Passw0rd')).rejects.toThrow();
    expect((await kernel.call('GET', '/api/user/getUserInfoByToken', token)).body.code).toBe(601);
    expect((await kernel.call('PUT', `/api/user/updateIsUse/1?ids=${id}`, admin)).body.data).toEqual({ updated: 1 });
    await expect(kernel.login('carol', 'Secret-Passw0rd')).resolves.toBeTypeOf('string');
  });

  it('refuses to disable or delete the caller itself, and to delete a super administrator', async () => {
    const me = await db().selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow();
    expect((await kernel.call('PUT', `/api/user/updateIsUse/0?ids=${me.id}`, admin)).status).toBe(400);
    expect((await kernel.call('DELETE', `/api/userAndCat/delete?ids=${me.id}`, admin)).status).toBe(400);
    const sup = await kernel.call('POST', '/api/user/add', admin, valid({ username: 'super2', roleIds: [(await db().selectFrom('roles').select('id').where('is_super', '=', true).executeTakeFirstOrThrow()).id] }));
    expect((await kernel.call('DELETE', `/api/userAndCat/delete?ids=${sup.body.data.id}`, admin)).status).toBe(400);
    expect(await db().selectFrom('users').select('id').where('id', '=', sup.body.data.id).executeTakeFirst()).toBeDefined();
  });

  it('checks an unchecked user once; a second check is refused', async () => {
    const { id } = (await kernel.call('POST', '/api/user/add', admin, valid({ username: 'dave' }))).body.data;
    await db().updateTable('users').set({ status: 'unchecked' }).where('id', '=', id).execute();
    expect((await kernel.call('GET', '/api/user/getAllUserByPage?status=unchecked', admin)).body.data.records.map((r: { id: number }) => r.id)).toEqual([id]);
    expect((await kernel.call('GET', `/api/user/examineUser/${id}`, admin)).body.code).toBe(200);
    expect((await db().selectFrom('users').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('checked');
    expect((await kernel.call('GET', `/api/user/examineUser/${id}`, admin)).status).toBe(400);
  });

  it('deletes users with their memberships', async () => {
    const a = (await kernel.call('POST', '/api/user/add', admin, valid({ username: 'eve1' }))).body.data.id;
    const b = (await kernel.call('POST', '/api/user/add', admin, valid({ username: 'eve2' }))).body.data.id;
    expect((await kernel.call('DELETE', `/api/userAndCat/delete?ids=${a},${b}`, admin)).body.data).toEqual({ deleted: 2 });
    expect(await db().selectFrom('users').select('id').where('id', 'in', [a, b]).execute()).toEqual([]);
    expect(await db().selectFrom('user_department_roles').select('user_id').where('user_id', 'in', [a, b]).execute()).toEqual([]);
  });

  it('sets translation priority by user ids and by department ids', async () => {
    const dept = (await db().insertInto('departments').values({ name: 'Ops', code: 'ops' }).returning('id').executeTakeFirstOrThrow()).id;
    const a = (await kernel.call('POST', '/api/user/add', admin, valid({ username: 'pri1', departmentIds: [dept] }))).body.data.id;
    const b = (await kernel.call('POST', '/api/user/add', admin, valid({ username: 'pri2' }))).body.data.id;
    expect((await kernel.call('PUT', '/api/user/translationPriorityByDepartmentIds', admin, { departmentIds: [dept], priority: 8 })).body.data).toEqual({ updated: 1 });
    expect((await kernel.call('PUT', '/api/user/translationPriorityByUserIds', admin, { userIds: [b], priority: 1 })).body.data).toEqual({ updated: 1 });
    const rows = await db().selectFrom('users').select(['id', 'priority']).where('id', 'in', [a, b]).orderBy('id').execute();
    expect(rows.map((r) => r.priority)).toEqual([8, 1]);
    expect((await kernel.call('PUT', '/api/user/translationPriorityByUserIds', admin, { userIds: [b], priority: -1 })).status).toBe(400);
  });
});

describe('listing', () => {
  it('pages, sorts by a whitelisted column and filters by department, role and enabled flag', async () => {
    const first = await kernel.call('GET', '/api/user/getAllUserByPage?pageNum=1&pageSize=2&sortBy=username&sortOrder=asc', admin);
    const second = await kernel.call('GET', '/api/user/getAllUserByPage?pageNum=2&pageSize=2&sortBy=username&sortOrder=asc', admin);
    const all = (await db().selectFrom('users').select('username').orderBy('username').execute()).map((u) => u.username);
    expect(first.body.data.total).toBe(all.length);
    expect([...first.body.data.records, ...second.body.data.records].map((r: { username: string }) => r.username)).toEqual(all.slice(0, 4));
    const byDept = await kernel.call('GET', `/api/user/getAllUserByPage?departmentId=${departmentId}&pageSize=100`, admin);
    expect(byDept.body.data.records.every((r: { departments: Array<{ id: number }> }) => r.departments.some((d) => d.id === departmentId))).toBe(true);
    const byRole = await kernel.call('GET', `/api/user/getAllUserByPage?roleId=${roleId}&pageSize=100`, admin);
    expect(byRole.body.data.records.every((r: { roles: Array<{ id: number }> }) => r.roles.some((x) => x.id === roleId))).toBe(true);
    expect((await kernel.call('GET', '/api/user/getAllUserByPage?sortBy=password_hash', admin)).status).toBe(400);
  });

  it('sorts and pages the matches of a name search', async () => {
    const desc = await kernel.call('GET', '/api/user/getAllUserByPage?username=pri&sortBy=username&sortOrder=desc', admin);
    expect(desc.body.data.records.map((r: { username: string }) => r.username)).toEqual(['pri2', 'pri1']);
    const second = await kernel.call('GET', '/api/user/getAllUserByPage?username=pri&pageSize=1&pageNum=2', admin);
    expect(second.body.data).toMatchObject({ total: 2, records: [expect.objectContaining({ username: 'pri1' })] });
  });

  it('gives pickers enabled users, administrators, and increment candidates', async () => {
    const all = (await kernel.call('GET', '/api/user/getAllUser', plain)).body.data as Array<{ username: string }>;
    expect(all.map((u) => u.username)).toContain('alice');
    expect(Object.keys(all[0]!)).toEqual(['id', 'username', 'realName']);
    const admins = (await kernel.call('GET', '/api/user/getAllUserOfAdmin', plain)).body.data as Array<{ username: string }>;
    expect(admins.map((u) => u.username)).toContain('admin');
    expect(admins.map((u) => u.username)).not.toContain('alice');
    const contacts = (await kernel.call('OPTIONS', '/api/user/getAccountAdmin', plain)).body.data as Array<{ username: string; kind: string }>;
    expect(contacts).toContainEqual(expect.objectContaining({ username: 'admin', kind: 'super' }));
    expect((await kernel.call('GET', '/api/user/getAllUserForIncrement', plain)).body.data.length).toBeGreaterThan(0);
  });
});

describe('import', () => {
  it('serves a readable XLS template with the headers and an explanation only, which imported unchanged creates no account', async () => {
    const res = await kernel.app.inject({ method: 'GET', url: '/api/user/importTemplate', headers: { jwt: admin } });
    expect(res.headers['content-type']).toContain('application/vnd.ms-excel');
    const book = XLSX.read(res.rawPayload, { type: 'buffer' });
    const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1 });
    expect(rows).toHaveLength(1);
    expect(rows[0]![0]).toContain('User name');
    const notes = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[1]!]!, { header: 1 }).flat().join('\n');
    expect(notes).toContain('default password');
    const before = await userCount();
    const unchanged = await multipart('/api/user/importUsers', admin, [{ name: 'user-import-template.xls', data: res.rawPayload }]);
    expect(unchanged.status).toBe(400);
    expect(unchanged.body.msg).toContain('no user rows');
    expect(await userCount()).toBe(before);
  });

  it('imports the good rows with the defaults and reports each rejected row with its reason', async () => {
    const file = xls([
      ['user name', 'real name', 'email', 'phone', 'no', 'memo'],
      ['imp1', 'Imp One', 'imp1@example.com', '13800138001', 'E9', ''],
      ['alice', 'Taken', '', '', '', ''],
      ['imp2', '', 'broken-email', '', '', ''],
      ['x', '', '', '', '', ''],
      ['imp3', '', '', '', '', ''],
      ['imp3', '', '', '', '', ''],
    ]);
    const res = await multipart('/api/user/importUsers', admin, [{ name: 'users.xls', data: file }]);
    expect(res.body.code).toBe(200);
    expect(res.body.data.imported).toBe(2);
    expect(res.body.data.rejected).toBe(4);
    const byRow = Object.fromEntries(res.body.data.rows.map((r: { row: number }) => [r.row, r]));
    expect(byRow[2]).toMatchObject({ username: 'imp1', outcome: 'imported' });
    expect(byRow[3].reason).toContain('already exists');
    expect(byRow[4].reason).toContain('email');
    expect(byRow[5].reason).toContain('user name');
    expect(byRow[7].reason).toContain('twice');
    const imp1 = await db().selectFrom('users').selectAll().where('username', '=', 'imp1').executeTakeFirstOrThrow();
    expect(imp1).toMatchObject({ need_password_change: true, priority: 0, real_name: 'Imp One' });
    const membership = await db()
      .selectFrom('user_department_roles as m').innerJoin('departments as d', 'd.id', 'm.department_id').innerJoin('roles as r', 'r.id', 'm.role_id')
      .select(['d.is_default as dd', 'r.is_default as rd']).where('m.user_id', '=', imp1.id).execute();
    expect(membership).toEqual([{ dd: true, rd: true }]);
  });

  it('refuses an XLSX file, two files and an empty sheet, importing nothing', async () => {
    const before = await userCount();
    const rows = [['h'], ['zzz1']];
    expect((await multipart('/api/user/importUsers', admin, [{ name: 'u.xlsx', data: xls(rows, 'xlsx') }])).body.msg).toContain('Only XLS');
    expect((await multipart('/api/user/importUsers', admin, [{ name: 'u.xls', data: xls(rows, 'xlsx') }])).body.msg).toContain('Only XLS');
    expect((await multipart('/api/user/importUsers', admin, [{ name: 'a.xls', data: xls(rows) }, { name: 'b.xls', data: xls(rows) }])).body.msg).toContain('one file');
    expect((await multipart('/api/user/importUsers', admin, [{ name: 'a.xls', data: xls([['header']]) }])).status).toBe(400);
    expect(await userCount()).toBe(before);
  });
});

describe('permissions', () => {
  it('answers 403 to every mutating call without its key and changes nothing', async () => {
    const target = await db().selectFrom('users').selectAll().where('username', '=', 'alice').executeTakeFirstOrThrow();
    const before = await userCount();
    const calls: Array<[string, string, unknown?]> = [
      ['POST', '/api/user/add', valid({ username: 'sneaky' })],
      ['PUT', '/api/user/update', { ...valid({ username: 'alice', realName: 'Changed' }), id: target.id }],
      ['PUT', `/api/user/updateIsUse/0?ids=${target.id}`],
      ['GET', `/api/user/examineUser/${target.id}`],
      ['DELETE', `/api/userAndCat/delete?ids=${target.id}`],
      ['PUT', '/api/user/translationPriorityByUserIds', { userIds: [target.id], priority: 9 }],
      ['PUT', '/api/user/translationPriorityByDepartmentIds', { departmentIds: [departmentId], priority: 9 }],
      ['GET', '/api/user/getAllUserByPage'],
      ['GET', '/api/user/importTemplate'],
    ];
    for (const [method, url, body] of calls) {
      const res = await kernel.call(method, url, plain, body);
      expect([url, res.status]).toEqual([url, 403]);
    }
    expect((await multipart('/api/user/importUsers', plain, [{ name: 'a.xls', data: xls([['h'], ['sneaky2']]) }])).status).toBe(403);
    expect(await userCount()).toBe(before);
    expect(await db().selectFrom('users').selectAll().where('id', '=', target.id).executeTakeFirstOrThrow()).toEqual(target);
  });
});
