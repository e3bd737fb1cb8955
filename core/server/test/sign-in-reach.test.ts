import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveApiKeyCaller } from '../src/auth/api-keys.js';
import { ADMIN_PASSWORD, createUserWithRole, encryptFor, startKernel, type TestKernel } from './support/kernel.js';

// What each kind of sign-in reaches past the route gate: an API key only the routes of its scopes,
// a quick-access session and the guest no account route; a password change ends the other sessions.

let k: TestKernel;
let admin: string;

beforeAll(async () => {
  k = await startKernel({ logLevel: 'warn' });
  admin = await k.login('admin', ADMIN_PASSWORD);
}, 120_000);
afterAll(async () => {
  await k?.shutdown();
});

const withKey = (method: string, url: string, apiKey: string, payload?: object) =>
  k.app.inject({ method: method as 'GET', url, headers: { 'x-api-key': apiKey }, ...(payload ? { payload } : {}) });
const openSessions = async (userId: number) =>
  Number((await k.database.db.selectFrom('sessions').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirstOrThrow()).n);

async function setConfig(key: string, value: string) {
  await k.database.db
    .insertInto('system_config')
    .values({ config_key: key, config_value: value })
    .onConflict((oc) => oc.column('config_key').doUpdateSet({ config_value: value }))
    .execute();
}

async function changeOwnPassword(token: string, oldPassword: string, newPassword: string) {
  const pk = (await k.call('GET', '/api/user/getOnePublicKey')).body.data;
  const q = new URLSearchParams({ oldPassword: encryptFor(pk, oldPassword), newPassword: encryptFor(pk, newPassword), publicKey: pk });
  return k.call('GET', `/api/user/updatePasswordForced?${q}`, token);
}

describe('API keys', () => {
  it('cannot mint a console session, nor reach account or session routes', async () => {
    const adminKey: string = (await k.call('GET', '/api/user/updateApiKey/1', admin)).body.data;
    expect(adminKey).toMatch(/^lp_/);
    const before = await openSessions(1);
    const switched = await withKey('POST', '/api/user/switchDepartment', adminKey, { departmentId: 1 });
    expect(switched.statusCode).toBe(403);
    expect(switched.json()).toMatchObject({ code: 403, data: null });
    expect(await openSessions(1)).toBe(before);
    for (const [method, url] of [['GET', '/api/user/getApiKey'], ['GET', '/api/user/updateApiKey/1'], ['GET', '/api/user/getUserInfoByToken'], ['POST', '/api/logout'], ['GET', '/api/permissionMenu/getAllPermissionMenu']]) {
      expect((await withKey(method!, url!, adminKey)).statusCode, `${method} ${url}`).toBe(403);
    }
    // The default scope reaches the public API (its document here).
    expect((await withKey('GET', '/api/openapi.json', adminKey)).statusCode).toBe(200);
  });

  it('have the translate scope by default; only the owner grants others, and a new key starts over', async () => {
    const u = await createUserWithRole(k, 'scoper', 'Scoper-pass-1', 'Scoper role', []);
    const token = await k.login('scoper', 'Scoper-pass-1');
    const apiKey: string = (await k.call('GET', `/api/user/updateApiKey/${u.userId}`, token)).body.data;
    expect((await k.call('GET', '/api/user/getApiKey', token)).body.data).toEqual({ apiKey, scopes: ['translate'] });
    expect([...(await resolveApiKeyCaller(k.database.db, apiKey, k.clock.now))!.apiKeyScopes!]).toEqual(['translate']);
    // The key cannot widen itself; unknown scopes are bad input and change nothing.
    expect((await withKey('PUT', '/api/user/apiKeyScopes', apiKey, { scopes: ['translate', 'history'] })).statusCode).toBe(403);
    expect((await k.call('PUT', '/api/user/apiKeyScopes', token, { scopes: ['everything'] })).status).toBe(400);
    expect((await k.call('PUT', '/api/user/apiKeyScopes', token, { scopes: [] })).status).toBe(400);
    expect((await k.call('GET', '/api/user/getApiKey', token)).body.data.scopes).toEqual(['translate']);
    // Without translate the key no longer reaches the translation API's routes.
    expect((await k.call('PUT', '/api/user/apiKeyScopes', token, { scopes: ['textTools'] })).body.data).toEqual({ scopes: ['textTools'] });
    expect((await withKey('POST', '/api/lt/detect', apiKey, { q: 'The weather is fine today in the city.' })).statusCode).toBe(403);
    expect((await k.call('PUT', '/api/user/apiKeyScopes', token, { scopes: ['history', 'translate'] })).body.data).toEqual({ scopes: ['translate', 'history'] });
    expect((await withKey('POST', '/api/lt/detect', apiKey, { q: 'The weather is fine today in the city.' })).statusCode).toBe(200);
    k.clock.advance(24 * 3_600_000);
    const renewed: string = (await k.call('GET', `/api/user/updateApiKey/${u.userId}`, token)).body.data;
    expect((await k.call('GET', '/api/user/getApiKey', token)).body.data).toEqual({ apiKey: renewed, scopes: ['translate'] });
  });
});

