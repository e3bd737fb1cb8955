import { statSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@linguaport/sdk/testing';
import { hashApiKey, resolveApiKeyCaller } from '../src/auth/api-keys.js';
import { drawPuzzle, PIECE_HEIGHT, PIECE_WIDTH, WIDTH, HEIGHT } from '../src/auth/slider.js';
import { ADMIN_PASSWORD, createUserWithRole, encryptFor, startKernel, type TestKernel } from './support/kernel.js';
import { englishCall } from './support/english.js';

/** The English wording of the refusals is checked: every call comes from an English console. */
const enCall: TestKernel['call'] = (...args) => englishCall(k)(...args);

// The sign-in methods beyond the plain password (issue 3): throttling, slider puzzle, API keys,
// guest, registration, quick access, password expiry and change, own profile, locale.

let k: TestKernel;
let admin: string;

beforeAll(async () => {
  k = await startKernel();
  admin = await k.login('admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await k?.shutdown();
});

async function setConfig(key: string, value: string) {
  await k.database.db
    .insertInto('system_config')
    .values({ config_key: key, config_value: value })
    .onConflict((oc) => oc.column('config_key').doUpdateSet({ config_value: value }))
    .execute();
}

async function key(): Promise<string> {
  return (await enCall('GET', '/api/user/getOnePublicKey')).body.data;
}

async function login(username: string, password: string, extra: Record<string, string> = {}, ip?: string) {
  const pk = await key();
  const res = await k.app.inject({
    method: 'POST',
    url: '/api/login',
    headers: { cookie: 'locale=en-US' },
    payload: { username, password: encryptFor(pk, password), publicKey: pk, symbol: '', ...extra },
    ...(ip ? { remoteAddress: ip } : {}),
  });
  return res.json();
}

function pngSize(dataUrl: string) {
  const png = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), png };
}

describe('brute-force protection', () => {
  it('slows an account down from the 3rd failure, asks for the slider puzzle from the 5th (no lock), and says so', async () => {
    await createUserWithRole(k, 'victim', 'Victim-pass-1', 'Victim role', []);
    expect((await login('victim', 'wrong-1')).msg).toBe('Bad credentials');
    expect((await login('victim', 'wrong-2')).msg).toBe('Bad credentials');
    expect((await login('victim', 'wrong-3')).msg).toBe('Bad credentials');
    // Third failure: the next attempt must wait a second, even with the right password.
    const slowed = await login('victim', 'Victim-pass-1');
    expect(slowed.code).toBe(304);
    expect(slowed.msg).toMatch(/try again in 1 second/);
    k.clock.advance(1_100);
    expect((await login('victim', 'wrong-4')).msg).toBe('Bad credentials');
    k.clock.advance(2_100);
    expect((await login('victim', 'wrong-5')).msg).toBe('Bad credentials');
    const challenged = await login('victim', 'Victim-pass-1');
    expect(challenged).toMatchObject({ code: 304, msg: expect.stringMatching(/for this account: complete the slider puzzle/), data: { challenge: 'slider' } });
    // Refused attempts are not counted: after 15 quiet minutes the count starts again.
    k.clock.advance(14 * 60_000);
    expect((await login('victim', 'Victim-pass-1')).data).toEqual({ challenge: 'slider' });
    k.clock.advance(61_000);
    expect((await login('victim', 'Victim-pass-1')).code).toBe(200);
    // Success clears the count: one more failure does not slow the next attempt.
    expect((await login('victim', 'wrong-6')).msg).toBe('Bad credentials');
    expect((await login('victim', 'Victim-pass-1')).code).toBe(200);
  });

  it('asks an address trying many accounts for the slider puzzle after 20 failures, leaving other addresses alone', async () => {
    const ip = '10.9.8.7';
    for (let i = 0; i < 20; i++) {
      if (i >= 10) k.clock.advance(2 ** (i - 10) * 1000 + 100);
      expect((await login(`nobody-${i}`, 'whatever-1', {}, ip)).msg).toBe('Bad credentials');
    }
    expect((await login('admin', ADMIN_PASSWORD, {}, ip)).msg).toMatch(/from this address: complete the slider puzzle/);
    expect((await login('admin', ADMIN_PASSWORD, {}, '10.9.8.8')).code).toBe(200);
    k.clock.advance(16 * 60_000);
  });

  it('never writes the password to the log', async () => {
    await login('admin', 'Sup3r-secret-typo');
    expect(k.logLines.join('')).not.toContain('Sup3r-secret-typo');
  });
});

