import { execFile } from 'node:child_process';
import { readFile, readdir, statfs } from 'node:fs/promises';
import os from 'node:os';

/**
 * Host and service figures read from the operating system (Linux /proc, os, statfs) and from
 * `nvidia-smi` when it exists. Rates (CPU, IO) need two readings: a Sampler keeps the previous
 * one, so the first sample reports them as null rather than a made-up zero.
 */

export interface CpuTimes {
  idle: number;
  total: number;
}

export interface GpuReading {
  name: string;
  utilization: number;
  memoryUsedMb: number;
  memoryTotalMb: number;
}

export interface ProcessReading {
  pid: number;
  /** Parent process id (the tree is grouped by it). */
  ppid: number;
  name: string;
  rssBytes: number;
  /** Ticks of user + system time (CLK_TCK per second). */
  cpuTicks: number;
  readBytes: number | null;
  writeBytes: number | null;
}

export interface MetricsSnapshot {
  at: string;
  host: {
    cpuCount: number;
    cpuPercent: number | null;
    loadAverage: number[];
    memoryTotal: number;
    memoryUsed: number;
    diskPath: string;
    diskTotal: number;
    diskUsed: number;
    /** Bytes per second over the last interval, all physical disks. */
    ioReadPerSec: number | null;
    ioWritePerSec: number | null;
    /** Why there is none: nvidia-smi is not installed, lists no GPU, or failed (`detail`: its first line of error, as the system said it). */
    gpu: { state: 'present'; devices: GpuReading[] } | { state: 'absent'; reason: 'notInstalled' | 'noDevice' | 'failed'; detail?: string };
  };
  service: {
    processes: Array<{ pid: number; name: string; role: 'server' | 'child'; group: string; rssBytes: number; cpuPercent: number | null; ioReadPerSec: number | null; ioWritePerSec: number | null }>;
    /**
     * The same processes by what they serve: the platform server itself, each engine node the
     * platform runs (its process and the pipelines under it), and other helpers it started.
     */
    groups: ServiceGroup[];
    rssBytes: number;
    cpuPercent: number | null;
  };
}

export interface ServiceGroup {
  /** 'server', 'other', or `node:<id>` for an engine node. */
  key: string;
  kind: 'server' | 'engine-node' | 'other';
  /** The engine node's name (its container name); empty for the other kinds. */
  label: string;
  processCount: number;
  rssBytes: number;
  cpuPercent: number | null;
  ioReadPerSec: number | null;
  ioWritePerSec: number | null;
}

/** An engine node's own process, as the translation service reports it. */
export interface NodeProcess {
  nodeId: number;
  name: string;
  pid: number;
}

const SECTOR = 512;
// Linux reports process times in USER_HZ, 100 on every mainstream architecture (getconf CLK_TCK).
const CLK_TCK = 100;

/** The aggregate `cpu` line of /proc/stat. */
export function parseProcStat(text: string): CpuTimes | null {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return null;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (values[3] ?? 0) + (values[4] ?? 0); // idle + iowait
  return { idle, total: values.reduce((a, b) => a + b, 0) };
}

/** MemTotal and MemAvailable in bytes; "used" is total minus available (caches are not use). */
export function parseMeminfo(text: string): { total: number; used: number } | null {
  const kb = (name: string) => {
    const m = new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : null;
  };
  const total = kb('MemTotal');
  const available = kb('MemAvailable');
  return total !== null && available !== null ? { total, used: total - available } : null;
}

/** Sectors read and written by whole physical disks (partitions, loop and ram devices left out). */
export function parseDiskstats(text: string): { readBytes: number; writeBytes: number } {
  let readBytes = 0;
  let writeBytes = 0;
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    const name = f[2];
    if (/^(loop|ram|zram|dm-|sr)/.test(name)) continue;
    // Whole disks only: sda, vda, xvda, nvme0n1, mmcblk0 (not sda1, nvme0n1p1, mmcblk0p1).
    if (!/^((s|v|xv|h)d[a-z]+|nvme\d+n\d+|mmcblk\d+)$/.test(name)) continue;
    readBytes += Number(f[5]) * SECTOR;
    writeBytes += Number(f[9]) * SECTOR;
  }
  return { readBytes, writeBytes };
}

/** `nvidia-smi --query-gpu=name,utilization.gpu,memory.used,memory.total --format=csv,noheader,nounits`. */
export function parseNvidiaSmi(text: string): GpuReading[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const [name, util, used, total] = l.split(',').map((s) => s.trim());
      return { name, utilization: Number(util), memoryUsedMb: Number(used), memoryTotalMb: Number(total) };
    })
    .filter((g) => Number.isFinite(g.utilization));
}

