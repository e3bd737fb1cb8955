import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// "Who" in a memory's history is a person's name (real name, else account), not `#3`.

let k: TestKernel;
let admin: string;

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['tm'] });
  admin = await k.login('admin', ADMIN_PASSWORD);
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
});

describe('memory history names', () => {
  it('answers the actor\'s name with the id: the real name, else the account name', async () => {
    const ana = await createUserWithRole(k, 'ana', 'Ana-Passw0rd', 'history-role', ['tm:view', 'tm:library', 'tm:add', 'tm:review']);
    await k.database.db.updateTable('users').set({ real_name: 'Ana López' }).where('id', '=', ana.userId).execute();
    const token = await k.login('ana', 'Ana-Passw0rd');
    const memory = (await k.call('POST', '/api/TM/library/add', token, { name: 'Named', ownership: 'department', kind: 'shared', users: [] })).body.data;
    const added = (await k.call('POST', '/api/TM/entry/add', token, { libraryId: memory.id, source: 'Good morning.', target: 'Buenos días.', sourceLang: 'en', targetLang: 'es' })).body.data;
    expect((await k.call('POST', '/api/TM/entry/review', admin, { ids: [added[0].id], action: 'pass' })).status).toBe(200);
    const history = (await k.call('GET', `/api/TMHistory/list?libraryId=${memory.id}`, admin)).body.data.records as Array<{ action: string; actorId: number; actorName: string | null }>;
    const adminId = (await k.database.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    const adminName = (await k.database.db.selectFrom('users').select('real_name').where('id', '=', adminId).executeTakeFirstOrThrow()).real_name?.trim() || 'admin';
    expect(history.map((h) => [h.action, h.actorId, h.actorName])).toEqual([
      ['pass', adminId, adminName],
      ['add', ana.userId, 'Ana López'],
    ]);
  });
});