describe('slider puzzle', () => {
  it('draws a background with the hole where the piece came from', () => {
    const p = drawPuzzle(120, 40);
    expect(p.background.readUInt32BE(16)).toBe(WIDTH);
    expect(p.piece.readUInt32BE(16)).toBe(PIECE_WIDTH);
    // Decode the raw rows (filter byte + RGBA) and check the hole is darker than the piece there.
    // Signature (8) + IHDR chunk (25), then the one IDAT chunk: length, type, data, CRC.
    // Rows use filter 1 (Sub): undo it so the buffer holds plain RGBA after each row's filter byte.
    const idat = (png: Buffer) => {
      const raw = inflateSync(png.subarray(41, 41 + png.readUInt32BE(33)));
      const stride = png.readUInt32BE(16) * 4;
      for (let row = 0; row * (stride + 1) < raw.length; row++) {
        const o = row * (stride + 1);
        expect(raw[o]).toBe(1);
        for (let i = 4; i < stride; i++) raw[o + 1 + i] = (raw[o + 1 + i] + raw[o + 1 + i - 4]) & 0xff;
      }
      return raw;
    };
    const bg = idat(p.background);
    expect(bg.length).toBe((WIDTH * 4 + 1) * HEIGHT);
    const pc = idat(p.piece);
    expect(pc.length).toBe((PIECE_WIDTH * 4 + 1) * PIECE_HEIGHT);
    const at = (buf: Buffer, w: number, x: number, y: number) => buf[y * (w * 4 + 1) + 1 + x * 4];
    // Pixel (10, 10) of the piece is inside it, not on its rim: the hole there is 35% of it.
    expect(at(bg, WIDTH, 130, 50)).toBe(Math.round(at(pc, PIECE_WIDTH, 10, 10) * 0.35));
  });

  it('is required by the login while LANDING_SLIDER is on, and its ticket serves one login', async () => {
    await setConfig('LANDING_SLIDER', '1');
    try {
      expect((await login('admin', ADMIN_PASSWORD)).msg).toBe('Complete the slider puzzle first');
      const puzzle = (await enCall('GET', '/api/captcha/slider')).body.data;
      expect(pngSize(puzzle.background)).toMatchObject({ width: WIDTH, height: HEIGHT });
      expect(pngSize(puzzle.piece)).toMatchObject({ width: PIECE_WIDTH, height: PIECE_HEIGHT });
      expect(typeof puzzle.y).toBe('number');
      const row = await k.database.db.selectFrom('slider_captchas').select('x').where('id', '=', puzzle.id).executeTakeFirstOrThrow();
      const verified = await enCall('POST', '/api/captcha/slider/verify', null, { id: puzzle.id, x: row.x + 3 });
      expect(verified.body.code).toBe(200);
      const { ticket } = verified.body.data;
      expect((await login('admin', ADMIN_PASSWORD, { ticket })).code).toBe(200);
      expect((await login('admin', ADMIN_PASSWORD, { ticket })).msg).toBe('Complete the slider puzzle first');
    } finally {
      await setConfig('LANDING_SLIDER', '0');
    }
  });

  it('refuses a wrong position, and a second answer to the same puzzle', async () => {
    const puzzle = (await enCall('GET', '/api/captcha/slider')).body.data;
    const row = await k.database.db.selectFrom('slider_captchas').select('x').where('id', '=', puzzle.id).executeTakeFirstOrThrow();
    const wrong = await enCall('POST', '/api/captcha/slider/verify', null, { id: puzzle.id, x: row.x + 12 });
    expect(wrong.body).toMatchObject({ code: 304, msg: 'The piece is not in place; try a new puzzle' });
    const again = await enCall('POST', '/api/captcha/slider/verify', null, { id: puzzle.id, x: row.x });
    expect(again.body.msg).toMatch(/already answered/);
  });
});

