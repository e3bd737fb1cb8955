import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

