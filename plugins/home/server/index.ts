import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { ApiError, Codes, defineServerPlugin, operationLine, operationModuleNames, operationTitleColumns, operationTitleJoin, requestLocale } from '@linguaport/sdk/server';
import { Sampler, type MetricsSnapshot } from './metrics.js';

const INTERVAL_MS = 3000;
/** A watcher that stops renewing (tab closed, network gone) stops costing samples after this. */
const LEASE_MS = 20_000;

async function tableExists(db: Kysely<any>, name: string): Promise<boolean> {
  const r = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_schema = current_schema() and table_name = ${name}`.execute(db);
  return Number(r.rows[0]?.n ?? 0) > 0;
}

const period = z
  .object({ from: z.iso.date(), to: z.iso.date() })
  .refine((p) => p.from <= p.to, { message: 'from must not be after to', path: ['from'] })
  .refine((p) => (Date.parse(p.to) - Date.parse(p.from)) / 86_400_000 <= 366, { message: 'a period is at most 366 days', path: ['to'] });

/**
 * The home dashboard's server part: host and service gauges sampled only while someone watches,
 * pushed as `home.metrics` to holders of `home:metrics`; usage totals and recent operations for
 * the administrator's dashboard; the caller's own usage for everyone.
 */
export default defineServerPlugin({
  setup(ctx) {
    let diskPath = dirname(ctx.storage.path('metrics'));
    while (!existsSync(diskPath) && dirname(diskPath) !== diskPath) diskPath = dirname(diskPath);
    // The engine nodes the platform runs itself (local APy processes), to group their processes.
    const nodeProcesses = async () => ctx.engines.nodes.local().map((n) => ({ nodeId: n.id, name: n.name, pid: n.pid }));
    const sampler = new Sampler({ diskPath, nodeProcesses });
    const watchers = new Map<number, number>(); // userId -> lease end
    let timer: NodeJS.Timeout | null = null;
    let last: MetricsSnapshot | null = null;
    let sampling: Promise<MetricsSnapshot> | null = null;

    // One sample at a time, shared by the timer and the HTTP calls.
    const sample = () => (sampling ??= sampler.sample().then((s) => ((last = s), s)).finally(() => (sampling = null)));
    const tick = async () => {
      const now = Date.now();
      for (const [user, until] of watchers) if (until < now) watchers.delete(user);
      if (watchers.size === 0) {
        if (timer) clearInterval(timer);
        timer = null;
        return;
      }
      try {
        const snapshot = await sample();
        await ctx.bus.publish({ type: 'home.metrics', payload: snapshot, audience: { permission: 'home:metrics' } });
      } catch (err) {
        ctx.logger.warn('metrics sample failed', { err: String(err) });
      }
    };
    ctx.onClose(() => {
      if (timer) clearInterval(timer);
      timer = null;
    });

    ctx.route({
      method: 'GET',
      url: '/home/metrics',
      access: { permission: 'home:metrics' },
      summary: 'Get the live system metrics',
      schema: { query: z.object({ watch: z.enum(['1', '0']).optional() }) },
      // The current figures; with watch=1 the caller (re)takes a lease on the live push.
      async handler({ query, caller }) {
        if (query.watch === '1') {
          watchers.set(caller!.userId, Date.now() + LEASE_MS);
          timer ??= setInterval(() => void tick(), INTERVAL_MS);
        } else if (query.watch === '0') {
          watchers.delete(caller!.userId);
        }
        // A fresh sample when the last is older than one interval; rates need the earlier reading.
        const fresh = last && Date.now() - Date.parse(last.at) < INTERVAL_MS ? last : await sample();
        return { ...fresh, intervalMs: INTERVAL_MS, watching: watchers.size };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/home/usage',
      access: { permission: 'home:usage' },
      summary: 'Get translation usage of all users',
      schema: { query: period },
      async handler({ query }) {
        if (!(await tableExists(ctx.db, 'usage_records'))) return { installed: false };
        const inPeriod = ctx.db.selectFrom('usage_records').where('day', '>=', query.from).where('day', '<=', query.to);
        const byChannel = await inPeriod.select(['channel', sql<string>`sum(characters)`.as('characters'), sql<string>`sum(documents)`.as('documents')]).groupBy('channel').execute();
        const daily = await inPeriod
          .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), 'channel', sql<string>`sum(characters)`.as('characters')])
          .groupBy(['day', 'channel'])
          .orderBy('day')
          .execute();
        const users = await ctx.db
          .selectFrom('usage_records as u')
          .leftJoin('users', 'users.id', 'u.user_id')
          .where('u.day', '>=', query.from)
          .where('u.day', '<=', query.to)
          .select([
            'u.user_id as userId',
            'users.username as username',
            'users.real_name as realName',
            sql<string>`sum(u.characters)`.as('total'),
            sql<string>`sum(case when u.channel in ('text', 'api') then u.characters else 0 end)`.as('textApi'),
            sql<string>`sum(case when u.channel = 'document' then u.characters else 0 end)`.as('document'),
            sql<string>`sum(u.documents)`.as('documents'),
            sql<Date>`max(u.last_used_at)`.as('lastUsedAt'),
          ])
          .groupBy(['u.user_id', 'users.username', 'users.real_name'])
          .orderBy(sql`sum(u.characters)`, 'desc')
          .limit(10)
          .execute();
        const sum = (ch: string, field: 'characters' | 'documents') => Number(byChannel.find((r) => r.channel === ch)?.[field] ?? 0);
        return {
          installed: true,
          totals: {
            characters: byChannel.reduce((a, r) => a + Number(r.characters), 0),
            text: sum('text', 'characters'),
            api: sum('api', 'characters'),
            document: sum('document', 'characters'),
            documents: sum('document', 'documents'),
          },
          daily: daily.map((d) => ({ day: d.day, channel: d.channel, characters: Number(d.characters) })),
          users: users.map((u) => ({ ...u, total: Number(u.total), textApi: Number(u.textApi), document: Number(u.document), documents: Number(u.documents), lastUsedAt: new Date(u.lastUsedAt).toISOString() })),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/home/myUsage',
      access: 'signed-in',
      summary: 'Get own translation usage',
      schema: { query: period },
      async handler({ query, caller }) {
        if (!(await tableExists(ctx.db, 'usage_records'))) return { installed: false };
        const rows = await ctx.db
          .selectFrom('usage_records')
          .where('user_id', '=', caller!.userId)
          .where('day', '>=', query.from)
          .where('day', '<=', query.to)
          .select(['channel', sql<string>`sum(characters)`.as('characters'), sql<string>`sum(documents)`.as('documents')])
          .groupBy('channel')
          .execute();
        const of = (ch: string) => Number(rows.find((r) => r.channel === ch)?.characters ?? 0);
        return { installed: true, totals: { characters: of('text') + of('api') + of('document'), text: of('text'), api: of('api'), document: of('document'), documents: Number(rows.find((r) => r.channel === 'document')?.documents ?? 0) } };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/home/operations',
      access: { permission: 'home:operations' },
      summary: 'List recent operations',
      schema: { query: z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) }) },
      async handler({ query, headers }) {
        if (!(await tableExists(ctx.db, 'operation_log'))) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': '未安装操作日志', 'en-US': 'the operation log is not installed' });
        // Lines and module names in the reader's language (operation_titles: see the SDK's operationLine).
        const locale = requestLocale(headers);
        const rows = (await sql<Record<string, any>>`
          select id, module, message, operator_name, method, url, outcome, created_at, ${operationTitleColumns}
          from operation_log ${operationTitleJoin} order by id desc limit ${query.limit}`.execute(ctx.db)).rows;
        const nameOf = await operationModuleNames(ctx.db, locale);
        return rows.map((r) => ({ id: Number(r.id), module: r.module, moduleName: nameOf(r.module), message: operationLine(r, locale), operatorName: r.operator_name, method: r.method, outcome: r.outcome, createdAt: new Date(r.created_at).toISOString() }));
      },
    });
  },
});