describe('API keys', () => {
  let user: { userId: number };
  let token: string;
  beforeAll(async () => {
    user = await createUserWithRole(k, 'keyholder', 'Keyholder-pass-1', 'Key role', []);
    token = await k.login('keyholder', 'Keyholder-pass-1');
  });

  it('makes a key for its owner, stores it sealed plus hashed, and authenticates X-Api-Key as that user on the routes of its scopes', async () => {
    expect((await enCall('GET', `/api/user/checkUpdateApiKey/${user.userId}`, token)).body.data).toEqual({ allowed: true, nextAllowedAt: null });
    const res = await enCall('GET', `/api/user/updateApiKey/${user.userId}`, token);
    expect(res.body.code).toBe(200);
    const apiKey: string = res.body.data;
    expect(apiKey).toMatch(/^lp_[A-Za-z0-9_-]{32}$/);
    const row = await k.database.db.selectFrom('users').select(['api_key', 'api_key_hash', 'api_key_sealed']).where('id', '=', user.userId).executeTakeFirstOrThrow();
    expect(row.api_key_hash).toBe(hashApiKey(apiKey));
    expect(row.api_key_sealed).not.toContain(apiKey);
    expect(statSync(join(k.config.dataDir, 'secret.key')).mode & 0o777).toBe(0o600);
    // The owner sees it in their user info.
    expect((await k.call('GET', '/api/user/getUserInfoByToken', token)).body.data.user.apiKey).toBe(apiKey);
    // An administrator reading this user does not.
    expect((await enCall('GET', `/api/user/getUserInfo/${user.userId}`, admin)).body.data.user.apiKey).toBeNull();
    // The public API (language detection here) takes the key; the account's own data does not.
    const viaKey = await k.app.inject({ method: 'POST', url: '/api/lt/detect', headers: { 'x-api-key': apiKey }, payload: { q: 'The weather is fine today in the city.' } });
    expect(viaKey.statusCode).toBe(200);
    const accountViaKey = await k.app.inject({ method: 'GET', url: '/api/user/getUserInfoByToken', headers: { 'x-api-key': apiKey } });
    expect(accountViaKey.statusCode).toBe(403);
    const caller = await resolveApiKeyCaller(k.database.db, apiKey, k.clock.now);
    expect(caller).toMatchObject({ userId: user.userId, username: 'keyholder', via: 'api-key', isSuperAdmin: false });
    const used = await k.database.db.selectFrom('users').select('api_key_last_used_at').where('id', '=', user.userId).executeTakeFirstOrThrow();
    expect(used.api_key_last_used_at).not.toBeNull();
    expect(await resolveApiKeyCaller(k.database.db, apiKey + 'x', k.clock.now)).toBeNull();
    const bad = await k.app.inject({ method: 'GET', url: '/api/user/getUserInfoByToken', headers: { 'x-api-key': 'lp_nope' } });
    expect(bad.json().code).toBe(601);
  });

  it('allows one change per 24 hours, enforced by the server', async () => {
    const before = (await k.call('GET', '/api/user/getUserInfoByToken', token)).body.data.user.apiKey;
    const check = (await enCall('GET', `/api/user/checkUpdateApiKey/${user.userId}`, token)).body.data;
    expect(check.allowed).toBe(false);
    const refused = await enCall('GET', `/api/user/updateApiKey/${user.userId}`, token);
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/once per 24 hours/);
    expect((await k.call('GET', '/api/user/getUserInfoByToken', token)).body.data.user.apiKey).toBe(before);
    k.clock.advance(24 * 3_600_000);
    const changed = await enCall('GET', `/api/user/updateApiKey/${user.userId}`, token);
    expect(changed.body.data).not.toBe(before);
    expect(await resolveApiKeyCaller(k.database.db, before, k.clock.now)).toBeNull();
  });

  it("refuses to reset another user's key without apiKey:reset, and masks it for an administrator", async () => {
    const other = await createUserWithRole(k, 'keyless', 'Keyless-pass-1', 'Keyless role', []);
    const res = await enCall('GET', `/api/user/updateApiKey/${other.userId}`, token);
    expect(res.status).toBe(403);
    const row = await k.database.db.selectFrom('users').select('api_key_hash').where('id', '=', other.userId).executeTakeFirstOrThrow();
    expect(row.api_key_hash).toBeNull();
    const byAdmin = await enCall('GET', `/api/user/updateApiKey/${other.userId}`, admin);
    expect(byAdmin.body.data).toMatch(/^\*{16}.{4}$/);
  });
});

