import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserDirectory } from '../src/access/directory.js';
import { createUserWithRole, startKernel, type TestKernel } from './support/kernel.js';

// ctx.users: what areas read about users instead of the kernel's tables, on a real database.

let k: TestKernel;
let ann: { userId: number; departmentId: number };
let bob: { userId: number; departmentId: number };

beforeAll(async () => {
  k = await startKernel();
  ann = await createUserWithRole(k, 'ann.lee', 'Ann-passw0rd!', 'dir readers', []);
  bob = await createUserWithRole(k, 'bob_stone', 'Bob-passw0rd!', 'dir writers', []);
  const db = k.database.db;
  const second = await db.insertInto('departments').values({ name: 'Second', code: 'second' }).returning('id').executeTakeFirstOrThrow();
  const role = await db.selectFrom('roles').select('id').where('name', '=', 'dir readers').executeTakeFirstOrThrow();
  await db.insertInto('user_department_roles').values({ user_id: ann.userId, department_id: second.id, role_id: role.id }).execute();
  await db.updateTable('users').set({ real_name: 'Ann Lee', priority: 7 }).where('id', '=', ann.userId).execute();
  await db.updateTable('users').set({ enabled: false }).where('id', '=', bob.userId).execute();
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
});

describe('the user directory', () => {
  it('gives a user\'s departments (home first) and whether they are a super administrator', async () => {
    const users = createUserDirectory(k.database.db);
    const member = await users.membership(ann.userId);
    expect(member).toMatchObject({ userId: ann.userId, isSuperAdmin: false });
    expect(member!.departmentIds).toHaveLength(2);
    expect(member!.departmentIds[0]).toBe(ann.departmentId);
    const adminId = (await k.database.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    expect((await users.membership(adminId))!.isSuperAdmin).toBe(true);
    expect(await users.membership(999_999)).toBeNull();
  });

  it('names users, finds enabled ones by account or real name (wildcards taken literally), pages all, and reads the priority', async () => {
    const users = createUserDirectory(k.database.db);
    const names = await users.names([ann.userId, bob.userId, 999_999]);
    expect([...names.keys()].sort()).toEqual([ann.userId, bob.userId].sort());
    expect(names.get(ann.userId)).toEqual({ id: ann.userId, username: 'ann.lee', realName: 'Ann Lee' });
    expect((await users.find('lee')).map((u) => u.username)).toEqual(['ann.lee']);
    // Disabled accounts are not offered in pickers; % and _ are characters, not patterns.
    expect(await users.find('bob')).toEqual([]);
    expect((await users.find('_')).map((u) => u.username)).toEqual([]);
    expect((await users.find('%')).map((u) => u.username)).toEqual([]);
    const page = await users.list({ text: 'stone', offset: 0, limit: 1 });
    expect(page.total).toBe(1);
    expect(page.users.map((u) => u.username)).toEqual(['bob_stone']);
    expect((await users.list({ offset: 0, limit: 500 })).total).toBeGreaterThanOrEqual(3);
    expect(await users.priority(ann.userId)).toBe(7);
    expect(await users.priority(999_999)).toBeNull();
  });

  it('pages users with the state of their API key (never the key), filtered by key and by name taken literally', async () => {
    const users = createUserDirectory(k.database.db);
    const used = new Date('2026-05-01T08:00:00Z');
    await k.database.db.updateTable('users').set({ api_key_hash: 'h', api_key_updated_at: used, api_key_last_used_at: used }).where('id', '=', bob.userId).execute();
    const withKey = await users.apiKeys({ hasKey: true, offset: 0, limit: 10 });
    expect(withKey.users).toEqual([{ id: bob.userId, username: 'bob_stone', realName: 'bob_stone', hasKey: true, updatedAt: used, lastUsedAt: used }]);
    expect(withKey.total).toBe(1);
    const without = await users.apiKeys({ hasKey: false, offset: 0, limit: 100 });
    expect(without.users.map((u) => u.id)).toContain(ann.userId);
    expect(without.users.every((u) => !u.hasKey && u.updatedAt === null)).toBe(true);
    expect((await users.apiKeys({ text: 'B_S', offset: 0, limit: 10 })).users.map((u) => u.id)).toEqual([bob.userId]);
    expect((await users.apiKeys({ text: '%', offset: 0, limit: 10 })).total).toBe(0);
  });
});
