import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The plugin loaded by the real kernel (PGlite, or PostgreSQL with DATABASE_URL); calls through app.inject.

let kernel: TestKernel;
let admin: string;
let plain: string;

const order = async (token: string) => (await kernel.call('GET', '/api/language/list', token)).body.data.map((l: { code: string }) => l.code) as string[];

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['language-sorting'] });
  admin = await kernel.login('admin', ADMIN_PASSWORD);
  await createUserWithRole(kernel, 'reader', 'Reader-Passw0rd', 'reader', []);
  plain = await kernel.login('reader', 'Reader-Passw0rd');
}, 120_000);

afterAll(async () => {
  await kernel?.shutdown();
});

describe('language list', () => {
  it('gives any signed-in user the enabled languages in the seeded order with both names', async () => {
    const res = await kernel.call('GET', '/api/language/list', plain);
    expect(res.body.code).toBe(200);
    const list = res.body.data as Array<{ code: string; nameZh: string; nameEn: string; sort: number }>;
    expect(list.slice(0, 3).map((l) => l.code)).toEqual(['zh-CN', 'en', 'es']);
    expect(list.find((l) => l.code === 'en')).toMatchObject({ nameZh: '英语', nameEn: 'English' });
    expect(list.some((l) => l.code === 'ja')).toBe(false); // seeded disabled
    expect(list.map((l) => l.sort)).toEqual([...list.map((l) => l.sort)].sort((a, b) => a - b));
  });

  it('answers 601 without a session', async () => {
    expect((await kernel.call('GET', '/api/language/list', null)).body.code).toBe(601);
  });

  it('reorders by the full list of codes and every reader sees the new order', async () => {
    const all = (await kernel.call('GET', '/api/language/all', admin)).body.data.map((l: { code: string }) => l.code) as string[];
    const reordered = ['es', ...all.filter((c) => c !== 'es')];
    const res = await kernel.call('PUT', '/api/language/sort', admin, { codes: reordered });
    expect(res.body.code).toBe(200);
    expect((await order(plain)).slice(0, 3)).toEqual(['es', 'zh-CN', 'en']);
  });

  it('refuses an order that leaves a language out or names one twice, and keeps the old order', async () => {
    const before = await order(admin);
    const all = (await kernel.call('GET', '/api/language/all', admin)).body.data.map((l: { code: string }) => l.code) as string[];
    const partial = await kernel.call('PUT', '/api/language/sort', admin, { codes: all.slice(1) });
    expect(partial.status).toBe(400);
    expect(partial.body.msg).toContain(all[0]);
    const twice = await kernel.call('PUT', '/api/language/sort', admin, { codes: [...all, all[0]] });
    expect(twice.status).toBe(400);
    expect(await order(admin)).toEqual(before);
  });

  it('enables a language and renames it; the list follows', async () => {
    const res = await kernel.call('PUT', '/api/language/update', admin, { code: 'ja', nameZh: '日本語', nameEn: 'Japanese', enabled: true });
    expect(res.body.code).toBe(200);
    const list = (await kernel.call('GET', '/api/language/list', plain)).body.data as Array<{ code: string; nameZh: string }>;
    expect(list.find((l) => l.code === 'ja')?.nameZh).toBe('日本語');
  });

  it('adds a language at the end and refuses a duplicate code with 409', async () => {
    const body = { code: 'ca-x-valencia', nameZh: '巴伦西亚语', nameEn: 'Valencian', enabled: true };
    expect((await kernel.call('POST', '/api/language/add', admin, body)).body.code).toBe(200);
    expect((await order(plain)).at(-1)).toBe('ca-x-valencia');
    expect((await kernel.call('POST', '/api/language/add', admin, body)).status).toBe(409);
  });

  it('rejects an edit with an empty name, naming the field', async () => {
    const res = await kernel.call('PUT', '/api/language/update', admin, { code: 'en', nameZh: '', nameEn: 'English', enabled: true });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('nameZh');
  });

  it('answers 403 to every mutating call without the keys and changes nothing', async () => {
    const before = (await kernel.call('GET', '/api/language/all', admin)).body.data;
    const all = before.map((l: { code: string }) => l.code) as string[];
    const calls: Array<[string, string, object]> = [
      ['POST', '/api/language/add', { code: 'xx', nameZh: 'x', nameEn: 'x', enabled: true }],
      ['PUT', '/api/language/update', { code: 'en', nameZh: '改', nameEn: 'Changed', enabled: false }],
      ['PUT', '/api/language/sort', { codes: [...all].reverse() }],
    ];
    for (const [method, url, body] of calls) {
      const res = await kernel.call(method, url, plain, body);
      expect(res.status, url).toBe(403);
    }
    expect((await kernel.call('GET', '/api/language/all', admin)).body.data).toEqual(before);
  });
});