describe('guest sign-in', () => {
  it('is refused while GUEST_LOGIN is off and gives a guest session when on', async () => {
    await setConfig('GUEST_LOGIN', '0');
    expect((await enCall('GET', '/api/user/getGuestUser')).status).toBe(403);
    await setConfig('GUEST_LOGIN', '1');
    const res = await enCall('GET', '/api/user/getGuestUser');
    expect(res.body.code).toBe(200);
    const info = (await k.call('GET', '/api/user/getUserInfoByToken', res.body.data.token)).body.data;
    expect(info.user).toMatchObject({ username: 'guest', userType: 3, realName: '访客' });
    expect(info.departmentRoleBos[0].roles[0].roleName).toBe('访客');
    // Its name is a seeded one, in the reader's language (the API-key list's test checks it there too).
    expect((await enCall('GET', '/api/user/getUserInfoByToken', res.body.data.token)).body.data.user.realName).toBe('Guest');
    // The same guest account every time.
    expect((await enCall('GET', '/api/user/getGuestUser')).body.data.userId).toBe(res.body.data.userId);
    // One guest's language is not every guest's: the shared account's stays as it was.
    const before = info.user.locale;
    const other = before === 'en-US' ? 'zh-CN' : 'en-US';
    expect((await enCall('PUT', '/api/user/locale', res.body.data.token, { locale: other })).body.code).toBe(200);
    expect((await k.call('GET', '/api/user/getUserInfoByToken', res.body.data.token)).body.data.user.locale).toBe(before);
  });
});

describe('self-registration', () => {
  async function register(username: string, password: string, departmentId = 1) {
    const pk = await key();
    return enCall('POST', '/api/user/register', null, { username, password: encryptFor(pk, password), publicKey: pk, realName: 'New Person', email: 'new@example.com', departmentId });
  }

  it('is refused while ALLOW_REGISTER is off', async () => {
    await setConfig('ALLOW_REGISTER', '0');
    expect((await register('newbie', 'Newbie-pass-1')).status).toBe(403);
    expect(await k.database.db.selectFrom('users').select('id').where('username', '=', 'newbie').executeTakeFirst()).toBeUndefined();
  });

  it('creates an unchecked account that cannot sign in until approved, unless auto-approval is on', async () => {
    await setConfig('ALLOW_REGISTER', '1');
    const departments = (await enCall('GET', '/api/user/registerDepartments')).body.data;
    expect(departments.length).toBeGreaterThan(0);
    const res = await register('newbie', 'Newbie-pass-1', departments[0].id);
    expect(res.body.data.status).toBe('unchecked');
    expect((await login('newbie', 'Newbie-pass-1')).msg).toMatch(/awaiting approval/);
    await setConfig('REGISTER_AUTO_APPROVE', '1');
    expect((await register('newbie2', 'Newbie-pass-2', departments[0].id)).body.data.status).toBe('checked');
    expect((await login('newbie2', 'Newbie-pass-2')).code).toBe(200);
    expect((await register('newbie2', 'Newbie-pass-3')).status).toBe(409);
    expect((await register('weak', 'short')).body.msg).toMatch(/8 to 64/);
    await setConfig('LANDING_SLIDER', '1');
    expect((await register('newbie3', 'Newbie-pass-3', departments[0].id)).body.msg).toBe('Complete the slider puzzle first');
    await setConfig('LANDING_SLIDER', '0');
    await setConfig('REGISTER_AUTO_APPROVE', '0');
  });
});

