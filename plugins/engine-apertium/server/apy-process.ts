import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

/**
 * A managed local Apertium APy. It runs through `apy-launcher.py` (beside this file), which
 * binds APy to 127.0.0.1 only, on a port the kernel picks, and gives it the CLI's tag
 * handling. The process leads its own process group, so `stop()` also ends the translation
 * pipelines APy spawned. The group dies with this server: the launcher watches its parent
 * (`LP_PARENT_PID`) and kills its own group when the server is gone, even after a SIGKILL
 * that left no chance to call `stop()`; `processes` records the group for the next start.
 */

export interface ApyOptions {
  /**
   * The engine's container count (spec: Engine.containerCount): how many pipelines APy may run
   * per pair and keeps open. Maps to `-i N -n N -u 1` (FIELD-NOTES: with 2 pipelines and one
   * user per pipe throughput rose from ~6,600 to ~10,600 words/s on 2 cores).
   */
  containers?: number;
  pairsPath?: string;
  /** Debian's interpreter: the first `python3` on PATH may lack tornado. */
  python?: string;
  /** APy's per-request pipeline time-out, seconds. */
  requestTimeoutSeconds?: number;
  /** How long to wait for the port and `/listPairs`. */
  startTimeoutMs?: number;
  /** Warm each pair's pipeline with one request before `start()` resolves (default true). */
  warm?: boolean;
  /** The environment APy runs in (default this process's). */
  env?: NodeJS.ProcessEnv;
  /** Told the group leader's pid once spawned and when it is gone (DATA_DIR's record). */
  processes?: { add(pid: number): void; remove(pid: number): void };
}

export interface ApyExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** False when the process ended without `stop()`: a crash. */
  expected: boolean;
  /** The last lines APy wrote to stderr, to say why. */
  stderrTail: string;
}

/** Debian's interpreter: the first `python3` on PATH may be another one, without tornado. */
export const APY_PYTHON = '/usr/bin/python3';

const LAUNCHER = fileURLToPath(new URL('./apy-launcher.py', import.meta.url));

/** Directions warmed when APy starts; the rest start on first use. */
export const WARM_LIMIT = 8;
const MAIN = new Set(['eng', 'en', 'spa', 'es']);

/** The directions to warm: those between the main languages, then the others in APy's order, at most WARM_LIMIT. */
export function warmFirst(pairs: string[], limit = WARM_LIMIT): string[] {
  const main = (p: string) => p.split('|').filter((side) => MAIN.has(side.split('_')[0])).length;
  return [...pairs].sort((a, b) => main(b) - main(a)).slice(0, limit);
}

export class ApyProcess {
  private stopping = false;
  private exited: ApyExit | null = null;
  private readonly exitListeners = new Set<(exit: ApyExit) => void>();
  private readonly exitPromise: Promise<ApyExit>;
  private stderrLines: string[] = [];

