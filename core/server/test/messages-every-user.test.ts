import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The header's message dropdown and the /messages page serve every signed-in user, whatever their
// roles: a normal user (and a team role, which has no /news menu) reads, opens and marks their own.

let k: TestKernel;
const db = () => k.database.db;

async function userHolding(where: 'is_default' | 'translator', username: string) {
  const { userId, roleId } = await createUserWithRole(k, username, 'Msg-Passw0rd1', `${username}-scratch`, []);
  const role =
    where === 'is_default'
      ? await db().selectFrom('roles').select('id').where('is_default', '=', true).executeTakeFirstOrThrow()
      : await db().selectFrom('roles').select('id').where('builtin', '=', 'translator').executeTakeFirstOrThrow();
  await db().updateTable('user_department_roles').set({ role_id: role.id }).where('user_id', '=', userId).execute();
  await db().deleteFrom('roles').where('id', '=', roleId).execute();
  return { userId, token: await k.login(username, 'Msg-Passw0rd1') };
}

async function send(userId: number, content: string, type = 'alert') {
  return (await db().insertInto('messages').values({ user_id: userId, type, content }).returning('id').executeTakeFirstOrThrow()).id as number;
}

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['news'] });
  await k.login('admin', ADMIN_PASSWORD);
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
});

describe('every user reads their own messages', () => {
  it.each([['is_default', 'nora'], ['translator', 'tomas']] as const)('a user holding the %s role lists, opens, marks one and marks all read', async (role, name) => {
    const me = await userHolding(role, name);
    const other = await userHolding('is_default', `${name}-other`);
    const first = await send(me.userId, 'Your export is ready');
    await send(me.userId, 'Review passed: 3 entries', 'check');
    await send(other.userId, 'Not yours');
    const page = await k.call('GET', '/api/messageRemind/messagesByPage?pageNum=1&pageSize=10', me.token);
    expect(page.status).toBe(200);
    expect(page.body.data.records.map((m: { content: string }) => m.content).sort()).toEqual(['Review passed: 3 entries', 'Your export is ready']);
    expect((await k.call('GET', '/api/messageRemind/unreadCount', me.token)).body.data).toBe(2);
    expect((await k.call('PUT', '/api/messageRemind/updateMessages', me.token, { ids: [first] })).body.data).toEqual({ updated: 1, unread: 1 });
    const unread = await k.call('GET', '/api/messageRemind/messagesByPage?pageNum=1&pageSize=10&isRead=false', me.token);
    expect(unread.body.data.records.map((m: { content: string }) => m.content)).toEqual(['Review passed: 3 entries']);
    expect((await k.call('PUT', '/api/messageRemind/updateMessages', me.token, { all: true })).body.data).toEqual({ updated: 1, unread: 0 });
    // The other user's message is untouched.
    expect((await k.call('GET', '/api/messageRemind/unreadCount', other.token)).body.data).toBe(1);
  });
});