describe('quick access', () => {
  it('needs quickAccess:create, and its link signs the user into that one page only', async () => {
    const target = await createUserWithRole(k, 'wallscreen', 'Wallscreen-pass-1', 'Wall role', ['menu:/notes', 'notes:view']);
    const plain = await k.login('wallscreen', 'Wallscreen-pass-1');
    const refused = await enCall('POST', '/api/quickAccess/create', plain, { userId: target.userId, path: '/notes', expiresInMinutes: 10 });
    expect(refused.status).toBe(403);
    const made = await enCall('POST', '/api/quickAccess/create', admin, { userId: target.userId, path: '/notes', expiresInMinutes: 10 });
    expect(made.body.data.url).toMatch(/^\/quickAccess\?token=.+&redirect=%2Fnotes$/);
    const { token } = made.body.data;
    const signed = await enCall('GET', `/api/quickAccess/login?token=${encodeURIComponent(token)}`);
    expect(signed.body.data).toMatchObject({ userId: target.userId, path: '/notes' });
    const session = signed.body.data.token;
    const menus = (await enCall('GET', `/api/permissionMenu/getPermissionMenu?userId=${target.userId}&departmentId=${target.departmentId}`, session)).body.data;
    const paths = JSON.stringify(menus.menusPermissionMenus);
    expect(paths).toContain('/notes');
    const switched = await enCall('POST', '/api/user/switchDepartment', session, { departmentId: target.departmentId });
    expect(switched.status).toBe(403);
    // A tampered or expired link does not sign in.
    expect((await enCall('GET', `/api/quickAccess/login?token=${encodeURIComponent(token.slice(0, -2) + 'xx')}`)).body.msg).toBe('This quick-access link is not valid');
    k.clock.advance(11 * 60_000);
    expect((await enCall('GET', `/api/quickAccess/login?token=${encodeURIComponent(token)}`)).body.msg).toBe('This quick-access link has expired');
  });

  it('limits the session to the permission nodes of its page', async () => {
    const made = await enCall('POST', '/api/quickAccess/create', admin, { userId: 1, path: '/notes', expiresInMinutes: 5 });
    const session = (await enCall('GET', `/api/quickAccess/login?token=${encodeURIComponent(made.body.data.token)}`)).body.data.token;
    // The administrator's quick-access session is no super administrator: a core admin call is refused.
    const res = await enCall('GET', '/api/user/getUserInfo/2', session);
    expect(res.status).toBe(403);
  });
});