/** /proc/<pid>/stat: fields after the parenthesised name (which may hold spaces). */
export function parsePidStat(text: string): { name: string; ppid: number; cpuTicks: number; rssPages: number } | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < 0) return null;
  const rest = text.slice(close + 2).split(' ');
  // rest[0] is field 3 (state): ppid is field 4, utime 14, stime 15, rss 24.
  return { name: text.slice(open + 1, close), ppid: Number(rest[1]), cpuTicks: Number(rest[11]) + Number(rest[12]), rssPages: Number(rest[21]) };
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

function gpuReading(): Promise<MetricsSnapshot['host']['gpu']> {
  return new Promise((resolve) => {
    execFile('nvidia-smi', ['--query-gpu=name,utilization.gpu,memory.used,memory.total', '--format=csv,noheader,nounits'], { timeout: 3000 }, (err, stdout) => {
      if (err) {
        const code = (err as NodeJS.ErrnoException).code;
        resolve(code === 'ENOENT' ? { state: 'absent', reason: 'notInstalled' } : { state: 'absent', reason: 'failed', detail: err.message.split('\n')[0] });
        return;
      }
      const devices = parseNvidiaSmi(stdout);
      resolve(devices.length ? { state: 'present', devices } : { state: 'absent', reason: 'noDevice' });
    });
  });
}

/** The server process and every descendant (APy, Apertium pipelines, converters). */
async function serviceProcesses(rootPid: number): Promise<ProcessReading[]> {
  const pageSize = 4096;
  const stats = new Map<number, { name: string; ppid: number; cpuTicks: number; rssPages: number }>();
  let entries: string[] = [];
  try {
    entries = (await readdir('/proc')).filter((e) => /^\d+$/.test(e));
  } catch {
    entries = [];
  }
  await Promise.all(
    entries.map(async (e) => {
      const text = await readText(`/proc/${e}/stat`);
      const parsed = text ? parsePidStat(text) : null;
      if (parsed) stats.set(Number(e), parsed);
    }),
  );
  const family = new Set([rootPid]);
  // Walk down from the server: repeat until no new child is found.
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, s] of stats) {
      if (!family.has(pid) && family.has(s.ppid)) {
        family.add(pid);
        grew = true;
      }
    }
  }
  const readings: ProcessReading[] = [];
  for (const pid of family) {
    const s = stats.get(pid);
    if (!s) continue;
    const io = await readText(`/proc/${pid}/io`);
    const num = (name: string) => (io ? Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(io)?.[1] ?? NaN) : NaN);
    const readBytes = num('read_bytes');
    const writeBytes = num('write_bytes');
    readings.push({ pid, ppid: s.ppid, name: s.name, rssBytes: s.rssPages * pageSize, cpuTicks: s.cpuTicks, readBytes: Number.isFinite(readBytes) ? readBytes : null, writeBytes: Number.isFinite(writeBytes) ? writeBytes : null });
  }
  return readings;
}

/**
 * Which group each process belongs to: an engine node's process and everything under it form
 * `node:<id>`; the server itself is `server`; any other descendant is `other`.
 */
export function groupProcesses(processes: Pick<ProcessReading, 'pid' | 'ppid'>[], rootPid: number, nodes: NodeProcess[]): Map<number, string> {
  const parent = new Map(processes.map((p) => [p.pid, p.ppid]));
  const nodeByPid = new Map(nodes.map((n) => [n.pid, `node:${n.nodeId}`]));
  const out = new Map<number, string>();
  for (const p of processes) {
    if (p.pid === rootPid) {
      out.set(p.pid, 'server');
      continue;
    }
    let group = 'other';
    for (let pid: number | undefined = p.pid, hops = 0; pid !== undefined && pid !== rootPid && hops < 64; pid = parent.get(pid), hops++) {
      const node = nodeByPid.get(pid);
      if (node) {
        group = node;
        break;
      }
    }
    out.set(p.pid, group);
  }
  return out;
}

type ServiceProcess = MetricsSnapshot['service']['processes'][number];

const sumOrNull = (values: (number | null)[]) => (values.some((v) => v !== null) ? Math.round(values.reduce<number>((a, v) => a + (v ?? 0), 0) * 10) / 10 : null);

