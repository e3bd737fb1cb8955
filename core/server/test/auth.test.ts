import { createHash, createPublicKey } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../src/auth/admin.js';
import { ADMIN_PASSWORD, createUserWithRole, encryptFor, startKernel, type TestKernel } from './support/kernel.js';
import { englishCall } from './support/english.js';

/** Refusals are checked in their English wording: calls come from an English console (the locale cookie). */
const enCall: TestKernel['call'] = (...args) => englishCall(k)(...args);

// Sign-in, sessions, user info, menus and enforcement, through the real routes on a real database.

let k: TestKernel;
let reader: { userId: number; departmentId: number };
let nobody: { userId: number };

beforeAll(async () => {
  k = await startKernel();
  reader = await createUserWithRole(k, 'reader', 'Reader-pass-1', 'Note reader', ['menu:/notes', 'notes:view']);
  nobody = await createUserWithRole(k, 'nobody', 'Nobody-pass-1', 'No grants', []);
});
afterAll(async () => {
  await k?.shutdown();
});

async function loginWith(username: string, password: string, transform?: (payload: Record<string, string>) => Record<string, string>) {
  const key = (await enCall('GET', '/api/user/getOnePublicKey')).body.data as string;
  const payload = { username, password: encryptFor(key, password), publicKey: key, symbol: '' };
  return (await enCall('POST', '/api/login', null, transform ? transform(payload) : payload)).body;
}

describe('first administrator', () => {
  it('uses ADMIN_PASSWORD, prints nothing and writes no password file', async () => {
    expect((await loginWith('admin', ADMIN_PASSWORD)).code).toBe(200);
    expect(k.printed).toEqual([]);
    expect(existsSync(join(k.config.dataDir, 'initial-admin-password'))).toBe(false);
  });

  it('without ADMIN_PASSWORD prints a random password once and keeps it in a 0600 file', async () => {
    const other = await startKernel({ adminPassword: null });
    try {
      expect(other.printed).toHaveLength(1);
      const [, password] = /^Initial administrator: admin \/ (\S+)$/.exec(other.printed[0]) ?? [];
      expect(password).toHaveLength(20);
      const file = join(other.config.dataDir, 'initial-admin-password');
      expect(readFileSync(file, 'utf8').trim()).toBe(password);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      await expect(other.login('admin', password)).resolves.toMatch(/^[A-Za-z0-9_-]{43}$/);
      // A second start finds the administrator and leaves everything alone.
      const again: string[] = [];
      expect(await ensureAdmin(other.database.db, { dataDir: other.config.dataDir, adminPassword: null }, (l) => void again.push(l))).toEqual({ created: false });
      expect(again).toEqual([]);
    } finally {
      await other.shutdown();
    }
  });
});

