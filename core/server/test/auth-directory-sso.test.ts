import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSecret } from '../src/auth/secret.js';
import { seedSignInFromEnv } from '../src/auth/seed-env.js';
import { saveSsoProvider } from '../src/auth/sso.js';
// @ts-expect-error plain ESM test helpers without type declarations
import { startSlapd } from '../../../scripts/lib/slapd.mjs';
// @ts-expect-error plain ESM test helpers without type declarations
import { startOidc } from '../../../scripts/lib/oidc.mjs';
import { ADMIN_PASSWORD, encryptFor, startKernel, type TestKernel } from './support/kernel.js';
import { englishCall } from './support/english.js';

/** Refusals are checked in their English wording: calls come from an English console (the locale cookie). */
const enCall: TestKernel['call'] = (...args) => englishCall(k)(...args);

// Directory sign-in against a real OpenLDAP slapd, and single sign-on against a real OpenID
// Connect provider (oidc-provider), both on loopback.

const REDIRECT = 'http://127.0.0.1:9/api/sso/login';
let k: TestKernel;
let ldap: Awaited<ReturnType<typeof startSlapd>>;
let idp: Awaited<ReturnType<typeof startOidc>>;

beforeAll(async () => {
  [k, ldap, idp] = await Promise.all([startKernel(), startSlapd(), startOidc({ redirectUri: REDIRECT })]);
  const secret = loadSecret(k.config.dataDir);
  expect(await seedSignInFromEnv(k.database.db, secret, { ...ldap.env })).toEqual(['directory testdir']);
  expect(await seedSignInFromEnv(k.database.db, secret, { ...idp.env })).toEqual([`single sign-on ${idp.issuer}`]);
});
afterAll(async () => {
  await Promise.all([k?.shutdown(), ldap?.stop(), idp?.stop()]);
});

describe('whether single sign-on is offered', () => {
  it('says so while an enabled provider exists', async () => {
    expect((await enCall('GET', '/api/sso/client/isEnabled')).body).toMatchObject({ code: 200, data: true });
    await k.database.db.updateTable('sso_providers').set({ enabled: false }).execute();
    expect((await enCall('GET', '/api/sso/client/isEnabled')).body.data).toBe(false);
    await k.database.db.updateTable('sso_providers').set({ enabled: true }).execute();
  });
});

describe('settings from the environment', () => {
  it('are written again only when the environment changed, so edits made in the screens survive a restart', async () => {
    const secret = loadSecret(k.config.dataDir);
    const db = k.database.db;
    // An administrator renames the domain and the provider in the screens.
    await db.updateTable('directory_domains').set({ name: 'Renamed directory' }).where('symbol', '=', 'testdir').execute();
    await db.updateTable('sso_providers').set({ name: 'Renamed SSO' }).where('issuer', '=', idp.issuer).execute();
    // The next start, same environment: nothing is written.
    expect(await seedSignInFromEnv(db, secret, { ...ldap.env, ...idp.env })).toEqual([]);
    expect((await db.selectFrom('directory_domains').select('name').where('symbol', '=', 'testdir').executeTakeFirstOrThrow()).name).toBe('Renamed directory');
    expect((await db.selectFrom('sso_providers').select('name').where('issuer', '=', idp.issuer).executeTakeFirstOrThrow()).name).toBe('Renamed SSO');
    // A changed environment wins.
    expect(await seedSignInFromEnv(db, secret, { ...ldap.env, LDAP_NAME: 'From env' })).toEqual(['directory testdir']);
    expect((await db.selectFrom('directory_domains').select('name').where('symbol', '=', 'testdir').executeTakeFirstOrThrow()).name).toBe('From env');
    // Put the domain back as the other tests expect it.
    expect(await seedSignInFromEnv(db, secret, { ...ldap.env })).toEqual(['directory testdir']);
  });
});

async function login(username: string, password: string, symbol: string) {
  const pk = (await enCall('GET', '/api/user/getOnePublicKey')).body.data;
  return (await enCall('POST', '/api/login', null, { username, password: encryptFor(pk, password), publicKey: pk, symbol })).body;
}