/** Totals per group, server first, then the engine nodes by name, then the rest. */
export function summarizeGroups(processes: ServiceProcess[], nodes: NodeProcess[]): ServiceGroup[] {
  const byKey = new Map<string, ServiceProcess[]>();
  for (const p of processes) byKey.set(p.group, [...(byKey.get(p.group) ?? []), p]);
  const names = new Map(nodes.map((n) => [`node:${n.nodeId}`, n.name]));
  const rank = (key: string) => (key === 'server' ? 0 : key === 'other' ? 2 : 1);
  return [...byKey.entries()]
    .map(([key, list]): ServiceGroup => ({
      key,
      kind: key === 'server' ? 'server' : key === 'other' ? 'other' : 'engine-node',
      label: names.get(key) ?? '',
      processCount: list.length,
      rssBytes: list.reduce((a, p) => a + p.rssBytes, 0),
      cpuPercent: sumOrNull(list.map((p) => p.cpuPercent)),
      ioReadPerSec: sumOrNull(list.map((p) => p.ioReadPerSec)),
      ioWritePerSec: sumOrNull(list.map((p) => p.ioWritePerSec)),
    }))
    .sort((a, b) => rank(a.key) - rank(b.key) || a.label.localeCompare(b.label));
}

interface Previous {
  at: number;
  cpu: CpuTimes | null;
  disk: { readBytes: number; writeBytes: number };
  processes: Map<number, ProcessReading>;
}

const rate = (now: number | null, before: number | null | undefined, seconds: number) => (now === null || before === null || before === undefined || seconds <= 0 ? null : Math.max(0, (now - before) / seconds));

export class Sampler {
  private previous: Previous | null = null;

  constructor(private readonly options: { diskPath: string; rootPid?: number; now?: () => number; nodeProcesses?: () => Promise<NodeProcess[]> }) {}

  async sample(): Promise<MetricsSnapshot> {
    const now = (this.options.now ?? Date.now)();
    const [statText, memText, diskText, fsStat, gpu, processes] = await Promise.all([
      readText('/proc/stat'),
      readText('/proc/meminfo'),
      readText('/proc/diskstats'),
      statfs(this.options.diskPath).catch(() => null),
      gpuReading(),
      serviceProcesses(this.options.rootPid ?? process.pid),
    ]);
    const nodes = await (this.options.nodeProcesses?.() ?? Promise.resolve([])).catch(() => [] as NodeProcess[]);
    const cpu = statText ? parseProcStat(statText) : null;
    const mem = (memText ? parseMeminfo(memText) : null) ?? { total: os.totalmem(), used: os.totalmem() - os.freemem() };
    const disk = diskText ? parseDiskstats(diskText) : { readBytes: 0, writeBytes: 0 };
    const prev = this.previous;
    const seconds = prev ? (now - prev.at) / 1000 : 0;
    const cpuPercent = prev?.cpu && cpu && cpu.total > prev.cpu.total ? Math.round((1 - (cpu.idle - prev.cpu.idle) / (cpu.total - prev.cpu.total)) * 1000) / 10 : null;
    const cpuCount = os.cpus().length || 1;
    const procCpu = (p: ProcessReading) => {
      const before = prev?.processes.get(p.pid);
      // Share of the whole machine, like the host figure (one busy core of two reads 50%).
      const r = rate(p.cpuTicks, before?.cpuTicks, seconds);
      return r === null ? null : Math.round((r / CLK_TCK / cpuCount) * 1000) / 10;
    };
    const rootPid = this.options.rootPid ?? process.pid;
    const groupOf = groupProcesses(processes, rootPid, nodes);
    const service = processes.map((p) => {
      const before = prev?.processes.get(p.pid);
      return {
        pid: p.pid,
        name: p.name,
        role: (p.pid === rootPid ? 'server' : 'child') as 'server' | 'child',
        group: groupOf.get(p.pid) ?? 'other',
        rssBytes: p.rssBytes,
        cpuPercent: procCpu(p),
        ioReadPerSec: rate(p.readBytes, before?.readBytes, seconds),
        ioWritePerSec: rate(p.writeBytes, before?.writeBytes, seconds),
      };
    });
    const known = service.map((s) => s.cpuPercent).filter((c): c is number => c !== null);
    this.previous = { at: now, cpu, disk, processes: new Map(processes.map((p) => [p.pid, p])) };
    return {
      at: new Date(now).toISOString(),
      host: {
        cpuCount,
        cpuPercent,
        loadAverage: os.loadavg(),
        memoryTotal: mem.total,
        memoryUsed: mem.used,
        diskPath: this.options.diskPath,
        diskTotal: fsStat ? fsStat.blocks * fsStat.bsize : 0,
        diskUsed: fsStat ? (fsStat.blocks - fsStat.bfree) * fsStat.bsize : 0,
        ioReadPerSec: rate(disk.readBytes, prev?.disk.readBytes, seconds),
        ioWritePerSec: rate(disk.writeBytes, prev?.disk.writeBytes, seconds),
        gpu,
      },
      service: {
        processes: service,
        groups: summarizeGroups(service, nodes),
        rssBytes: service.reduce((a, s) => a + s.rssBytes, 0),
        cpuPercent: prev ? Math.round(known.reduce((a, b) => a + b, 0) * 10) / 10 : null,
      },
    };
  }
}
