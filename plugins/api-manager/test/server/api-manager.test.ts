import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The api-manager plugin loaded by the real kernel; resets go through the kernel's own route.

let kernel: TestKernel;
let admin: string;
let plain: string;
let plainId: number;

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['api-manager'] });
  admin = await kernel.login('admin', ADMIN_PASSWORD);
  plainId = (await createUserWithRole(kernel, 'plain', 'Plain-Passw0rd', 'plain-role', [])).userId;
  plain = await kernel.login('plain', 'Plain-Passw0rd');
}, 120_000);

afterAll(async () => {
  await kernel?.shutdown();
});

const row = async () => (await kernel.call('GET', '/api/apiManager/list?username=plain', admin)).body.data.records[0];

describe('API key status', () => {
  it('shows a user without a key, then a masked key with the next allowed reset after a reset', async () => {
    expect(await row()).toMatchObject({ id: plainId, hasKey: false, maskedKey: null, nextResetAt: null, lastUsedAt: null });
    const reset = await kernel.call('GET', `/api/user/updateApiKey/${plainId}`, admin);
    expect(reset.body.code).toBe(200);
    const after = await row();
    expect(after).toMatchObject({ hasKey: true, maskedKey: '****************' });
    expect(new Date(after.nextResetAt).getTime() - new Date(after.updatedAt).getTime()).toBe(24 * 3_600_000);
    // The kernel refuses a second reset inside 24 hours.
    expect((await kernel.call('GET', `/api/user/updateApiKey/${plainId}`, admin)).body.code).toBe(429);
  });

  it('filters by user name and by key presence', async () => {
    const withKey = (await kernel.call('GET', '/api/apiManager/list?hasKey=1&pageSize=100', admin)).body.data.records as Array<{ username: string }>;
    expect(withKey.map((r) => r.username)).toEqual(['plain']);
    const without = (await kernel.call('GET', '/api/apiManager/list?hasKey=0&pageSize=100', admin)).body.data.records as Array<{ username: string }>;
    expect(without.map((r) => r.username)).toContain('admin');
  });

  it('shows the last use time once the column is written', async () => {
    await kernel.database.db.updateTable('users').set({ api_key_last_used_at: new Date('2026-03-01T09:00:00Z') }).where('id', '=', plainId).execute();
    expect((await row()).lastUsedAt).toBe('2026-03-01T09:00:00.000Z');
  });

  it("shows the guest account's seeded name in the reader's language", async () => {
    await kernel.database.db
      .insertInto('system_config')
      .values({ config_key: 'GUEST_LOGIN', config_value: '1' })
      .onConflict((oc) => oc.column('config_key').doUpdateSet({ config_value: '1' }))
      .execute();
    expect((await kernel.call('GET', '/api/user/getGuestUser')).body.code).toBe(200);
    const guestIn = async (locale: string) => {
      const res = await kernel.app.inject({ method: 'GET', url: '/api/apiManager/list?username=guest', headers: { jwt: admin, 'accept-language': locale } });
      return (res.json().data.records as Array<{ username: string; realName: string }>).find((r) => r.username === 'guest')?.realName;
    };
    expect(await guestIn('zh-CN')).toBe('访客');
    expect(await guestIn('en-US')).toBe('Guest');
  });

  it('answers 403 without the key', async () => {
    expect((await kernel.call('GET', '/api/apiManager/list', plain)).status).toBe(403);
  });
});
