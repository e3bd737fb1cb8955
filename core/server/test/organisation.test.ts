import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createOrganisation } from '../src/access/organisation.js';
import { createUserWithRole, startKernel, type TestKernel } from './support/kernel.js';

// ctx.organisation.roles: the kernel's roles for the role area, on a real database. The kernel's own
// rule holds whoever calls: a built-in role or one a user holds is never deleted.

let k: TestKernel;
beforeAll(async () => {
  k = await startKernel();
}, 120_000);
afterAll(async () => {
  await k?.shutdown();
});

describe('the organisation service: roles', () => {
  it('creates, names case-insensitively, pages with creator and holders, and deletes only free roles', async () => {
    const { roles } = createOrganisation(k.database.db);
    const held = await createUserWithRole(k, 'org.held', 'Held-passw0rd!', 'Held_role', []);
    const adminId = (await k.database.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    const free = await roles.create({ name: 'Free role', description: 'x', createdBy: adminId });
    expect(await roles.nameTaken('FREE ROLE')).toBe(true);
    expect(await roles.nameTaken('free role', free)).toBe(false);
    expect(await roles.update(free, { name: 'Free role', description: null })).toBe(true);
    expect(await roles.update(999_999, { name: 'n', description: null })).toBe(false);

    const page = await roles.page({ name: 'role', offset: 0, limit: 50 });
    expect(page.roles.find((r) => r.id === free)).toMatchObject({ name: 'Free role', description: null, creatorName: 'admin', userCount: 0, builtin: null });
    expect(page.roles.find((r) => r.id === held.roleId)).toMatchObject({ userCount: 1 });
    expect((await roles.page({ name: 'd_r', offset: 0, limit: 50 })).roles.map((r) => r.id)).toEqual([held.roleId]);
    expect((await roles.page({ name: '%', offset: 0, limit: 50 })).total).toBe(0);
    expect(await roles.holders([held.roleId, free])).toEqual([{ name: 'Held_role', users: 1 }]);

    const builtIn = (await roles.all()).filter((r) => r.isSuper || r.isDefault || r.builtin !== null).map((r) => r.id);
    expect(builtIn.length).toBeGreaterThan(1);
    expect(await roles.remove([free, held.roleId, ...builtIn])).toBe(1);
    expect((await roles.byIds([free, held.roleId, ...builtIn])).map((r) => r.id).sort((a, b) => a - b)).toEqual([held.roleId, ...builtIn].sort((a, b) => a - b));
  });
});

describe('the organisation service: departments', () => {
  it('creates with roles, checks codes ignoring case, pages, replaces roles, and deletes only free departments', async () => {
    const { departments, roles } = createOrganisation(k.database.db);
    const adminId = (await k.database.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    const r1 = await roles.create({ name: 'Dept role 1', description: null, createdBy: null });
    const r2 = await roles.create({ name: 'Dept role 2', description: null, createdBy: null });
    const id = await departments.create({ name: 'Sales_EU', code: 'SALES', description: 'd', headUserId: adminId, roleIds: [r1, r1], createdBy: adminId });
    expect(await departments.codeTaken('sales')).toBe(true);
    expect(await departments.codeTaken('sales', id)).toBe(false);
    const [made] = await departments.byIds([id]);
    expect(made).toMatchObject({ name: 'Sales_EU', code: 'SALES', headUserId: adminId, headName: 'admin', creatorName: 'admin', isDefault: false, userCount: 0, roles: [{ id: r1, name: 'Dept role 1' }] });
    expect((await departments.page({ name: 's_e', offset: 0, limit: 50 })).departments.map((d) => d.id)).toEqual([id]);
    expect((await departments.page({ code: '%', offset: 0, limit: 50 })).total).toBe(0);
    expect(await departments.update(id, { name: 'Sales', code: 'SALES', description: null, headUserId: null, roleIds: [r2] })).toBe(true);
    expect((await departments.byIds([id]))[0]).toMatchObject({ name: 'Sales', headUserId: null, roles: [{ id: r2, name: 'Dept role 2' }] });
    expect(await departments.update(999_999, { name: 'x', code: 'x', description: null, headUserId: null, roleIds: [] })).toBe(false);

    const held = await createUserWithRole(k, 'dept.held', 'Held-passw0rd!', 'Dept holder', []);
    const defaults = (await departments.all()).filter((d) => d.isDefault).map((d) => d.id);
    expect(defaults).toContain(held.departmentId);
    expect(await departments.holders([held.departmentId, id])).toEqual([{ name: expect.any(String), users: expect.any(Number) }]);
    expect(await departments.remove([id, ...defaults])).toBe(1);
    expect((await departments.byIds([id, ...defaults])).map((d) => d.id)).toEqual(defaults);
  });
});


describe('the organisation service: users', () => {
  it('creates with memberships, pages with them, approves once, sets priority by department, and removes', async () => {
    const { users, departments, roles } = createOrganisation(k.database.db);
    const adminId = (await k.database.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    const dep = await departments.create({ name: 'Org users', code: 'org.users', description: null, headUserId: null, roleIds: [], createdBy: adminId });
    const role = await roles.create({ name: 'Org user role', description: null, createdBy: adminId });
    const fields = { realName: 'Org Person', email: null, phone: null, employeeNo: null, expiresAt: null, memo: null };
    const id = await users.create({ ...fields, username: 'org.person', passwordHash: 'x', createdBy: adminId }, { departmentIds: [dep, dep], roleIds: [role] });
    expect(await users.nameTaken('ORG.PERSON')).toBe(true);
    expect(await users.nameTaken('org.person', id)).toBe(false);
    expect(await users.takenNames(['Org.Person', 'nobody'])).toEqual(new Set(['org.person']));

    const page = await users.page({ username: 'g.pers', departmentId: dep, sortBy: 'username', sortOrder: 'desc', offset: 0, limit: 10 });
    expect(page.total).toBe(1);
    expect(page.users[0]).toMatchObject({ id, username: 'org.person', status: 'checked', enabled: true, priority: 0, creatorName: 'admin', departments: [{ id: dep, name: 'Org users' }], roles: [{ id: role, name: 'Org user role' }] });
    expect((await users.page({ username: '%', offset: 0, limit: 10 })).total).toBe(0);

    await k.database.db.updateTable('users').set({ status: 'unchecked' }).where('id', '=', id).execute();
    expect(await users.approve(id)).toBe('approved');
    expect(await users.approve(id)).toBe('already');
    expect(await users.approve(999_999)).toBe('unknown');
    expect(await users.setPriority({ departmentIds: [dep] }, 7)).toBe(1);
    expect((await users.enabled({ checked: true })).map((u) => u.id)).toContain(id);
    expect((await users.enabled({ superAdmins: true })).map((u) => u.id)).toEqual([adminId]);
    expect(await users.superAdmins([id, adminId])).toEqual([adminId]);
    expect(await users.update(id, { ...fields, username: 'org.person2', priority: 2 }, { departmentIds: [dep], roleIds: [] })).toBe(true);
    expect(await users.update(999_999, { ...fields, username: 'x' }, { departmentIds: [], roleIds: [] })).toBe(false);
    expect((await users.page({ username: 'org.person2', offset: 0, limit: 10 })).users[0]).toMatchObject({ priority: 2, departments: [], roles: [] });
    expect(await users.setEnabled([id], false)).toBe(1);
    expect(await users.remove([id])).toBe(1);
    expect(await users.exists(id)).toBe(false);
  });

  it('creates the indexes its user page needs itself (no plugin does)', async () => {
    const { rows } = await sql<{ indexname: string }>`select indexname from pg_indexes where tablename in ('users', 'user_department_roles')`.execute(k.database.db);
    const names = rows.map((r) => r.indexname);
    for (const n of ['users_sort_username_idx', 'users_sort_priority_idx', 'users_username_trgm_idx', 'users_real_name_trgm_idx', 'users_status_idx', 'udr_department_idx']) expect(names).toContain(n);
  });
});
