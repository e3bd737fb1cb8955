import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// Issue 22 items 1 and 5 for term bases: a shared term base becomes a translator's default (use
// rights are enough), and an export says what it holds (checked only or all, with the review state);
// an empty one is refused with its reason.

let k: TestKernel;
let owner: { userId: number; token: string };
let translator: { userId: number; token: string };
let stranger: { userId: number; token: string };
let baseId: number;

async function call(method: string, url: string, token: string, payload?: unknown, locale = 'en-US') {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { jwt: token, cookie: `locale=${locale}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body, raw: res };
}

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['term', 'service'] });
  const a = await createUserWithRole(k, 'ted-owner', 'Owner-Passw0rd!', 'ted owners', ['term:view', 'term:library', 'term:add', 'term:review', 'term:export']);
  const b = await createUserWithRole(k, 'ted-translator', 'Transl-Passw0rd!', 'ted translators', ['term:view', 'term:export']);
  const c = await createUserWithRole(k, 'ted-stranger', 'Strang-Passw0rd!', 'ted strangers', ['term:view', 'term:export']);
  owner = { userId: a.userId, token: await k.login('ted-owner', 'Owner-Passw0rd!') };
  translator = { userId: b.userId, token: await k.login('ted-translator', 'Transl-Passw0rd!') };
  stranger = { userId: c.userId, token: await k.login('ted-stranger', 'Strang-Passw0rd!') };
  const created = await call('POST', '/api/term/library/add', owner.token, { name: 'Shared terms', ownership: 'custom', users: [{ userId: translator.userId, use: true, edit: false }] });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  baseId = created.body.data.id;
  expect((await call('POST', '/api/term/entry/add', owner.token, { libraryId: baseId, source: 'printer', target: 'impresora', sourceLang: 'en', targetLang: 'es' })).status).toBe(200);
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
});

describe('term bases: default and export scope', () => {
  it('lets a user with use rights make it their default, and refuses one without in both languages', async () => {
    expect((await call('PUT', '/api/term/library/default', translator.token, { id: baseId, isDefault: true })).status).toBe(200);
    expect((await call('GET', '/api/term/library/list', translator.token)).body.data.records).toEqual([expect.objectContaining({ id: baseId, isDefault: true })]);
    const refused = await call('PUT', '/api/term/library/default', stranger.token, { id: baseId, isDefault: true }, 'zh-CN');
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toMatch(/^权限不足/);
  });

  it('counts, refuses an empty checked export in both languages, and exports all with the review state', async () => {
    expect((await call('GET', `/api/term/export/count?libraryId=${baseId}`, translator.token)).body.data).toEqual({ checked: 0, all: 1 });
    const empty = await call('GET', `/api/term/export?libraryId=${baseId}`, translator.token);
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe("Nothing to export: none of the term base's 1 entries is checked (choose all entries to export them with their review state)");
    const zh = await call('GET', `/api/term/export?libraryId=${baseId}&format=csv`, translator.token, undefined, 'zh-CN');
    expect(zh.body.msg).toBe('没有可导出的术语：该术语库的 1 个术语都未审核通过（可选择导出全部术语及其审核状态）');
    // A language direction the base does not hold: nothing in either scope.
    const none = await call('GET', `/api/term/export?libraryId=${baseId}&scope=all&sourceLang=de&targetLang=fr`, translator.token);
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('Nothing to export: the term base holds no entries (in the chosen languages)');
    const all = await call('GET', `/api/term/export?libraryId=${baseId}&scope=all`, translator.token);
    expect(all.status).toBe(200);
    expect(String(all.raw.body)).toContain('x-review-state: unchecked');
    expect(String(all.raw.body)).toContain('impresora');
  });
});
