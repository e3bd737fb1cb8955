import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// Issue 22 items 1 and 5: a memory shared with a translator (use rights) becomes their default and then
// fills their text translations, marked with its score; an explicitly empty choice uses none; an export
// says what it holds (checked only or all, with the review state) and an empty one is refused.

let k: TestKernel;
let owner: { userId: number; token: string };
let translator: { userId: number; token: string };
let stranger: { userId: number; token: string };
let memoryId: number;
const dir = mkdtempSync(join(tmpdir(), 'tm-defaults-'));

async function call(method: string, url: string, token: string, payload?: unknown, locale = 'en-US') {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { jwt: token, cookie: `locale=${locale}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body, raw: res };
}

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['tm', 'trans-text', 'service'] });
  const keys = ['tm:view', 'tm:library', 'tm:add', 'tm:edit', 'tm:review', 'tm:export', 'transText:use'];
  const a = await createUserWithRole(k, 'tmd-owner', 'Owner-Passw0rd!', 'tmd owners', keys);
  const b = await createUserWithRole(k, 'tmd-translator', 'Transl-Passw0rd!', 'tmd translators', ['tm:view', 'tm:export', 'transText:use']);
  const c = await createUserWithRole(k, 'tmd-stranger', 'Strang-Passw0rd!', 'tmd strangers', ['tm:view', 'tm:export', 'transText:use']);
  owner = { userId: a.userId, token: await k.login('tmd-owner', 'Owner-Passw0rd!') };
  translator = { userId: b.userId, token: await k.login('tmd-translator', 'Transl-Passw0rd!') };
  stranger = { userId: c.userId, token: await k.login('tmd-stranger', 'Strang-Passw0rd!') };
  // Shared with the translator alone (use and edit), not with the stranger.
  const created = await call('POST', '/api/TM/library/add', owner.token, { name: 'Shared EN-ES', ownership: 'custom', users: [{ userId: translator.userId, use: true, edit: true }] });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  memoryId = created.body.data.id;
  const added = await call('POST', '/api/TM/entry/add', owner.token, { libraryId: memoryId, source: 'The red car is fast.', target: 'El automóvil rojo es veloz.', sourceLang: 'en', targetLang: 'es' });
  expect(added.status).toBe(200);
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

describe('a shared memory as the translator default', () => {
  it('lets a user with use rights make it their default, and refuses one without in both languages', async () => {
    const on = await call('PUT', '/api/TM/library/default', translator.token, { id: memoryId, isDefault: true });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    const listed = (await call('GET', '/api/TM/library/list', translator.token)).body.data.records;
    expect(listed).toEqual([expect.objectContaining({ id: memoryId, isDefault: true })]);
    const refused = await call('PUT', '/api/TM/library/default', stranger.token, { id: memoryId, isDefault: true });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('Insufficient permission: you may not use or edit this memory');
    const zh = await call('PUT', '/api/TM/library/default', stranger.token, { id: memoryId, isDefault: true }, 'zh-CN');
    expect(zh.body.msg).toBe('权限不足：您不能使用或编辑这个记忆库');
    const stored = await k.database.db.selectFrom('tm_defaults' as never).selectAll().where('user_id' as never, '=', stranger.userId as never).execute();
    expect(stored).toEqual([]);
  });

  it("translates text with the default memory's sentence marked with its origin and score; an empty choice uses none", async () => {
    const text = 'The red car is fast. The house is big.';
    const withDefault = await call('POST', '/api/transText/translate', translator.token, { text, source: 'en', target: 'es' });
    expect(withDefault.status, JSON.stringify(withDefault.body)).toBe(200);
    expect(withDefault.body.data.text).toMatch(/^El automóvil rojo es veloz\. /);
    expect(withDefault.body.data.segments[0].origin).toMatchObject({ kind: 'hook', hook: 'tm', score: 100, ref: expect.stringMatching(new RegExp(`^tm:${memoryId}:`)) });
    expect(withDefault.body.data.segments[1].origin.kind).toBe('engine');
    const chosen = await call('POST', '/api/transText/translate', translator.token, { text, source: 'en', target: 'es', resources: { memories: [memoryId] } });
    expect(chosen.body.data.segments[0].origin).toMatchObject({ hook: 'tm', score: 100 });
    const none = await call('POST', '/api/transText/translate', translator.token, { text, source: 'en', target: 'es', resources: { memories: [] } });
    expect(none.status).toBe(200);
    expect(none.body.data.segments.map((s: { origin: { kind: string } }) => s.origin.kind)).toEqual(['engine', 'engine']);
    const foreign = await call('POST', '/api/transText/translate', stranger.token, { text, source: 'en', target: 'es', resources: { memories: [memoryId] } });
    expect(foreign.status).toBe(403);
  });
});

describe('export scope and count', () => {
  it('counts checked and all entries, refuses an empty checked export with its reason in both languages', async () => {
    const count = await call('GET', `/api/TM/export/count?libraryId=${memoryId}`, translator.token);
    expect(count.body.data).toEqual({ checked: 0, all: 1 });
    expect((await call('GET', `/api/TM/export/count?libraryId=${memoryId}`, stranger.token)).status).toBe(403);
    const empty = await call('GET', `/api/TM/export?libraryId=${memoryId}&format=tmx`, translator.token);
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe("Nothing to export: none of the memory's 1 entries is checked (choose all entries to export them with their review state)");
    const zh = await call('GET', `/api/TM/export?libraryId=${memoryId}&format=xlsx`, translator.token, undefined, 'zh-CN');
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toBe('没有可导出的条目：该记忆库的 1 个条目都未审核通过（可选择导出全部条目及其审核状态）');
  });

  it('exports all entries with their review state as a TMX property that validates against the DTD', async () => {
    const res = await call('GET', `/api/TM/export?libraryId=${memoryId}&format=tmx&scope=all`, translator.token);
    expect(res.status).toBe(200);
    const tmx = String(res.raw.body);
    expect(tmx).toContain('<prop type="x-review-state">unchecked</prop>');
    expect(tmx).toContain('El automóvil rojo es veloz.');
    const file = join(dir, 'all.tmx');
    writeFileSync(file, res.raw.body);
    execFileSync('xmllint', ['--noout', '--dtdvalid', join(import.meta.dirname, '..', '..', '..', '..', 'packages', 'interchange', 'src', 'tmx14.dtd'), file]);
    // Once checked, the default scope holds it, without the property.
    const entry = (await call('GET', `/api/TM/entry/list?libraryId=${memoryId}`, owner.token)).body.data.records[0];
    expect((await call('POST', '/api/TM/entry/review', owner.token, { ids: [entry.id], action: 'pass' })).status).toBe(200);
    expect((await call('GET', `/api/TM/export/count?libraryId=${memoryId}`, translator.token)).body.data).toEqual({ checked: 1, all: 1 });
    const checked = await call('GET', `/api/TM/export?libraryId=${memoryId}`, translator.token);
    expect(checked.status).toBe(200);
    expect(String(checked.raw.body)).not.toContain('x-review-state');
    expect(String(checked.raw.body)).toContain('El automóvil rojo es veloz.');
  });
});