describe('directory sign-in (LDAP)', () => {
  it('lists enabled domains publicly, without their secrets', async () => {
    const res = await enCall('OPTIONS', '/api/ldap/getAllSymbols');
    expect(res.body.data).toEqual([{ symbol: 'testdir', name: 'Test directory' }]);
    const row = await k.database.db.selectFrom('directory_domains').select('bind_password').executeTakeFirstOrThrow();
    expect(row.bind_password).not.toContain(ldap.adminPassword);
  });

  it('binds as the user and provisions a directory account on first sign-in', async () => {
    await ldap.addUser('alice', 'Alice-ldap-1', 'Alice Liddell');
    const first = await login('alice', 'Alice-ldap-1', 'testdir');
    expect(first.code).toBe(200);
    const info = (await k.call('GET', '/api/user/getUserInfoByToken', first.data.token)).body.data;
    expect(info.user).toMatchObject({ username: 'alice', realName: 'Alice Liddell', userType: 1 });
    expect(info.departmentRoleBos).toEqual([expect.objectContaining({ department: expect.objectContaining({ departmentName: '默认部门' }), roles: [expect.objectContaining({ roleName: '普通用户' })] })]);
    // Second sign-in: the same account.
    const again = await login('alice', 'Alice-ldap-1', 'testdir');
    expect(again.data.userId).toBe(first.data.userId);
    // The directory password is not a local password.
    expect((await login('alice', 'Alice-ldap-1', '')).msg).toBe('Bad credentials');
  });

  it('answers Bad credentials for a wrong password or an unknown user, and counts the failures', async () => {
    expect((await login('alice', 'wrong-password', 'testdir')).msg).toBe('Bad credentials');
    expect((await login('nosuchuser', 'whatever-1', 'testdir')).msg).toBe('Bad credentials');
    const row = await k.database.db.selectFrom('login_throttle').select('failures').where('scope', '=', 'user:alice').executeTakeFirstOrThrow();
    // Two: the wrong password here and the local-password attempt of the test before.
    expect(row.failures).toBe(2);
  });

  it('cannot widen the search filter through the username', async () => {
    await ldap.addUser('bob', 'Bob-ldap-1', 'Bob');
    expect((await login('*', 'Bob-ldap-1', 'testdir')).msg).toBe('Bad credentials');
    expect((await login('b*', 'Bob-ldap-1', 'testdir')).msg).toBe('Bad credentials');
  });

  it('refuses a directory user whose name a local account already holds', async () => {
    await ldap.addUser('admin', 'Admin-ldap-1', 'Not the admin');
    const res = await login('admin', 'Admin-ldap-1', 'testdir');
    expect(res.code).toBe(304);
    expect(res.msg).toMatch(/already used by another account/);
    // A Chinese console reads it in Chinese.
    const pk = (await k.call('GET', '/api/user/getOnePublicKey')).body.data;
    const zh = (await k.call('POST', '/api/login', null, { username: 'admin', password: encryptFor(pk, 'Admin-ldap-1'), publicKey: pk, symbol: 'testdir' })).body;
    expect(zh.msg).toBe('账户名 admin 已被另一个账户使用，请联系管理员');
    // The local administrator is untouched.
    expect((await login('admin', ADMIN_PASSWORD, '')).code).toBe(200);
  });

  it('names an unknown domain', async () => {
    expect((await login('alice', 'Alice-ldap-1', 'nodomain')).msg).toBe('Unknown directory domain nodomain');
  });
});

