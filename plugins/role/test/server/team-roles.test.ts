import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The built-in team roles (translator, reviewer, project manager) as a new install seeds them: what a
// user holding only one of them may do, through the real routes of the areas they work in.

let kernel: TestKernel;
let admin: string;
const db = () => kernel.database.db;

async function userWith(builtin: string, username: string): Promise<{ token: string; userId: number }> {
  const { userId, roleId } = await createUserWithRole(kernel, username, 'Team-Passw0rd', `${username}-scratch`, []);
  const role = await db().selectFrom('roles').select('id').where('builtin', '=', builtin).executeTakeFirstOrThrow();
  await db().updateTable('user_department_roles').set({ role_id: role.id }).where('user_id', '=', userId).execute();
  await db().deleteFrom('roles').where('id', '=', roleId).execute();
  return { token: await kernel.login(username, 'Team-Passw0rd'), userId };
}

let translator: string;
let reviewer: string;
let memoryId: number;

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['role', 'user', 'tm', 'term', 'corpus', 'trans-text', 'trans-file', 'service'] });
  admin = await kernel.login('admin', ADMIN_PASSWORD);
  const tina = await userWith('translator', 'tina');
  const rafa = await userWith('reviewer', 'rafa');
  translator = tina.token;
  reviewer = rafa.token;
  // A memory shared with both, to use and to edit (the memory's own rights; the role gives the buttons).
  const users = [tina, rafa].map((u) => ({ userId: u.userId, use: true, edit: true }));
  const memory = await kernel.call('POST', '/api/TM/library/add', admin, { name: 'Team memory', ownership: 'custom', kind: 'shared', users });
  memoryId = memory.body.data.id;
}, 180_000);

afterAll(async () => {
  await kernel?.shutdown();
});

describe('built-in team roles', () => {
  it('are seeded in both languages beside the normal user and the super administrator, and cannot be deleted', async () => {
    const as = async (locale: string) =>
      ((await kernel.app.inject({ method: 'GET', url: '/api/role/list', headers: { jwt: admin, cookie: `locale=${locale}` } })).json().data as Array<{ id: number; name: string; builtIn: boolean }>);
    const en = await as('en-US');
    expect(en.filter((r) => r.builtIn).map((r) => r.name)).toEqual(['Super administrator', 'Normal user', 'Translator', 'Reviewer', 'Project manager']);
    expect((await as('zh-CN')).filter((r) => r.builtIn).map((r) => r.name)).toEqual(['超级管理员', '普通用户', '翻译员', '审校员', '项目经理']);
    const pm = en.find((r) => r.name === 'Project manager')!;
    const refused = await kernel.app.inject({ method: 'DELETE', url: `/api/role/delete?ids=${pm.id}`, headers: { jwt: admin, cookie: 'locale=en-US' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toBe('Built-in roles cannot be deleted: Project manager');
  });

  it('let a translator translate text and documents and use memories, but not administer users or review', async () => {
    expect((await kernel.call('GET', '/api/transText/history', translator)).status).toBe(200);
    expect((await kernel.call('GET', '/api/transFile/list', translator)).status).toBe(200);
    expect((await kernel.call('GET', `/api/TM/entry/list?libraryId=${memoryId}`, translator)).status).toBe(200);
    const add = await kernel.call('POST', '/api/TM/entry/add', translator, { libraryId: memoryId, source: 'The printer is ready.', target: 'La impresora está lista.', sourceLang: 'en', targetLang: 'es' });
    expect(add.status).toBe(200);
    expect((await kernel.call('GET', '/api/user/getAllUserByPage', translator)).status).toBe(403);
    expect((await kernel.call('POST', '/api/TM/entry/review', translator, { ids: [add.body.data[0].id], action: 'pass' })).status).toBe(403);
    // Administration buttons are never part of a team role.
    const held = await db()
      .selectFrom('role_permissions as rp')
      .innerJoin('roles as r', 'r.id', 'rp.role_id')
      .innerJoin('permissions as p', 'p.id', 'rp.permission_id')
      .select(['r.builtin', 'p.key'])
      .where('r.builtin', 'in', ['translator', 'reviewer', 'projectManager'])
      .where('p.admin', '=', true)
      .execute();
    expect(held).toEqual([]);
  });

  it('let a reviewer review memory entries', async () => {
    const list = await kernel.call('GET', `/api/TM/entry/list?libraryId=${memoryId}`, reviewer);
    const id = list.body.data.records[0].id;
    const pass = await kernel.call('POST', '/api/TM/entry/review', reviewer, { ids: [id], action: 'pass' });
    expect(pass.status).toBe(200);
    expect(pass.body.data[0]).toMatchObject({ status: 'checked' });
  });
});
