import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// Issue 22: the notice a reviewer's decision sends to an entry's author is stored in both languages
// and read whole in the reader's language, not one "English / 中文" text cut by the lists.

let k: TestKernel;
let admin: string;

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['tm', 'news'] });
  admin = await k.login('admin', ADMIN_PASSWORD);
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
});

async function messages(token: string, language: string) {
  const res = await k.app.inject({ method: 'GET', url: '/api/messageRemind/messages', headers: { jwt: token, 'accept-language': language } });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: Array<{ content: string; type: string }> }).data.filter((m) => m.type === 'check').map((m) => m.content);
}

describe('review notices', () => {
  it('reach the author in one language at a time, whole, in each reader language', async () => {
    const ana = await createUserWithRole(k, 'ana-notice', 'Ana-Passw0rd', 'notice-role', ['tm:view', 'tm:library', 'tm:add']);
    const token = await k.login('ana-notice', 'Ana-Passw0rd');
    const memory = (await k.call('POST', '/api/TM/library/add', token, { name: 'Notices', ownership: 'department', kind: 'shared', users: [] })).body.data;
    const added = (await k.call('POST', '/api/TM/entry/add', token, { libraryId: memory.id, source: 'The invoice is attached.', target: 'La factura está adjunta.', sourceLang: 'en', targetLang: 'es' })).body.data;
    expect((await k.call('POST', '/api/TM/entry/review', admin, { ids: [added[0].id], action: 'pass' })).status).toBe(200);
    expect(ana.userId).toBeGreaterThan(0);

    const [english] = await messages(token, 'en-US');
    expect(english).toBe('admin passed 1 memory entry: The invoice is attached.');
    expect(english).not.toMatch(/[\u4e00-\u9fff]/);
    const [chinese] = await messages(token, 'zh-CN');
    expect(chinese).toMatch(/^admin 通过了 1 条/);
    expect(chinese).toContain('The invoice is attached.');
    expect(chinese).not.toMatch(/passed/);
    // The stored row keeps each language apart (and English in `content` for older readers).
    const row = await k.database.db.selectFrom('messages').selectAll().where('user_id', '=', ana.userId).executeTakeFirstOrThrow();
    expect([row.content, row.content_en, row.content_zh]).toEqual([english, english, chinese]);
  });
});
