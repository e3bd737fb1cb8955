import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// A corpus answers its owner's name beside the id, so a manager's list says whose each one is.

let k: TestKernel;
let admin: string;

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['corpus'] });
  admin = await k.login('admin', ADMIN_PASSWORD);
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
});

describe('corpus owner names', () => {
  it('names the owner in the list, the detail and the answer to a create: real name, else the account', async () => {
    const bo = await createUserWithRole(k, 'bo', 'Bo-Passw0rd1', 'corpus-owner', ['corpus:view', 'corpus:edit']);
    await k.database.db.updateTable('users').set({ real_name: 'Bo Zhang' }).where('id', '=', bo.userId).execute();
    const token = await k.login('bo', 'Bo-Passw0rd1');
    const created = await k.call('POST', '/api/corpus/add', token, { name: 'Manuals', sourceLang: 'en', targetLang: 'es' });
    expect(created.body.data).toMatchObject({ ownerId: bo.userId, ownerName: 'Bo Zhang' });
    const list = (await k.call('GET', '/api/corpus/list', admin)).body.data.records as Array<{ name: string; ownerName: string | null }>;
    expect(list.find((c) => c.name === 'Manuals')?.ownerName).toBe('Bo Zhang');
    expect((await k.call('GET', `/api/corpus/detail?id=${created.body.data.id}`, admin)).body.data.ownerName).toBe('Bo Zhang');
    await k.database.db.updateTable('users').set({ real_name: null }).where('id', '=', bo.userId).execute();
    expect((await k.call('GET', `/api/corpus/detail?id=${created.body.data.id}`, admin)).body.data.ownerName).toBe('bo');
  });
});
