import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';
import { groupProcesses, parseDiskstats, parseMeminfo, parseNvidiaSmi, parsePidStat, parseProcStat, summarizeGroups } from '../../server/metrics.js';

let kernel: TestKernel;
let admin: string;
let plain: { userId: number };
let plainToken: string;
let wsBase: string;

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['home'] });
  await kernel.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(kernel.app.server.address() as { port: number }).port}/api/ws`;
  admin = await kernel.login('admin', ADMIN_PASSWORD);
  plain = await createUserWithRole(kernel, 'editor', 'Editor-Passw0rd', 'editor', []);
  plainToken = await kernel.login('editor', 'Editor-Passw0rd');
}, 120_000);

afterAll(async () => {
  await kernel?.shutdown();
});

describe('parsers of the operating system figures', () => {
  it('reads the aggregate CPU line, counting iowait as idle', () => {
    expect(parseProcStat('cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 1 2 3 4\n')).toEqual({ idle: 850, total: 1000 });
  });
  it('takes used memory as total minus available', () => {
    expect(parseMeminfo('MemTotal:       1000 kB\nMemFree:  100 kB\nMemAvailable:    400 kB\n')).toEqual({ total: 1024000, used: 614400 });
  });
  it('sums whole disks only, in bytes', () => {
    const text = ['   8       0 sda 10 0 100 0 5 0 40 0 0 0 0', '   8       1 sda1 10 0 100 0 5 0 40 0 0 0 0', '   7       0 loop0 10 0 999 0 5 0 999 0 0 0 0', ' 259 0 nvme0n1 1 0 2 0 1 0 4 0 0 0 0'].join('\n');
    expect(parseDiskstats(text)).toEqual({ readBytes: (100 + 2) * 512, writeBytes: (40 + 4) * 512 });
  });
  it('reads nvidia-smi CSV rows', () => {
    expect(parseNvidiaSmi('Tesla T4, 37, 1200, 15360\n')).toEqual([{ name: 'Tesla T4', utilization: 37, memoryUsedMb: 1200, memoryTotalMb: 15360 }]);
  });
  it('reads a process stat line whose name holds spaces and parentheses', () => {
    const line = '4242 (apertium (apy)) S 4000 4242 4242 0 -1 4194304 100 0 0 0 70 30 0 0 20 0 3 0 500 123456 250 18446744073709551615';
    expect(parsePidStat(line)).toEqual({ name: 'apertium (apy)', ppid: 4000, cpuTicks: 100, rssPages: 250 });
  });
});

describe('service processes by what they serve', () => {
  // server 10 -> APy 20 (engine node 7) -> pipeline 21 -> 22; server 10 -> esbuild 30.
  const tree = [{ pid: 10, ppid: 1 }, { pid: 20, ppid: 10 }, { pid: 21, ppid: 20 }, { pid: 22, ppid: 21 }, { pid: 30, ppid: 10 }];
  const nodes = [{ nodeId: 7, name: 'apertium-local', pid: 20 }];

  it('puts an engine node and everything under it in the node group, the server alone, the rest apart', () => {
    expect(Object.fromEntries(groupProcesses(tree, 10, nodes))).toEqual({ 10: 'server', 20: 'node:7', 21: 'node:7', 22: 'node:7', 30: 'other' });
    expect(new Set(groupProcesses(tree, 10, []).values())).toEqual(new Set(['server', 'other']));
  });

  it('totals each group, server first, and keeps unknown rates unknown', () => {
    const group = groupProcesses(tree, 10, nodes);
    const proc = (pid: number, rss: number, cpu: number | null) => ({ pid, name: `p${pid}`, role: 'child' as const, group: group.get(pid)!, rssBytes: rss, cpuPercent: cpu, ioReadPerSec: null, ioWritePerSec: cpu });
    const groups = summarizeGroups([proc(30, 5, 1), proc(20, 100, 2.5), proc(21, 50, 1.25), proc(22, 50, null), proc(10, 400, 10)], nodes);
    expect(groups.map((g) => g.key)).toEqual(['server', 'node:7', 'other']);
    expect(groups[1]).toEqual({ key: 'node:7', kind: 'engine-node', label: 'apertium-local', processCount: 3, rssBytes: 200, cpuPercent: 3.8, ioReadPerSec: null, ioWritePerSec: 3.8 });
    expect(groups[0]).toMatchObject({ kind: 'server', processCount: 1, rssBytes: 400 });
  });
});

describe('host and service gauges', () => {
  it('reports non-zero host figures, the server process, and a clear GPU state', async () => {
    const first = await kernel.call('GET', '/api/home/metrics', admin);
    expect(first.body.code).toBe(200);
    const m = first.body.data;
    expect(m.host.memoryTotal).toBeGreaterThan(0);
    expect(m.host.memoryUsed).toBeGreaterThan(0);
    expect(m.host.diskTotal).toBeGreaterThan(m.host.diskUsed);
    expect(m.host.cpuCount).toBeGreaterThan(0);
    expect(m.service.processes.find((p: { role: string }) => p.role === 'server')).toEqual(expect.objectContaining({ pid: process.pid, rssBytes: expect.any(Number) }));
    expect(m.service.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
    expect(m.service.groups[0]).toMatchObject({ key: 'server', kind: 'server', processCount: 1 });
    expect(m.service.groups.reduce((n: number, g: { processCount: number }) => n + g.processCount, 0)).toBe(m.service.processes.length);
    expect(['present', 'absent']).toContain(m.host.gpu.state);
    if (m.host.gpu.state === 'absent') expect(['notInstalled', 'noDevice', 'failed']).toContain(m.host.gpu.reason);
    // Rates need two readings, one sampling interval apart: ask until the second one is there.
    let second: typeof m = null;
    await expect.poll(async () => {
      second = (await kernel.call('GET', '/api/home/metrics', admin)).body.data;
      return second.host.cpuPercent;
    }, { timeout: 15_000, interval: 250 }).toEqual(expect.any(Number));
    expect(second.host.cpuPercent).toEqual(expect.any(Number));
    expect(second.host.cpuPercent).toBeGreaterThanOrEqual(0);
    expect(second.host.ioReadPerSec).toEqual(expect.any(Number));
  });

  it('pushes home.metrics every few seconds while someone watches', async () => {
    const socket = new WebSocket(`${wsBase}?token=${encodeURIComponent(admin)}`);
    const pushed: Array<{ type: string; payload: any }> = [];
    socket.on('message', (d) => pushed.push(JSON.parse(String(d))));
    await new Promise((r, j) => { socket.once('open', r); socket.once('error', j); });
    // Subscribed once the server says so: what is published from here on reaches the socket.
    await expect.poll(() => pushed.some((m) => m.type === 'ws.ready'), { timeout: 10_000, interval: 20 }).toBe(true);
    const watch = await kernel.call('GET', '/api/home/metrics?watch=1', admin);
    expect(watch.body.data.watching).toBe(1);
    await expect.poll(() => pushed.filter((m) => m.type === 'home.metrics').length, { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(2);
    await kernel.call('GET', '/api/home/metrics?watch=0', admin);
    socket.close();
    const metrics = pushed.filter((m) => m.type === 'home.metrics');
    expect(metrics.length).toBeGreaterThanOrEqual(2);
    expect(metrics[1].payload.host.memoryTotal).toBeGreaterThan(0);
  }, 20_000);

  it('keeps the gauges, usage of everyone and operations from users without the keys', async () => {
    expect((await kernel.call('GET', '/api/home/metrics', plainToken)).status).toBe(403);
    expect((await kernel.call('GET', '/api/home/usage?from=2026-01-01&to=2026-12-31', plainToken)).status).toBe(403);
    expect((await kernel.call('GET', '/api/home/operations', plainToken)).status).toBe(403);
  });
});

describe('usage and operations', () => {
  it('totals usage records over a period by channel and lists the top users', async () => {
    const db = kernel.database.db;
    const at = new Date('2026-02-10T09:00:00Z');
    await db
      .insertInto('usage_records')
      .values([
        { user_id: plain.userId, day: '2026-02-10', channel: 'text', characters: 1200, documents: 0, last_used_at: at },
        { user_id: plain.userId, day: '2026-02-11', channel: 'api', characters: 300, documents: 0, last_used_at: at },
        { user_id: plain.userId, day: '2026-02-11', channel: 'document', characters: 5000, documents: 2, last_used_at: at },
        { user_id: plain.userId, day: '2026-03-20', channel: 'text', characters: 999, documents: 0, last_used_at: at },
      ])
      .execute();
    const res = await kernel.call('GET', '/api/home/usage?from=2026-02-01&to=2026-02-28', admin);
    expect(res.body.data).toMatchObject({ installed: true, totals: { characters: 6500, text: 1200, api: 300, document: 5000, documents: 2 } });
    expect(res.body.data.users[0]).toMatchObject({ username: 'editor', total: 6500, textApi: 1500, document: 5000, documents: 2 });
    expect(res.body.data.daily).toContainEqual({ day: '2026-02-11', channel: 'document', characters: 5000 });
    const mine = await kernel.call('GET', '/api/home/myUsage?from=2026-02-01&to=2026-03-31', plainToken);
    expect(mine.body.data.totals).toMatchObject({ characters: 7499, text: 2199 });
  });

  it('refuses a period that ends before it starts', async () => {
    const res = await kernel.call('GET', '/api/home/usage?from=2026-03-01&to=2026-02-01', admin);
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('from');
  });

  it('lists the most recent operation records first', async () => {
    await kernel.call('PUT', '/api/systemConfig/updateConfig', admin, { configKey: 'SITE_TITLE', configValue: 'Home test' });
    const res = await kernel.call('GET', '/api/home/operations?limit=5', admin);
    expect(res.body.code).toBe(200);
    expect(res.body.data[0]).toMatchObject({ method: 'PUT', outcome: 'success', operatorName: 'admin' });
  });
});