describe('password expiry and change', () => {
  it('warns 7 days ahead, answers 4014 once expired, and lets the user set a new password without a session', async () => {
    await setConfig('PASSWORD_MAX_AGE_DAYS', '30');
    const u = await createUserWithRole(k, 'ager', 'Ager-pass-1', 'Ager role', []);
    await k.database.db.updateTable('users').set({ password_changed_at: new Date(k.clock.now.getTime() - 25 * 86_400_000) }).where('id', '=', u.userId).execute();
    const token = await k.login('ager', 'Ager-pass-1');
    expect((await enCall('GET', '/api/user/isNeedUpdatePassword', token)).body.data).toEqual({ need: false, daysLeft: 5, warn: true });
    k.clock.advance(6 * 86_400_000);
    const expired = await login('ager', 'Ager-pass-1');
    expect(expired).toMatchObject({ code: 4014, data: { userId: u.userId, reason: 'password' } });
    const pk = await key();
    const q = new URLSearchParams({ username: 'ager', oldPassword: encryptFor(pk, 'Ager-pass-1'), newPassword: encryptFor(pk, 'Ager-pass-2'), publicKey: pk });
    expect((await enCall('GET', `/api/user/updatePasswordForced?${q}`)).body.code).toBe(200);
    expect((await login('ager', 'Ager-pass-2')).code).toBe(200);
    const pk2 = await key();
    const wrong = new URLSearchParams({ username: 'ager', oldPassword: encryptFor(pk2, 'nope-nope-1'), newPassword: encryptFor(pk2, 'Ager-pass-3'), publicKey: pk2 });
    expect((await enCall('GET', `/api/user/updatePasswordForced?${wrong}`)).body.msg).toBe('Bad credentials');
    // Both attempts are in the operation log under the account they were for, passwords not stored.
    const rows = await until(async () => {
      const found = (await k.database.db.selectFrom('operation_log').select(['outcome', 'url', 'message']).where('operator_name', '=', 'ager').where('method', '=', 'GET').execute()) as { outcome: string; url: string }[];
      return found.length >= 2 && found;
    }, { timeout: 5000, what: "two operation log records of ager's password changes" });
    expect(rows.map((r) => r.outcome).sort()).toEqual(['failure', 'success']);
    expect(rows.every((r) => r.url === '/api/user/updatePasswordForced')).toBe(true);
    await setConfig('PASSWORD_MAX_AGE_DAYS', '90');
  });

  it('checkPassword confirms the current password', async () => {
    await createUserWithRole(k, 'checker', 'Checker-pass-1', 'Checker role', []);
    const token = await k.login('checker', 'Checker-pass-1');
    const check = async (password: string) => {
      const pk = await key();
      return (await enCall('POST', '/api/user/checkPassword', token, { password: encryptFor(pk, password), publicKey: pk })).body;
    };
    expect((await check('Checker-pass-1')).data).toEqual({ valid: true });
    expect((await check('Checker-pass-x')).msg).toBe('Bad credentials');
  });
});

describe('own profile and locale', () => {
  it('updates the own profile of a local account and stores the locale', async () => {
    await createUserWithRole(k, 'profiler', 'Profiler-pass-1', 'Profiler role', []);
    const token = await k.login('profiler', 'Profiler-pass-1');
    expect((await enCall('PUT', '/api/user/updateOwnProfile', token, { realName: 'Pro Filer', email: 'pro@example.com', phone: '13800138000' })).body.code).toBe(200);
    expect((await enCall('PUT', '/api/user/updateOwnProfile', token, { realName: 'X', email: 'not-an-email' })).status).toBe(400);
    expect((await enCall('PUT', '/api/user/locale', token, { locale: 'en-US' })).body).toEqual({ code: 200, msg: 'success', data: null });
    expect((await enCall('PUT', '/api/user/locale', token, { locale: 'fr-FR' })).status).toBe(400);
    const info = (await k.call('GET', '/api/user/getUserInfoByToken', token)).body.data.user;
    expect(info).toMatchObject({ realName: 'Pro Filer', email: 'pro@example.com', phone: '13800138000', locale: 'en-US' });
  });

  it('refuses a guest (not a local account) editing its profile', async () => {
    await setConfig('GUEST_LOGIN', '1');
    const guest = (await enCall('GET', '/api/user/getGuestUser')).body.data.token;
    expect((await enCall('PUT', '/api/user/updateOwnProfile', guest, { realName: 'Hacker' })).status).toBe(403);
  });
});
