import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { defineServerPlugin, requestLocale } from '@linguaport/sdk/server';
import { Sampler, type MetricsSnapshot } from './metrics.js';

const INTERVAL_MS = 3000;
/** A watcher that stops renewing (tab closed, network gone) stops costing samples after this. */
const LEASE_MS = 20_000;

const period = z
  .object({ from: z.iso.date(), to: z.iso.date() })
  .refine((p) => p.from <= p.to, { message: 'from must not be after to', path: ['from'] })
  .refine((p) => (Date.parse(p.to) - Date.parse(p.from)) / 86_400_000 <= 366, { message: 'a period is at most 366 days', path: ['to'] });

// The answers, as the OpenAPI document states them (the tests check real answers against them).
const rate = z.number().nullable().describe('Per second over the last interval; null on the first sample');
const metricsSchema = z.object({
  at: z.string(),
  host: z.object({
    cpuCount: z.number().int(),
    cpuPercent: z.number().nullable(),
    loadAverage: z.array(z.number()),
    memoryTotal: z.number(),
    memoryUsed: z.number(),
    diskPath: z.string(),
    diskTotal: z.number(),
    diskUsed: z.number(),
    ioReadPerSec: rate,
    ioWritePerSec: rate,
    gpu: z.discriminatedUnion('state', [
      z.object({ state: z.literal('present'), devices: z.array(z.object({ name: z.string(), utilization: z.number(), memoryUsedMb: z.number(), memoryTotalMb: z.number() })) }),
      z.object({ state: z.literal('absent'), reason: z.string().describe('Why there is none (nvidia-smi missing, no device, failed)'), detail: z.string().optional() }),
    ]),
  }),
  service: z.object({
    processes: z.array(
      z.object({ pid: z.number().int(), name: z.string(), role: z.enum(['server', 'child']), group: z.string(), rssBytes: z.number(), cpuPercent: z.number().nullable(), ioReadPerSec: rate, ioWritePerSec: rate }),
    ),
    groups: z.array(
      z.object({
        key: z.string().describe("'server', 'other', or node:<id> for an engine node"),
        kind: z.enum(['server', 'engine-node', 'other']),
        label: z.string(),
        processCount: z.number().int(),
        rssBytes: z.number(),
        cpuPercent: z.number().nullable(),
        ioReadPerSec: rate,
        ioWritePerSec: rate,
      }),
    ),
    rssBytes: z.number(),
    cpuPercent: z.number().nullable(),
  }),
  intervalMs: z.number().int(),
  watching: z.number().int().describe('Users watching (the sampler runs while someone does)'),
});
const totals = z.object({ characters: z.number(), text: z.number(), api: z.number(), document: z.number(), documents: z.number() });
/** Usage needs the kernel's usage records: `installed: false` without them. */
const notInstalled = z.object({ installed: z.literal(false) });
const usageSchema = z.union([
  notInstalled,
  z.object({
    installed: z.literal(true),
    totals,
    daily: z.array(z.object({ day: z.string(), channel: z.string(), characters: z.number() })),
    users: z.array(
      z.object({
        userId: z.number().int(),
        username: z.string().nullable(),
        realName: z.string().nullable(),
        total: z.number(),
        textApi: z.number(),
        document: z.number(),
        documents: z.number(),
        lastUsedAt: z.string(),
      }),
    ),
  }),
]);
const myUsageSchema = z.union([notInstalled, z.object({ installed: z.literal(true), totals })]);
const operationSchema = z.object({
  id: z.number().int(),
  module: z.string(),
  moduleName: z.string().describe("The module's name in the reader's language"),
  message: z.string().describe("The line in the reader's language"),
  operatorName: z.string().nullable(),
  method: z.string(),
  outcome: z.enum(['success', 'failure']),
  createdAt: z.string(),
});

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
      response: { data: metricsSchema },
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
      response: { data: usageSchema },
      async handler({ query }) {
        const period = { from: query.from, to: query.to };
        const [totals, daily, top] = await Promise.all([ctx.usage.totals(period), ctx.usage.daily(period), ctx.usage.byUser({ ...period, order: 'most', deletedUsers: true, limit: 10 })]);
        const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, n) => a + n, 0);
        return {
          installed: true,
          totals: {
            characters: sum(totals.characters),
            text: totals.characters.text ?? 0,
            api: totals.characters.api ?? 0,
            document: totals.characters.document ?? 0,
            documents: totals.documents.document ?? 0,
          },
          daily,
          users: top.users.map((u) => ({
            userId: u.userId,
            username: u.username,
            realName: u.realName,
            total: sum(u.characters),
            textApi: (u.characters.text ?? 0) + (u.characters.api ?? 0),
            document: u.characters.document ?? 0,
            documents: sum(u.documents),
            lastUsedAt: u.lastUsedAt.toISOString(),
          })),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/home/myUsage',
      access: 'signed-in',
      summary: 'Get own translation usage',
      schema: { query: period },
      response: { data: myUsageSchema },
      async handler({ query, caller }) {
        const { characters, documents } = await ctx.usage.totals({ from: query.from, to: query.to, userId: caller!.userId });
        const of = (ch: string) => characters[ch] ?? 0;
        return { installed: true, totals: { characters: of('text') + of('api') + of('document'), text: of('text'), api: of('api'), document: of('document'), documents: documents.document ?? 0 } };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/home/operations',
      access: { permission: 'home:operations' },
      summary: 'List recent operations',
      schema: { query: z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) }) },
      response: { data: z.array(operationSchema), errors: [404] },
      async handler({ query, headers }) {
        const lines = await ctx.operationLog.list({ limit: query.limit }, requestLocale(headers));
        return lines.map((l) => ({ id: l.id, module: l.module, moduleName: l.moduleName, message: l.message, operatorName: l.operatorName, method: l.method, outcome: l.outcome, createdAt: l.createdAt.toISOString() }));
      },
    });
  },
});
