import { sql } from 'kysely';
import { ApiError, Codes } from '@linguaport/sdk/server';
import { messages } from './messages.js';
import type { AreaSettings } from './settings.js';
import type { Db } from './tables.js';

/**
 * Storage per user: everything this area keeps for them (uploads, results, PDFs, archives and their
 * results, conversions) counts against a quota: their own when an administrator set one, else the
 * area's default. An upload that would pass it is refused before anything is stored.
 */
export function createQuotas(db: Db, settings: AreaSettings) {
  async function usedBytes(userId: number): Promise<number> {
    const row = await sql<{ n: string | number | null }>`
      select
        coalesce((select sum(size + coalesce(result_size, 0) + coalesce(pdf_size, 0)) from trans_file_files where owner_id = ${userId}), 0)
      + coalesce((select sum(size + coalesce(result_size, 0)) from trans_file_jobs where owner_id = ${userId}), 0)
      + coalesce((select sum(size + coalesce(result_size, 0)) from trans_file_conversions where owner_id = ${userId}), 0) as n`.execute(db);
    return Number(row.rows[0]?.n ?? 0);
  }

  async function quotaMb(userId: number): Promise<{ quotaMb: number; own: boolean }> {
    const own = await db.selectFrom('trans_file_quotas').select('quota_mb').where('user_id', '=', userId).executeTakeFirst();
    if (own) return { quotaMb: own.quota_mb, own: true };
    return { quotaMb: (await settings.get()).defaultQuotaMb, own: false };
  }

  async function usage(userId: number) {
    const [used, quota] = await Promise.all([usedBytes(userId), quotaMb(userId)]);
    return { usedBytes: used, quotaBytes: quota.quotaMb * 1024 * 1024, quotaMb: quota.quotaMb, ownQuota: quota.own };
  }

  /** Refuses (400, the catalogue's file upload error) `adding` more bytes when they would pass the user's quota. */
  async function assertRoom(userId: number, adding: number): Promise<void> {
    const u = await usage(userId);
    if (u.usedBytes + adding > u.quotaBytes) throw new ApiError(Codes.BAD_REQUEST, messages.overQuota((u.usedBytes / 1024 / 1024).toFixed(1), u.quotaMb), { usedBytes: u.usedBytes, quotaBytes: u.quotaBytes, adding });
  }

  async function setQuota(userIds: number[], quota: number | null): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('trans_file_quotas').where('user_id', 'in', userIds).execute();
      if (quota !== null) await trx.insertInto('trans_file_quotas').values(userIds.map((user_id) => ({ user_id, quota_mb: quota }))).execute();
    });
  }

  return { usedBytes, usage, assertRoom, setQuota };
}

export type Quotas = ReturnType<typeof createQuotas>;
