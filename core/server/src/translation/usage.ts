import { sql, type Kysely } from 'kysely';
import type { KernelTables } from '../db/schema.js';
import type { TranslationChannel } from '@linguaport/sdk/server';

/**
 * Usage accounting: one row per user, day and channel, added to atomically so concurrent
 * requests never lose a count. The daily rows let the records screen filter by date and the
 * API cap be a per-day quota.
 */

export async function addUsage(db: Kysely<KernelTables>, userId: number, channel: TranslationChannel, characters: number, documents: number, at: Date): Promise<void> {
  await sql`
    insert into usage_records (user_id, day, channel, characters, documents, last_used_at)
    values (${userId}, ${isoDay(at)}::date, ${channel}, ${characters}, ${documents}, ${at})
    on conflict (user_id, day, channel) do update set
      characters = usage_records.characters + excluded.characters,
      documents = usage_records.documents + excluded.documents,
      last_used_at = greatest(usage_records.last_used_at, excluded.last_used_at)`.execute(db);
}

export async function usageToday(db: Kysely<KernelTables>, userId: number, channel: TranslationChannel, at: Date): Promise<number> {
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

/**
 * Usage writes off the request path: increments are merged per (user, day, channel) and written
 * in one statement each after `flushMs` (default 100 ms), so a translation never waits for the
 * database and a busy API client costs one write per interval, not per request. `today` serves
 * the API cap from a total read once and kept up to date by this process's own increments
 * (re-read every 10 s, so other server instances' usage is seen within that).
 */
export class UsageLedger {
  private readonly pending = new Map<string, { userId: number; channel: TranslationChannel; characters: number; documents: number; at: Date }>();
  private readonly totals = new Map<string, { value: number; loadedAt: number }>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<KernelTables>,
    private readonly onError: (err: Error) => void,
    private readonly flushMs = 100,
  ) {}

  add(userId: number, channel: TranslationChannel, characters: number, documents: number, at: Date): void {
    const key = `${userId}|${isoDay(at)}|${channel}`;
    const p = this.pending.get(key);
    if (p) {
      p.characters += characters;
      p.documents += documents;
      if (at > p.at) p.at = at;
    } else this.pending.set(key, { userId, channel, characters, documents, at });
    const total = this.totals.get(key);
    if (total) total.value += characters;
    this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
  }

  async today(userId: number, channel: TranslationChannel, at: Date): Promise<number> {
    const key = `${userId}|${isoDay(at)}|${channel}`;
    const hit = this.totals.get(key);
    if (hit && Date.now() - hit.loadedAt < 10_000) return hit.value;
    await this.flush();
    const value = await usageToday(this.db, userId, channel, at);
    this.totals.set(key, { value, loadedAt: Date.now() });
    return value;
  }

  /** Writes everything added so far; resolves when it is in the database. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending.values()];
    this.pending.clear();
    this.flushing = this.flushing.then(async () => {
      for (const u of batch) {
        await addUsage(this.db, u.userId, u.channel, u.characters, u.documents, u.at).catch((err: Error) => this.onError(err));
      }
    });
    return this.flushing;
  }
}
