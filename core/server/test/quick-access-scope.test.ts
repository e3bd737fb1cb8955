import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/access/sessions.js';
import { resolveScopedCaller } from '../src/auth/caller.js';
import { rotateSecret } from '../src/auth/rotate-secret.js';
import { openQuickAccessToken } from '../src/auth/quick-access.js';
import { loadSecret } from '../src/auth/secret.js';
import { ADMIN_PASSWORD, startKernel, type TestKernel } from './support/kernel.js';
import { englishCall } from './support/english.js';

// A quick-access session is limited to one page. A token whose page is empty, null or 0 — signed with
// the server's own key, as someone holding a leaked secret.key could make — once made a session with
// no scope, which the kernel read as a full one: the super administrator's. No falsy value may mean
// "no scope"; and operators can rotate the secret and end every session.

let k: TestKernel;
let admin: string;
const enCall: TestKernel['call'] = (...args) => englishCall(k)(...args);

beforeAll(async () => {
  k = await startKernel();
  admin = await k.login('admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await k?.shutdown();
});

/** A token signed with the server's real key, carrying any payload. */
function forge(payload: Record<string, unknown>): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${loadSecret(k.config.dataDir).sign(`qa:${body}`)}`;
}

const later = () => k.clock.now.getTime() + 3_600_000;

describe('quick-access tokens', () => {
  it('without a page (empty, null, 0, "/", missing, not a path) are refused and start no session', async () => {
    const sessions = async () => Number((await k.database.query<{ n: string }>('select count(*)::text as n from sessions', []))[0]!.n);
    const before = await sessions();
    for (const p of ['', null, 0, false, '/', 'notes', '/../x', ['/notes'], { a: 1 }, undefined]) {
      const token = forge({ u: 1, p, e: later() });
      const res = await enCall('GET', `/api/quickAccess/login?token=${encodeURIComponent(token)}`);
      expect(res.body, `page ${JSON.stringify(p)}`).toMatchObject({ code: 304, msg: 'This quick-access link is not valid' });
    }
    for (const u of [0, -1, '1', null, 1.5]) {
      const res = await enCall('GET', `/api/quickAccess/login?token=${encodeURIComponent(forge({ u, p: '/notes', e: later() }))}`);
      expect(res.body.code, `user ${JSON.stringify(u)}`).toBe(304);
    }
    expect(await sessions()).toBe(before);
  });

  it('with a page give a session of that page only, never the administrator\'s rights', async () => {
    const res = await enCall('GET', `/api/quickAccess/login?token=${encodeURIComponent(forge({ u: 1, p: '/notes', e: later() }))}`);
    const session = res.body.data.token as string;
    expect((await enCall('GET', '/api/user/getUserInfo/2', session)).status).toBe(403);
    const made = await enCall('POST', '/api/quickAccess/create', session, { userId: 1, path: '/notes', expiresInMinutes: 5 });
    expect(made.status, JSON.stringify(made.body)).toBe(403);
  });

  it('cannot be stored with an empty page, and a session row that has one resolves to no caller', async () => {
    const token = (await enCall('GET', `/api/quickAccess/login?token=${encodeURIComponent(forge({ u: 1, p: '/notes', e: later() }))}`)).body.data.token as string;
    await expect(k.database.db.updateTable('sessions').set({ scope_path: '' }).where('token_hash', '=', hashToken(token)).execute()).rejects.toThrow(/sessions_scope_path_names_a_page|check constraint/);
    // Even were the constraint gone, an empty scope is no full session.
    await k.database.exec('alter table sessions drop constraint sessions_scope_path_names_a_page');
    try {
      await k.database.db.updateTable('sessions').set({ scope_path: '' }).where('token_hash', '=', hashToken(token)).execute();
      expect(await resolveScopedCaller(k.database.db, token, k.clock.now)).toBeNull();
      expect((await enCall('GET', '/api/user/getUserInfo/1', token)).body.code).toBe(601);
    } finally {
      await k.database.db.updateTable('sessions').set({ scope_path: '/notes' }).where('scope_path', '=', '').execute();
      await k.database.exec(`alter table sessions add constraint sessions_scope_path_names_a_page check (scope_path is null or (length(scope_path) > 1 and scope_path like '/%'))`);
    }
  });

  it('are made only for a page: creating one for "" or "/" is refused', async () => {
    for (const path of ['', '/']) {
      const res = await enCall('POST', '/api/quickAccess/create', admin, { userId: 1, path, expiresInMinutes: 5 });
      expect(res.status, JSON.stringify(path)).toBe(400);
    }
  });
});

describe('rotating the secret', () => {
  it('seals stored secrets again, ends every session and voids links made with the old key', async () => {
    const own = await k.login('admin', ADMIN_PASSWORD);
    await enCall('GET', '/api/user/updateApiKey/1', own);
    const apiKey = (await enCall('GET', '/api/user/getApiKey', own)).body.data.apiKey as string;
    expect(apiKey).toBeTruthy();
    const link = (await enCall('POST', '/api/quickAccess/create', own, { userId: 1, path: '/notes', expiresInMinutes: 60 })).body.data.token as string;
    const oldKey = loadSecret(k.config.dataDir);

    const result = await rotateSecret(k.database.db, k.config.dataDir, k.clock.now);
    expect(result.resealed).toBeGreaterThanOrEqual(1);
    expect(result.sessionsEnded).toBeGreaterThanOrEqual(2);

    const sealed = (await k.database.db.selectFrom('users').select('api_key_sealed').where('id', '=', 1).executeTakeFirstOrThrow()).api_key_sealed as string;
    expect(oldKey.decrypt(sealed)).toBeNull();
    expect(loadSecret(k.config.dataDir).decrypt(sealed)).toBe(apiKey);
    expect((await enCall('GET', '/api/user/getUserInfoByToken', own)).body.code).toBe(601);
    // A server started after the rotation reads the new key: the old link is no longer valid.
    expect(openQuickAccessToken(oldKey, link, k.clock.now).ok).toBe(true);
    expect(openQuickAccessToken(loadSecret(k.config.dataDir), link, k.clock.now).ok).toBe(false);
  });

  it('is a command that refuses while the server holds the embedded database', () => {
    if (k.database.kind !== 'pglite') return;
    const root = join(import.meta.dirname, '..', '..', '..');
    let out = '';
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/rotate-secret.mjs'], { cwd: root, env: { ...process.env, DATA_DIR: k.config.dataDir, DATABASE_URL: '' }, encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      out = String((err as { stderr?: string }).stderr ?? '');
    }
    expect(out).toMatch(/rotate-secret: cannot open the database .*stop the server first/s);
  });
});
