import { sql, type Kysely } from 'kysely';
import type { TranslationChannel } from '@linguaport/sdk/server';

/**
 * Usage accounting: one row per user, day and channel, added to atomically so concurrent
 * requests never lose a count. The daily rows let the records screen filter by date and the
 * API cap be a per-day quota.
 */

export async function addUsage(db: Kysely<any>, userId: number, channel: TranslationChannel, characters: number, documents: number, at: Date): Promise<void> {
  await sql`
    insert into usage_records (user_id, day, channel, characters, documents, last_used_at)
    values (${userId}, ${isoDay(at)}::date, ${channel}, ${characters}, ${documents}, ${at})
    on conflict (user_id, day, channel) do update set
      characters = usage_records.characters + excluded.characters,
      documents = usage_records.documents + excluded.documents,
      last_used_at = greatest(usage_records.last_used_at, excluded.last_used_at)`.execute(db);
}

export async function usageToday(db: Kysely<any>, userId: number, channel: TranslationChannel, at: Date): Promise<number> {
  const row = await db
    .selectFrom('usage_records')
    .select('characters')
    .where('user_id', '=', userId)
    .where('channel', '=', channel)
    .where(sql<boolean>`day = ${isoDay(at)}::date`)
    .executeTakeFirst();
  return row ? Number(row.characters) : 0;
}

function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * Characters (code points) counted for usage and caps: html tags and line breaks do not count
 * (so a text and the same lines sent as an array cost the same).
 */
export function countCharacters(text: string, format: 'text' | 'html'): number {
  const visible = (format === 'html' ? text.replace(/<[^>]*>/g, '') : text).replace(/[\r\n]/g, '');
  let n = 0;
  for (const _ of visible) n++;
  return n;
}

/** Reads a numeric system setting; `fallback` when unset or not a positive number. */
export async function readNumberSetting(read: (key: string) => Promise<string | null>, key: string, fallback: number): Promise<number> {
  const value = Number(await read(key));
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
