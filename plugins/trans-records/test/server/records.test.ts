import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// Usage records read the kernel's ledger through ctx.usage: sums per user and channel over a period,
// newest use first, paged, filtered by name (the text taken literally).

let k: TestKernel;
let admin: string;
let ana: number;
let bo: number;

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['trans-records'], builtinEngine: false });
  admin = await k.login('admin', ADMIN_PASSWORD);
  ana = (await createUserWithRole(k, 'ana_x', 'Ana-Passw0rd', 'r-ana', [])).userId;
  bo = (await createUserWithRole(k, 'bo', 'Bo-Passw0rd1', 'r-bo', [])).userId;
  const row = (userId: number, day: string, channel: 'text' | 'api' | 'document', characters: number, documents: number, at: string) => ({ user_id: userId, day: new Date(day), channel, characters, documents, last_used_at: new Date(at) });
  await k.database.db
    .insertInto('usage_records')
    .values([
      row(ana, '2026-03-01', 'text', 100, 0, '2026-03-01T10:00:00Z'),
      row(ana, '2026-03-02', 'api', 50, 0, '2026-03-02T10:00:00Z'),
      row(ana, '2026-03-02', 'document', 400, 2, '2026-03-02T11:00:00Z'),
      row(bo, '2026-03-05', 'text', 7, 0, '2026-03-05T09:00:00Z'),
      row(bo, '2026-04-01', 'api', 1000, 0, '2026-04-01T09:00:00Z'),
    ])
    .execute();
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
});

const list = async (query: string) => (await k.call('GET', `/api/transRecords/list?${query}`, admin)).body.data;

describe('usage records', () => {
  it('sums each user\'s channels over the period, last used first', async () => {
    const page = await list('pageNum=1&pageSize=10&from=2026-03-01&to=2026-03-31');
    expect(page.total).toBe(2);
    expect(page.records.map((r: { username: string }) => r.username)).toEqual(['bo', 'ana_x']);
    expect(page.records[1]).toMatchObject({ userId: ana, totalCharacters: 550, textApiCharacters: 150, textCharacters: 100, apiCharacters: 50, documentCharacters: 400, documents: 2, lastUsedAt: '2026-03-02T11:00:00.000Z' });
    expect(page.records[0]).toMatchObject({ userId: bo, totalCharacters: 7, lastUsedAt: '2026-03-05T09:00:00.000Z' });
  });

  it('pages with the total of matching users', async () => {
    const page = await list('pageNum=2&pageSize=1');
    expect(page.total).toBe(2);
    expect(page.records.map((r: { userId: number }) => r.userId)).toEqual([ana]);
  });

  it('filters by user name, taking % and _ literally', async () => {
    expect((await list('pageNum=1&pageSize=10&username=ANA')).records.map((r: { userId: number }) => r.userId)).toEqual([ana]);
    expect((await list('pageNum=1&pageSize=10&username=a_x')).records.map((r: { userId: number }) => r.userId)).toEqual([ana]);
    expect((await list('pageNum=1&pageSize=10&username=%25')).total).toBe(0);
    expect((await list('pageNum=1&pageSize=10&username=b_')).total).toBe(0);
  });
});
