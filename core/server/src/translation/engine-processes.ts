import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { procStatFields } from '../system/proc.js';

/**
 * The engine process groups this server started, recorded in DATA_DIR so that the next start
 * can end any a killed server left behind (the launcher's parent watch normally ends them
 * first; this covers the rest). A record names the group leader's pid and its start time in
 * /proc, so a pid the system has since given to another program is never killed.
 */

export interface EngineProcessRecord {
  pid: number;
  /** Field 22 of /proc/<pid>/stat: the process's start time in clock ticks since boot. */
  startTicks: string;
}

const FILE = 'engine-processes.json';

export function processStartTicks(pid: number): string | null {
  return procStatFields(pid)?.[20] ?? null;
}

/** Live (not zombie) processes whose process group is `pgid`, from /proc. */
export function processGroupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = procStatFields(name);
    // f[1] is the state, f[3] the process group.
    if (f && f[3] === String(pgid) && f[1] !== 'Z' && f[1] !== 'X') out.push(Number(name));
  }
  return out;
}

export class EngineProcessRegistry {
  constructor(private readonly dataDir: string) {}

  private read(): EngineProcessRecord[] {
    try {
      const list = JSON.parse(readFileSync(join(this.dataDir, FILE), 'utf8'));
      return Array.isArray(list) ? list.filter((r) => Number.isInteger(r?.pid) && r.pid > 1 && typeof r.startTicks === 'string') : [];
    } catch {
      return [];
    }
  }

  private write(list: EngineProcessRecord[]): void {
    const file = join(this.dataDir, FILE);
    writeFileSync(`${file}.tmp`, JSON.stringify(list));
    renameSync(`${file}.tmp`, file);
  }

  add(pid: number): void {
    const startTicks = processStartTicks(pid);
    if (startTicks === null) return;
    this.write([...this.read().filter((r) => r.pid !== pid), { pid, startTicks }]);
  }

  remove(pid: number): void {
    this.write(this.read().filter((r) => r.pid !== pid));
  }

  /** Kills the process groups of recorded leaders that still run; returns their pids. */
  endLeftovers(): number[] {
    const ended: number[] = [];
    for (const r of this.read()) {
      const ticks = processStartTicks(r.pid);
      // A live pid with another start time is someone else's now. A gone leader may have left
      // its pipelines in the group (a group id is not reused while the group has members).
      if (ticks !== null ? ticks !== r.startTicks : processGroupMembers(r.pid).length === 0) continue;
      try {
        process.kill(-r.pid, 'SIGKILL');
        ended.push(r.pid);
      } catch {
        // Already gone.
      }
    }
    this.write([]);
    return ended;
  }
}
