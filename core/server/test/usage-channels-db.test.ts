import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from '../src/db/migrations.js';
import { translationMigrations } from '../src/translation/migrations.js';
import { addUsage } from '../src/translation/usage.js';
import { openTestDatabase } from './support/test-database.js';

describe('usage records under declared channels', () => {
  let t: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    t = await openTestDatabase();
    await runMigrations(t.database, 'core.translation', translationMigrations);
  });
  afterAll(() => t?.cleanup());

  it("records a plugin's channel the schema never listed, and refuses what is not a channel word", async () => {
    const at = new Date('2026-01-02T03:04:05Z');
    await addUsage(t.database.db, 1, 'speech', 12, 0, at);
    await addUsage(t.database.db, 1, 'document', 5, 1, at);
    const rows = await t.database.db.selectFrom('usage_records').select(['channel', 'characters']).orderBy('channel').execute();
    expect(rows.map((r) => [r.channel, Number(r.characters)])).toEqual([['document', 5], ['speech', 12]]);
    await expect(addUsage(t.database.db, 1, "x'; drop", 1, 0, at)).rejects.toThrow(/usage_records_channel_word/);
  });
});
