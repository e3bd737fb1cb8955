import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, openTestDatabase, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';
import plugin from '../../server/index.js';

// The history is this area's own table (trans_text_history), no longer the kernel's
// translation_history: a database made before keeps its rows, and the routes read and edit the table.

let k: TestKernel;
let admin: string;

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['trans-text'], builtinEngine: false });
  admin = await k.login('admin', ADMIN_PASSWORD);
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
});

describe('translation history', () => {
  it('lives in the area\'s own table: the kernel no longer has translation_history', async () => {
    const tables = await k.database.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = 'public' and table_name in ('translation_history', 'trans_text_history')`);
    expect(tables.map((t) => t.name)).toEqual(['trans_text_history']);
  });

  it('lists and edits only the caller\'s own entries', async () => {
    const adminId = (await k.database.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    const rows = await sql<{ id: number }>`insert into trans_text_history (user_id, source_language, target_language, source_text, target_text)
      values (${adminId}, 'en', 'es', 'red car', 'coche rojo'), (${adminId + 1000}, 'en', 'es', 'not mine', 'no mío') returning id`.execute(k.database.db);
    const [mine, other] = rows.rows.map((r) => r.id);
    const list = await k.call('GET', '/api/transText/history?limit=10', admin);
    expect(list.body.data).toEqual([expect.objectContaining({ id: mine, source: 'en', target: 'es', sourceText: 'red car', targetText: 'coche rojo' })]);
    const edit = await k.call('PUT', `/api/transText/history/${mine}`, admin, { targetText: 'auto rojo' });
    expect(edit.body.data).toEqual({ id: mine, targetText: 'auto rojo' });
    const refused = await k.call('PUT', `/api/transText/history/${other}`, admin, { targetText: 'x' });
    expect(refused.body.code).toBe(404);
    expect((await k.call('GET', '/api/transText/history', admin)).body.data[0].targetText).toBe('auto rojo');
  });

  it('takes over the kernel\'s former translation_history with its rows', async () => {
    const t = await openTestDatabase();
    try {
      const db = t.database.db;
      await sql`create table translation_history (id serial primary key, user_id integer not null, source_language text not null,
        target_language text not null, source_text text not null, target_text text not null, created_at timestamptz not null default now())`.execute(db);
      await sql`create index translation_history_user_idx on translation_history (user_id, id desc)`.execute(db);
      await sql`insert into translation_history (user_id, source_language, target_language, source_text, target_text) values (7, 'en', 'es', 'old', 'viejo')`.execute(db);
      for (const m of plugin.migrations ?? []) await m.up(db);
      const kept = await sql<{ user_id: number; target_text: string }>`select user_id, target_text from trans_text_history`.execute(db);
      expect(kept.rows).toEqual([{ user_id: 7, target_text: 'viejo' }]);
      const left = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_name = 'translation_history'`.execute(db);
      expect(left.rows[0]!.n).toBe(0);
    } finally {
      await t.cleanup();
    }
  });
});
