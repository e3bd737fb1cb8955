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