describe('one-time public keys', () => {
  it('hands out a base64 SPKI DER RSA-2048 public key', async () => {
    const res = await enCall('GET', '/api/user/getOnePublicKey');
    const key = createPublicKey({ key: Buffer.from(res.body.data, 'base64'), format: 'der', type: 'spki' });
    expect(key.asymmetricKeyType).toBe('rsa');
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it('serves one attempt only', async () => {
    const key = (await enCall('GET', '/api/user/getOnePublicKey')).body.data as string;
    const attempt = () => enCall('POST', '/api/login', null, { username: 'admin', password: encryptFor(key, ADMIN_PASSWORD), publicKey: key, symbol: '' });
    expect((await attempt()).body.code).toBe(200);
    expect((await attempt()).body).toEqual({ code: 304, msg: 'Bad credentials', data: null });
    expect(k.logLines.join('')).toContain('public key unknown or already used');
  });

  it('expires five minutes after it was issued', async () => {
    const fresh = (await enCall('GET', '/api/user/getOnePublicKey')).body.data as string;
    const stale = (await enCall('GET', '/api/user/getOnePublicKey')).body.data as string;
    k.clock.advance(4 * 60_000 + 59_000);
    const ok = await enCall('POST', '/api/login', null, { username: 'admin', password: encryptFor(fresh, ADMIN_PASSWORD), publicKey: fresh, symbol: '' });
    expect(ok.body.code).toBe(200);
    k.clock.advance(2_000);
    const late = await enCall('POST', '/api/login', null, { username: 'admin', password: encryptFor(stale, ADMIN_PASSWORD), publicKey: stale, symbol: '' });
    expect(late.body).toEqual({ code: 304, msg: 'Bad credentials', data: null });
    expect(k.logLines.join('')).toContain('public key expired');
  });
});

describe('login', () => {
  it('answers {token, userId} and stores only the hash of the token', async () => {
    const body = await loginWith('  admin  ', ADMIN_PASSWORD);
    expect(body.code).toBe(200);
    expect(body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const admin = await k.database.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow();
    expect(body.data.userId).toBe(admin.id);
    const hash = createHash('sha256').update(body.data.token).digest('hex');
    const rows = await k.database.db.selectFrom('sessions').selectAll().where('token_hash', '=', hash).execute();
    expect(rows).toHaveLength(1);
    const raw = await k.database.db.selectFrom('sessions').select('id').where('token_hash', '=', body.data.token).execute();
    expect(raw).toHaveLength(0);
  });

  it('refuses a wrong password and an unknown user alike with 304 Bad credentials', async () => {
    expect(await loginWith('admin', 'wrong-password')).toEqual({ code: 304, msg: 'Bad credentials', data: null });
    expect(await loginWith('ghost', ADMIN_PASSWORD)).toEqual({ code: 304, msg: 'Bad credentials', data: null });
  });

  it('accepts the form as multipart form data, as the browser sends it', async () => {
    const key = (await enCall('GET', '/api/user/getOnePublicKey')).body.data as string;
    const form = new FormData();
    form.set('username', 'reader');
    form.set('password', encryptFor(key, 'Reader-pass-1'));
    form.set('publicKey', key);
    form.set('symbol', '');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const res = await k.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': request.headers.get('content-type')! }, payload: Buffer.from(await request.arrayBuffer()) });
    expect(res.json()).toMatchObject({ code: 200, data: { userId: reader.userId } });
  });

  it('refuses disabled and unapproved users with a clear 304', async () => {
    await createUserWithRole(k, 'off', 'Off-pass-1', 'Off role', []);
    await k.database.db.updateTable('users').set({ enabled: false }).where('username', '=', 'off').execute();
    expect(await loginWith('off', 'Off-pass-1')).toMatchObject({ code: 304, msg: expect.stringContaining('disabled') });
    await createUserWithRole(k, 'pending', 'Pending-pass-1', 'Pending role', []);
    await k.database.db.updateTable('users').set({ status: 'unchecked' }).where('username', '=', 'pending').execute();
    expect(await loginWith('pending', 'Pending-pass-1')).toMatchObject({ code: 304, msg: expect.stringContaining('approval') });
    // ...but a wrong password still says only Bad credentials.
    expect(await loginWith('off', 'nope')).toMatchObject({ code: 304, msg: 'Bad credentials' });
  });
});

describe('sessions', () => {
  it('reads the token from the Jwt header and answers the user info', async () => {
    const token = await k.login('reader', 'Reader-pass-1');
    const res = await k.call('GET', '/api/user/getUserInfoByToken', token);
    expect(res.body.code).toBe(200);
    expect(res.body.data.user).toEqual({ id: reader.userId, userId: reader.userId, username: 'reader', realName: 'reader', userType: 0, apiKey: null, email: null, phone: null, locale: null });
    expect(res.body.data.departmentRoleBos).toEqual([
      { department: { id: reader.departmentId, departmentName: '默认部门' }, roles: [{ id: expect.any(Number), roleName: 'Note reader', path: '/notes' }] },
    ]);
  });

  it('answers 601 for an unknown, a revoked and an expired token', async () => {
    const expectExpired = async (token: string) =>
      expect((await enCall('GET', '/api/user/getUserInfoByToken', token)).body).toEqual({ code: 601, msg: 'Login expired, please sign in again', data: null });
    await expectExpired('unknown-token');

    const revoked = await k.login('reader', 'Reader-pass-1');
    expect((await enCall('POST', '/api/logout', revoked)).body.code).toBe(200);
    await expectExpired(revoked);

    const old = await k.login('reader', 'Reader-pass-1');
    expect((await k.call('GET', '/api/user/getUserInfoByToken', old)).body.code).toBe(200);
    k.clock.advance(7 * 86_400_000 + 1000);
    await expectExpired(old);
  });

  it('switches department with a new token and revokes the old one', async () => {
    const db = k.database.db;
    const second = await db.insertInto('departments').values({ name: 'Second', code: 'second' }).returning('id').executeTakeFirstOrThrow();
    const role = await db.selectFrom('roles').select('id').where('name', '=', 'Note reader').executeTakeFirstOrThrow();
    await db.insertInto('user_department_roles').values({ user_id: reader.userId, department_id: second.id, role_id: role.id }).execute();
    const first = await k.login('reader', 'Reader-pass-1');
    const refused = await enCall('POST', '/api/user/switchDepartment', first, { departmentId: 999_999 });
    expect(refused.status).toBe(403);
    const switched = await enCall('POST', '/api/user/switchDepartment', first, { departmentId: second.id });
    expect(switched.body.code).toBe(200);
    const token = switched.body.data.token;
    expect((await k.call('GET', '/api/user/getUserInfoByToken', token)).body.data.currentDepartmentId).toBe(second.id);
    expect((await k.call('GET', '/api/user/getUserInfoByToken', first)).body.code).toBe(601);
  });

  it('shows another user only to a holder of user:view', async () => {
    const readerToken = await k.login('reader', 'Reader-pass-1');
    expect((await enCall('GET', `/api/user/getUserInfo/${reader.userId}`, readerToken)).body.data.user.username).toBe('reader');
    const other = await enCall('GET', `/api/user/getUserInfo/${nobody.userId}`, readerToken);
    expect(other.status).toBe(403);
    expect(other.body.msg).toContain('user:view');
    const adminToken = await k.login('admin', ADMIN_PASSWORD);
    expect((await enCall('GET', `/api/user/getUserInfo/${nobody.userId}`, adminToken)).body.data.user.username).toBe('nobody');
  });
});

describe('menus and enforcement', () => {
  const menu = async (token: string, userId: number, locale?: string) => {
    const res = await k.app.inject({ method: 'GET', url: `/api/permissionMenu/getPermissionMenu?userId=${userId}&departmentId=${reader.departmentId}`, headers: { jwt: token, ...(locale ? { cookie: `locale=${locale}` } : {}) } });
    return { status: res.statusCode, body: res.json() };
  };

  it('gives a super administrator every active menu, grouped, localized and without empty groups', async () => {
    const token = await k.login('admin', ADMIN_PASSWORD);
    const admin = (await k.call('GET', '/api/user/getUserInfoByToken', token)).body.data.user;
    const zh = (await menu(token, admin.id)).body.data;
    expect(zh.menusPermissionMenus).toEqual([
      {
        id: expect.any(Number), path: '/group/resources', permissionName: '语言资源', permissionType: 1, icon: 'book', sort: 20, configKey: null, configValue: null,
        children: [{ id: expect.any(Number), path: '/notes', permissionName: '笔记本', permissionType: 1, icon: 'document', sort: 5, configKey: null, configValue: null, children: [] }],
      },
    ]);
    // The kernel's own keys (permission:*, systemConfig:*, ...) are buttons too, without a path.
    expect(zh.buttonsPermissionMenus.filter((b: any) => b.path !== null)).toEqual([{ id: expect.any(Number), permissionKey: 'notes:add', path: '/notes', permissionName: '添加笔记' }]);
    expect(zh.buttonsPermissionMenus.map((b: any) => b.permissionKey)).toEqual(expect.arrayContaining(['permission:add', 'role:grant', 'systemConfig:edit']));
    expect(zh.department).toEqual({ id: reader.departmentId, departmentName: '默认部门' });
    const en = (await menu(token, admin.id, 'en-US')).body.data;
    expect(en.menusPermissionMenus[0].children[0].permissionName).toBe('Notebook');
    expect(en.buttonsPermissionMenus.find((b: any) => b.permissionKey === 'notes:add').permissionName).toBe('Add notes');
    // Names the platform seeded (the default department, the built-in roles) follow the reader's language too.
    expect(en.department).toEqual({ id: reader.departmentId, departmentName: 'Default department' });
    const infoEn = await k.app.inject({ method: 'GET', url: '/api/user/getUserInfoByToken', headers: { jwt: token, cookie: 'locale=en-US' } });
    expect(infoEn.json().data.departmentRoleBos[0]).toMatchObject({ department: { departmentName: 'Default department' }, roles: [{ roleName: 'Super administrator' }] });
    const infoZh = await k.app.inject({ method: 'GET', url: '/api/user/getUserInfoByToken', headers: { jwt: token, cookie: 'locale=zh-CN' } });
    expect(infoZh.json().data.departmentRoleBos[0]).toMatchObject({ department: { departmentName: '默认部门' }, roles: [{ roleName: '超级管理员' }] });
  });

  it('gives a user only the menus and buttons their role holds', async () => {
    const token = await k.login('reader', 'Reader-pass-1');
    const data = (await menu(token, reader.userId)).body.data;
    expect(data.menusPermissionMenus.map((g: any) => [g.path, g.children.map((c: any) => c.path)])).toEqual([['/group/resources', ['/notes']]]);
    expect(data.buttonsPermissionMenus).toEqual([]);
    const none = (await menu(await k.login('nobody', 'Nobody-pass-1'), nobody.userId)).body.data;
    expect(none.menusPermissionMenus).toEqual([]);
  });

  it("refuses to read another user's menu unless super administrator", async () => {
    const token = await k.login('reader', 'Reader-pass-1');
    expect((await menu(token, nobody.userId)).status).toBe(403);
    const adminToken = await k.login('admin', ADMIN_PASSWORD);
    expect((await menu(adminToken, reader.userId)).body.data.menusPermissionMenus[0].children[0].path).toBe('/notes');
  });

  it('answers 403 naming the missing permission and changes nothing', async () => {
    const token = await k.login('reader', 'Reader-pass-1');
    const before = await enCall('GET', '/api/notes/list', token);
    expect(before.body.code).toBe(200);
    const res = await enCall('POST', '/api/notes/add', token, { text: 'should not be stored' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 403, msg: 'Permission denied: this call needs the permission notes:add', data: null });
    expect((await enCall('GET', '/api/notes/list', token)).body.data).toEqual(before.body.data);
    const unlisted = await enCall('GET', '/api/notes/list', await k.login('nobody', 'Nobody-pass-1'));
    expect(unlisted.status).toBe(403);
  });
});

describe('public configuration and health', () => {
  it('answers the company configuration without sign-in', async () => {
    const res = await enCall('OPTIONS', '/api/systemConfig/getCompanyInfoConfig');
    expect(res.body.code).toBe(200);
    const config = Object.fromEntries(res.body.data.map((e: { configKey: string; configValue: string }) => [e.configKey, e.configValue]));
    expect(config).toMatchObject({ SYSTEM_COLOR: '#353f9d', DEFAULT_SOURCE_LANGUAGE: 'en', DEFAULT_TARGET_LANGUAGE: 'es', IS_HAVE_LOG_OUT: '1', SITE_TITLE: 'Linguaport' });
  });

  it('tells a signed-in user where the WebSocket is', async () => {
    const token = await k.login('reader', 'Reader-pass-1');
    expect((await enCall('GET', '/api/user/showWebSocketInfo', token)).body.data).toEqual({ path: '/api/ws' });
  });

  it('reports health from a real database round trip, the job service and the engines', async () => {
    const res = await enCall('GET', '/api/health');
    expect(res.body.data).toMatchObject({ database: { ok: true, kind: k.database.kind }, queue: { ok: true } });
    // The seeded Apertium engine is listed with its node (started on first use in this kernel).
    expect(res.body.data.engines).toEqual([
      { id: expect.any(Number), name: 'Apertium', enabled: true, expired: false, ready: expect.any(Boolean), nodes: [expect.objectContaining({ kind: 'apertium-local' })] },
    ]);
  });
});