/** A browser stand-in: follows redirects by hand on the provider, keeping its cookies. */
async function completeAtProvider(authorizeUrl: string, username: string, password: string, redirect = REDIRECT): Promise<string> {
  const jar = new Map<string, string>();
  const request = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as object), cookie: [...jar].map(([n, v]) => `${n}=${v}`).join('; ') } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return res;
  };
  let url = authorizeUrl;
  for (let step = 0; step < 20; step++) {
    const res = await request(url);
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, url).href;
      if (next.startsWith(redirect)) return next;
      url = next;
      continue;
    }
    const html = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form at ${url}: ${html.slice(0, 300)}`);
    const body = action.endsWith('/login') ? new URLSearchParams({ username, password }) : new URLSearchParams();
    const posted = await request(new URL(action, url).href, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    if (!(posted.status >= 300 && posted.status < 400)) throw new Error(`form post at ${action} answered ${posted.status}: ${(await posted.text()).slice(0, 300)}`);
    url = new URL(posted.headers.get('location')!, url).href;
    if (url.startsWith(redirect)) return url;
  }
  throw new Error('too many redirects at the provider');
}

describe('single sign-on (OpenID Connect, code flow with PKCE)', () => {
  it('signs a new user in through the provider and hands the session out once', async () => {
    await idp.addUser('sub-carol', 'carol', 'Carol-idp-1', 'Carol Chen');
    const page = (await enCall('GET', '/api/sso/client/getSSOLoginPage')).body.data;
    const authorize = new URL(page.url);
    expect(authorize.origin).toBe(idp.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe(REDIRECT);
    // Before the provider answers, the status is pending (4015).
    expect((await enCall('GET', `/api/sso/client/getSSOStatus?ticket=${encodeURIComponent(page.ticket)}`)).body.code).toBe(4015);
    const back = new URL(await completeAtProvider(page.url, 'carol', 'Carol-idp-1'));
    expect(back.searchParams.get('code')).toBeTruthy();
    const redirected = await k.app.inject({ method: 'GET', url: `/api/sso/login${back.search}` });
    expect(redirected.statusCode).toBe(302);
    const location = new URL(redirected.headers.location as string, 'http://x');
    expect(location.pathname).toBe('/sso');
    expect(location.searchParams.get('ticket')).toBe(page.ticket);
    const status = (await enCall('GET', `/api/sso/client/getSSOStatus?ticket=${encodeURIComponent(page.ticket)}`)).body;
    expect(status.code).toBe(200);
    const info = (await k.call('GET', '/api/user/getUserInfoByToken', status.data.token)).body.data;
    expect(info.user).toMatchObject({ username: 'carol', realName: 'Carol Chen', userType: 2 });
    expect((await enCall('GET', `/api/sso/client/getSSOStatus?ticket=${encodeURIComponent(page.ticket)}`)).body.msg).toBe('This single sign-on ticket was already used');
    // A replayed redirect does not sign in again.
    await k.app.inject({ method: 'GET', url: `/api/sso/login${back.search}` });
    const row = await k.database.db.selectFrom('sso_logins').select(['outcome', 'collected_at']).where('state', '=', back.searchParams.get('state')!).executeTakeFirstOrThrow();
    expect(row.outcome).toBe('ok');
  });

  it('links an existing unlinked account by username, and answers 4014 while its password is expired', async () => {
    const db = k.database.db;
    await db.insertInto('users').values({ username: 'dave', real_name: 'Dave', password_hash: 'x', need_password_change: true }).execute();
    const dave = await db.selectFrom('users').select('id').where('username', '=', 'dave').executeTakeFirstOrThrow();
    const role = await db.selectFrom('roles').select('id').where('is_default', '=', true).executeTakeFirstOrThrow();
    await db.insertInto('user_department_roles').values({ user_id: dave.id, department_id: 1, role_id: role.id }).execute();
    await idp.addUser('sub-dave', 'dave', 'Dave-idp-1');
    const page = (await enCall('GET', '/api/sso/client/getSSOLoginPage')).body.data;
    const back = new URL(await completeAtProvider(page.url, 'dave', 'Dave-idp-1'));
    await k.app.inject({ method: 'GET', url: `/api/sso/login${back.search}` });
    const status = (await enCall('GET', `/api/sso/client/getSSOStatus?ticket=${encodeURIComponent(page.ticket)}`)).body;
    expect(status).toMatchObject({ code: 4014, data: { userId: dave.id, reason: 'password' } });
    const linked = await db.selectFrom('users').select(['external_source', 'external_subject']).where('id', '=', dave.id).executeTakeFirstOrThrow();
    expect(linked).toEqual({ external_source: `oidc:${idp.issuer}`, external_subject: 'sub-dave' });
  });

  it('refuses a callback with a state it did not issue, and a code exchanged with the wrong verifier', async () => {
    const bogus = await k.app.inject({ method: 'GET', url: '/api/sso/login?code=abc&state=made-up' });
    expect(bogus.headers.location).toBe('/sso?error=unknown-state');
    await idp.addUser('sub-erin', 'erin', 'Erin-idp-1');
    const page = (await enCall('GET', '/api/sso/client/getSSOLoginPage')).body.data;
    const back = new URL(await completeAtProvider(page.url, 'erin', 'Erin-idp-1'));
    // Tamper with the stored verifier: the provider must refuse the exchange (PKCE is checked).
    await k.database.db.updateTable('sso_logins').set({ code_verifier: 'x'.repeat(43) }).where('state', '=', back.searchParams.get('state')!).execute();
    await k.app.inject({ method: 'GET', url: `/api/sso/login${back.search}` });
    const status = (await enCall('GET', `/api/sso/client/getSSOStatus?ticket=${encodeURIComponent(page.ticket)}`)).body;
    expect(status.code).toBe(304);
    expect(status.msg).toMatch(/Single sign-on failed/);
    // The outcome is stored in both languages: a Chinese console asking again reads it in Chinese.
    expect((await k.call('GET', `/api/sso/client/getSSOStatus?ticket=${encodeURIComponent(page.ticket)}`)).body.msg).toMatch(/^单点登录失败：/);
    expect(await k.database.db.selectFrom('users').select('id').where('username', '=', 'erin').executeTakeFirst()).toBeUndefined();
  });

  it('derives the redirect URI from the Host header when the provider has none', async () => {
    const other = await startOidc();
    const db = k.database.db;
    try {
      await db.updateTable('sso_providers').set({ enabled: false }).execute();
      await saveSsoProvider(db, loadSecret(k.config.dataDir), { name: 'Other', issuer: other.issuer, clientId: other.clientId, clientSecret: other.clientSecret, redirectUri: null });
      await other.addUser('sub-fay', 'fay', 'Fay-idp-1');
      const page = (await k.app.inject({ method: 'GET', url: '/api/sso/client/getSSOLoginPage', headers: { host: '127.0.0.1:5555' } })).json().data;
      const derived = 'http://127.0.0.1:5555/api/sso/login';
      expect(new URL(page.url).searchParams.get('redirect_uri')).toBe(derived);
      const back = new URL(await completeAtProvider(page.url, 'fay', 'Fay-idp-1', derived));
      await k.app.inject({ method: 'GET', url: `/api/sso/login${back.search}` });
      const status = (await enCall('GET', `/api/sso/client/getSSOStatus?ticket=${encodeURIComponent(page.ticket)}`)).body;
      expect(status.code).toBe(200);
    } finally {
      await db.deleteFrom('sso_providers').where('issuer', '=', other.issuer).execute();
      await db.updateTable('sso_providers').set({ enabled: true }).execute();
      await other.stop();
    }
  });
});

describe('administration of directory domains and SSO providers', () => {
  it('refuses every change without directory:manage / sso:manage and changes nothing', async () => {
    const db = k.database.db;
    const { createUserWithRole } = await import('./support/kernel.js');
    await createUserWithRole(k, 'plainuser', 'Plain-pass-1', 'Plain role', []);
    const token = await k.login('plainuser', 'Plain-pass-1');
    const before = { d: await db.selectFrom('directory_domains').selectAll().execute(), p: await db.selectFrom('sso_providers').selectAll().execute() };
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/ldap/domains'],
      ['POST', '/api/ldap/domains', { symbol: 'x', name: 'X', url: 'ldap://127.0.0.1:1', baseDn: 'dc=x' }],
      ['DELETE', '/api/ldap/domains/testdir'],
      ['GET', '/api/sso/providers'],
      ['POST', '/api/sso/providers', { name: 'X', issuer: 'https://idp.example', clientId: 'x' }],
      ['DELETE', '/api/sso/providers/1'],
    ];
    for (const [method, url, payload] of calls) expect((await enCall(method, url, token, payload)).status, `${method} ${url}`).toBe(403);
    expect({ d: await db.selectFrom('directory_domains').selectAll().execute(), p: await db.selectFrom('sso_providers').selectAll().execute() }).toEqual(before);
  });

  it('saves, lists (without secrets) and deletes a directory domain; an update without a password keeps it', async () => {
    const admin = await k.login('admin', ADMIN_PASSWORD);
    const saved = await enCall('POST', '/api/ldap/domains', admin, { symbol: 'corp', name: 'Corp', url: ldap.url, bindDn: ldap.adminDn, bindPassword: ldap.adminPassword, baseDn: `ou=people,${ldap.baseDn}` });
    expect(saved.body.data).toMatchObject({ symbol: 'corp', hasBindPassword: true, userFilter: '(uid={username})' });
    expect(JSON.stringify((await enCall('GET', '/api/ldap/domains', admin)).body.data)).not.toContain(ldap.adminPassword);
    await enCall('POST', '/api/ldap/domains', admin, { symbol: 'corp', name: 'Corp renamed', url: ldap.url, bindDn: ldap.adminDn, baseDn: `ou=people,${ldap.baseDn}` });
    await ldap.addUser('gina', 'Gina-ldap-1', 'Gina');
    expect((await login('gina', 'Gina-ldap-1', 'corp')).code).toBe(200);
    expect((await enCall('OPTIONS', '/api/ldap/getAllSymbols')).body.data).toContainEqual({ symbol: 'corp', name: 'Corp renamed' });
    expect((await enCall('POST', '/api/ldap/domains', admin, { symbol: 'bad', name: 'Bad', url: 'http://x', baseDn: 'dc=x', userFilter: 'uid=x' })).status).toBe(400);
    expect((await enCall('DELETE', '/api/ldap/domains/corp', admin)).body.code).toBe(200);
    expect((await login('gina', 'Gina-ldap-1', 'corp')).msg).toBe('Unknown directory domain corp');
  });

  it('keeps a stored secret when an update leaves it out and clears it when an update sends an empty string', async () => {
    const admin = await k.login('admin', ADMIN_PASSWORD);
    const provider = { name: 'Spare', issuer: 'https://spare.example', clientId: 'spare' };
    const { id } = (await enCall('POST', '/api/sso/providers', admin, { ...provider, clientSecret: 'spare-secret' })).body.data;
    expect((await enCall('POST', '/api/sso/providers', admin, { ...provider, id, name: 'Spare 2' })).body.data).toMatchObject({ name: 'Spare 2', hasClientSecret: true });
    expect((await enCall('POST', '/api/sso/providers', admin, { ...provider, id, clientSecret: '' })).body.data).toMatchObject({ hasClientSecret: false });
    expect((await enCall('DELETE', `/api/sso/providers/${id}`, admin)).body.code).toBe(200);
    const domain = { symbol: 'spare', name: 'Spare', url: 'ldap://127.0.0.1:1', baseDn: 'dc=spare' };
    expect((await enCall('POST', '/api/ldap/domains', admin, { ...domain, bindPassword: 'pw' })).body.data).toMatchObject({ hasBindPassword: true });
    expect((await enCall('POST', '/api/ldap/domains', admin, domain)).body.data).toMatchObject({ hasBindPassword: true });
    expect((await enCall('POST', '/api/ldap/domains', admin, { ...domain, bindPassword: '' })).body.data).toMatchObject({ hasBindPassword: false });
    expect((await enCall('DELETE', '/api/ldap/domains/spare', admin)).body.code).toBe(200);
  });

  it('lists SSO providers without their client secrets', async () => {
    const admin = await k.login('admin', ADMIN_PASSWORD);
    const list = (await enCall('GET', '/api/sso/providers', admin)).body.data;
    expect(list[0]).toMatchObject({ issuer: idp.issuer, clientId: idp.clientId, hasClientSecret: true });
    expect(JSON.stringify(list)).not.toContain(idp.clientSecret);
  });
});