  private constructor(
    private readonly child: ChildProcess,
    public readonly port: number,
    processes?: ApyOptions['processes'],
  ) {
    this.exitPromise = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exited = { code, signal, expected: this.stopping, stderrTail: this.stderrLines.join('\n') };
        // A crashed leader leaves its pipelines orphaned in the group: end them.
        if (!this.stopping) killGroup(child, 'SIGKILL');
        forget(processes, child);
        for (const fn of this.exitListeners) fn(this.exited);
        resolve(this.exited);
      });
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.exited === null;
  }

  /** Called once when the process ends; `expected` is false for a crash. Returns an unsubscribe. */
  onExit(fn: (exit: ApyExit) => void): () => void {
    if (this.exited) queueMicrotask(() => fn(this.exited!));
    else this.exitListeners.add(fn);
    return () => this.exitListeners.delete(fn);
  }

  static async start(options: ApyOptions = {}): Promise<ApyProcess> {
    const containers = Math.max(1, Math.floor(options.containers ?? 1));
    const args = [
      LAUNCHER,
      '-p', '0',
      '-j', '1',
      '-i', String(containers),
      '-n', String(containers),
      '-u', String(containers > 1 ? 1 : 5),
      '-t', String(options.requestTimeoutSeconds ?? 10),
      options.pairsPath ?? '/usr/share/apertium/modes',
    ];
    const child = spawn(options.python ?? APY_PYTHON, args, {
      cwd: tmpdir(),
      env: { ...(options.env ?? process.env), LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8', PYTHONUNBUFFERED: '1', LP_PARENT_PID: String(process.pid) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    try {
      if (child.pid) options.processes?.add(child.pid);
    } catch {
      // The launcher's own parent watch still ends the group with this server.
    }
    const stderrLines: string[] = [];
    createInterface({ input: child.stderr! }).on('line', (line) => {
      stderrLines.push(line);
      if (stderrLines.length > 20) stderrLines.shift();
    });
    const deadline = Date.now() + (options.startTimeoutMs ?? 20_000);
    let port: number;
    try {
      port = await readPort(child, deadline);
    } catch (err) {
      killGroup(child, 'SIGKILL');
      forget(options.processes, child);
      throw new Error(`APy did not start: ${(err as Error).message}\n${stderrLines.join('\n')}`);
    }
    const apy = new ApyProcess(child, port, options.processes);
    apy.stderrLines = stderrLines;
    try {
      const pairs = await apy.waitForPairs(deadline);
      // Warming is an optimisation: a slow machine that cannot warm in time still has a working APy.
      if (options.warm !== false) await apy.warm(pairs).catch(() => {});
    } catch (err) {
      await apy.stop();
      throw err;
    }
    return apy;
  }

  private async waitForPairs(deadline: number): Promise<string[]> {
    for (;;) {
      if (!this.running) throw new Error(`APy exited while starting: ${this.exited!.stderrTail}`);
      try {
        const res = await fetch(`${this.url}/listPairs`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) {
          const body = (await res.json()) as { responseData: { sourceLanguage: string; targetLanguage: string }[] };
          return body.responseData.map((p) => `${p.sourceLanguage}|${p.targetLanguage}`);
        }
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error('APy did not answer /listPairs in time');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /**
   * The first request of a pair starts its pipeline (~100 ms); pay that now, not on a user's request,
   * for the most used directions. Each warm pipeline is a handful of processes kept running, so with
   * many language packs installed only the first WARM_LIMIT directions (English and Spanish first)
   * are warmed; the others start on their first request.
   */
  private async warm(pairs: string[]): Promise<void> {
    await Promise.all(
      warmFirst(pairs).map(async (langpair) => {
        const body = new URLSearchParams({ langpair, q: 'Hello.', markUnknown: 'no' });
        const res = await fetch(`${this.url}/translate`, { method: 'POST', body, signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
      }),
    );
  }

  /** Ends APy and every pipeline it started (the whole process group). */
  async stop(graceMs = 3000): Promise<ApyExit> {
    if (this.exited) {
      killGroup(this.child, 'SIGKILL');
      return this.exited;
    }
    this.stopping = true;
    killGroup(this.child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(this.child, 'SIGKILL'), graceMs);
    const exit = await this.exitPromise;
    clearTimeout(timer);
    // Pipelines may outlive the leader by a moment; the group is gone once the leader is.
    killGroup(this.child, 'SIGKILL');
    return exit;
  }
}

function forget(processes: ApyOptions['processes'], child: ChildProcess): void {
  try {
    if (child.pid) processes?.remove(child.pid);
  } catch {
    // The record is a safety net; a failed write must not break stopping.
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // The group is already gone.
  }
}

function readPort(child: ChildProcess, deadline: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error('no APY_LISTENING line in time')), Math.max(0, deadline - Date.now()));
    const onExit = (code: number | null) => reject(new Error(`exited with ${code}`));
    child.once('exit', onExit);
    child.once('error', reject);
    lines.on('line', (line) => {
      const m = /^APY_LISTENING (\d+)$/.exec(line);
      if (!m) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve(Number(m[1]));
    });
  });
}