describe('quick-access sessions', () => {
  it("stay on their page: no API key of the link's user, no account route", async () => {
    const made = await k.call('POST', '/api/quickAccess/create', admin, { userId: 1, path: '/home', expiresInMinutes: 10 });
    const session: string = (await k.call('GET', `/api/quickAccess/login?token=${encodeURIComponent(made.body.data.token)}`)).body.data.token;
    const keyBefore = (await k.call('GET', '/api/user/getApiKey', admin)).body.data.apiKey;
    for (const url of ['/api/user/updateApiKey/1', '/api/user/checkUpdateApiKey/1', '/api/user/getApiKey']) {
      const res = await k.call('GET', url, session);
      expect(res.status, url).toBe(403);
    }
    expect((await k.call('PUT', '/api/user/updateOwnProfile', session, { realName: 'Taken over' })).status).toBe(403);
    // The shell still loads the user, without the key.
    const info = await k.call('GET', '/api/user/getUserInfoByToken', session);
    expect(info.body.data.user).toMatchObject({ username: 'admin', apiKey: null });
    expect((await k.call('GET', '/api/user/getApiKey', admin)).body.data.apiKey).toBe(keyBefore);
  });
});

describe('the guest', () => {
  it('has no API key and cannot reset the shared one', async () => {
    await setConfig('GUEST_LOGIN', '1');
    try {
      const res = await k.call('GET', '/api/user/getGuestUser');
      const guest: string = res.body.data.token;
      const guestId: number = res.body.data.userId;
      expect((await k.call('GET', `/api/user/updateApiKey/${guestId}`, guest)).status).toBe(403);
      expect((await k.call('GET', `/api/user/checkUpdateApiKey/${guestId}`, guest)).status).toBe(403);
      expect((await k.call('GET', '/api/user/getApiKey', guest)).status).toBe(403);
      const row = await k.database.db.selectFrom('users').select('api_key_hash').where('id', '=', guestId).executeTakeFirstOrThrow();
      expect(row.api_key_hash).toBeNull();
      // Even a key planted on the guest account authenticates nothing.
      const planted = (await k.call('GET', `/api/user/updateApiKey/${guestId}`, admin)).body.data as string;
      expect(planted).toMatch(/^\*{16}/);
      const sealed = await k.database.db.selectFrom('users').select('api_key_hash').where('id', '=', guestId).executeTakeFirstOrThrow();
      expect(sealed.api_key_hash).not.toBeNull();
      expect((await k.call('GET', '/api/user/getUserInfoByToken', guest)).body.data.user.apiKey).toBeNull();
    } finally {
      await setConfig('GUEST_LOGIN', '0');
    }
  });
});

describe('password changes', () => {
  it("end the user's other sessions, each time, and keep the one that made the change", async () => {
    await createUserWithRole(k, 'rotator', 'Rotator-pass-1', 'Rotator role', []);
    const old = await k.login('rotator', 'Rotator-pass-1');
    const current = await k.login('rotator', 'Rotator-pass-1');
    expect((await changeOwnPassword(current, 'Rotator-pass-1', 'Rotator-pass-2')).body.code).toBe(200);
    expect((await k.call('GET', '/api/user/getUserInfoByToken', old)).body.code).toBe(601);
    expect((await k.call('GET', '/api/user/getUserInfoByToken', current)).body.code).toBe(200);
    const second = await k.login('rotator', 'Rotator-pass-2');
    expect((await changeOwnPassword(current, 'Rotator-pass-2', 'Rotator-pass-3')).body.code).toBe(200);
    expect((await k.call('GET', '/api/user/getUserInfoByToken', second)).body.code).toBe(601);
    expect((await k.call('GET', '/api/user/getUserInfoByToken', current)).body.code).toBe(200);
  });
});
