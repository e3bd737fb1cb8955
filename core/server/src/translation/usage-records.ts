import { sql, type Kysely } from 'kysely';
import { like, type UsageRecords, type UsageTotals } from '@linguaport/sdk/server';
import type { KernelTables } from '../db/schema.js';

/**
 * `ctx.usage`: the usage ledger (`usage_records`, one row per user, day and channel) summed for the
 * areas that show it (the home page, usage records), so they need not know its rows.
 */
export function createUsageRecords(db: Kysely<KernelTables>): UsageRecords {
  const inPeriod = (q: { from?: string; to?: string }) => {
    const parts = [sql`true`];
    if (q.from) parts.push(sql`r.day >= ${q.from}::date`);
    if (q.to) parts.push(sql`r.day <= ${q.to}::date`);
    return parts;
  };
  const totalsOf = (rows: { channel: string; characters: unknown; documents: unknown }[]): UsageTotals => ({
    characters: Object.fromEntries(rows.map((r) => [r.channel, Number(r.characters)])),
    documents: Object.fromEntries(rows.map((r) => [r.channel, Number(r.documents)])),
  });
  return {
    async totals(q) {
      const where = inPeriod(q);
      if (q.userId !== undefined) where.push(sql`r.user_id = ${q.userId}`);
      const { rows } = await sql<{ channel: string; characters: string; documents: string }>`
        select r.channel, sum(r.characters) as characters, sum(r.documents) as documents
        from usage_records r where ${sql.join(where, sql` and `)} group by r.channel`.execute(db);
      return totalsOf(rows);
    },
    async daily(q) {
      const { rows } = await sql<{ day: string; channel: string; characters: string }>`
        select to_char(r.day, 'YYYY-MM-DD') as day, r.channel, sum(r.characters) as characters
        from usage_records r where ${sql.join(inPeriod(q), sql` and `)} group by r.day, r.channel order by r.day`.execute(db);
      return rows.map((r) => ({ day: r.day, channel: r.channel, characters: Number(r.characters) }));
    },
    async byUser(q) {
      const text = q.text ? sql`(u.username ilike ${like(q.text)} or u.real_name ilike ${like(q.text)})` : sql`true`;
      const order = q.order === 'recent' ? sql`max(p.last_used_at) desc, p.user_id` : sql`sum(p.characters) desc, p.user_id`;
      const { rows } = await sql<{ user_id: number; username: string | null; real_name: string | null; channels: Record<string, [number, number]>; last_used_at: Date; total_rows: string }>`
        with p as (
          select r.user_id, r.channel, sum(r.characters) as characters, sum(r.documents) as documents, max(r.last_used_at) as last_used_at
          from usage_records r where ${sql.join(inPeriod(q), sql` and `)} group by r.user_id, r.channel)
        select p.user_id, u.username, u.real_name, max(p.last_used_at) as last_used_at, count(*) over () as total_rows,
          jsonb_object_agg(p.channel, jsonb_build_array(p.characters, p.documents)) as channels
        from p ${q.deletedUsers ? sql`left join` : sql`join`} users u on u.id = p.user_id
        where ${text}
        group by p.user_id, u.username, u.real_name
        order by ${order}
        ${q.limit !== undefined ? sql`limit ${q.limit} offset ${q.offset ?? 0}` : sql``}`.execute(db);
      return {
        total: rows.length ? Number(rows[0]!.total_rows) : 0,
        users: rows.map((r) => {
          const channels = Object.entries(r.channels ?? {});
          return {
            userId: r.user_id,
            username: r.username,
            realName: r.real_name,
            lastUsedAt: new Date(r.last_used_at),
            characters: Object.fromEntries(channels.map(([c, [chars]]) => [c, Number(chars)])),
            documents: Object.fromEntries(channels.map(([c, [, docs]]) => [c, Number(docs)])),
          };
        }),
      };
    },
  };
}
