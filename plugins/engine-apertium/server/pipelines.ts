import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runTool } from '@linguaport/sdk/server';
import { fromApertiumMode } from './languages.js';

/**
 * Warm null-flush pipelines of Apertium, for large batches (documents). A pipeline is a pair's mode
 * (`<modes>/<pair>.mode`, word-bound-blank version from `apertium-wblank-mode -z`, as the CLI and our
 * APy launcher run it) started once and kept: each piece of input ends with `\0`, and every stage
 * flushes its output and passes the `\0` on, so one `\0`-terminated piece of output comes back per
 * piece of input, in order. That skips what APy adds per request (HTTP and tornado, splitting the text
 * into 4 KB parts, a deformatter and a reformatter process per part), which cost more than the
 * translation itself on long texts.
 *
 * The pipe is a queue: several batches may be written before the first comes back, which keeps every
 * stage busy; each batch ends with a nonce (a superblank the stages pass through unchanged), so a
 * pipeline that ever lost or added a `\0` is noticed, stopped and started afresh rather than giving one
 * batch another's text. A pipeline that fails or stalls is stopped; the next batch starts another.
 */

export interface PipelineOptions {
  /** Where the pairs' mode files are (`/usr/share/apertium/modes`). */
  modesDir?: string;
  /** Pipelines per direction (each one process per stage; the machine's cores decide how many help). */
  perPair?: number;
  env?: NodeJS.ProcessEnv;
  /** The kernel's record of process groups (a killed server's leftovers end at the next start). */
  processes?: { add(pid: number): void; remove(pid: number): void };
}

export class PipelineError extends Error {
  override name = 'PipelineError';
}

interface Job {
  /** Pieces of output expected: the input's `\0`s, the nonce's included. */
  expect: number;
  chunks: Buffer[];
  nonce: string;
  resolve(chunks: Buffer[]): void;
  reject(err: Error): void;
}

let nonces = 0;

/** One running pipeline of one direction. */
export class NullFlushPipeline {
  private readonly jobs: Job[] = [];
  private partial: Buffer[] = [];
  private exited = false;
  private stderrTail = '';

  private constructor(
    private readonly child: ChildProcess,
    private readonly processes?: PipelineOptions['processes'],
  ) {
    child.stdout!.on('data', (data: Buffer) => this.read(data));
    child.stderr!.on('data', (data: Buffer) => (this.stderrTail = (this.stderrTail + data.toString('utf8')).slice(-500)));
    child.stdin!.on('error', () => {});
    child.once('exit', (code, signal) => {
      this.exited = true;
      if (child.pid) processes?.remove(child.pid);
      this.fail(new PipelineError(`Apertium pipeline ended (${signal ?? `code ${code}`}) ${this.stderrTail.trim()}`.trim()));
    });
    child.once('error', (err) => this.fail(new PipelineError(`Apertium pipeline could not start: ${err.message}`)));
  }

  /** Starts `command` (a shell pipeline) in a process group of its own; stdin's end ends every stage. */
  static start(command: string, options: Pick<PipelineOptions, 'env' | 'processes'> = {}): NullFlushPipeline {
    const child = spawn('/bin/sh', ['-c', command], {
      env: { ...(options.env ?? process.env), LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    try {
      if (child.pid) options.processes?.add(child.pid);
    } catch {
      // The record is a safety net: stdin closing with this server ends the pipeline anyway.
    }
    return new NullFlushPipeline(child, options.processes);
  }

  get running(): boolean {
    return !this.exited;
  }

  /** The process group's leader. */
  get pid(): number {
    return this.child.pid!;
  }

  /** Batches written and not yet answered. */
  get queued(): number {
    return this.jobs.length;
  }

  /**
   * Sends `pieces` (each ends with its own `\0`, added here) and resolves with one output per piece.
   * A piece may itself hold `\0`s (a Transfuse stream has one per block): `terminators` counts them all.
   */
  run(input: Buffer, terminators: number, timeoutMs: number): Promise<Buffer[]> {
    if (this.exited) return Promise.reject(new PipelineError('Apertium pipeline is not running'));
    const nonce = `[/LPNONCE:${process.pid}-${++nonces}]`;
    return new Promise<Buffer[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        // A stalled pipeline holds every batch behind this one: end it, they go elsewhere.
        this.fail(new PipelineError(`Apertium pipeline gave no answer in ${Math.round(timeoutMs / 1000)} s`));
        this.stop();
      }, timeoutMs);
      this.jobs.push({
        expect: terminators + 1,
        chunks: [],
        nonce,
        resolve: (chunks) => {
          clearTimeout(timer);
          resolve(chunks);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      });
      this.child.stdin!.write(Buffer.concat([input, Buffer.from(`${nonce}\0`)]));
    });
  }

  private read(data: Buffer): void {
    let start = 0;
    for (let zero = data.indexOf(0, start); zero !== -1; zero = data.indexOf(0, start)) {
      this.partial.push(data.subarray(start, zero));
      const chunk = Buffer.concat(this.partial);
      this.partial = [];
      start = zero + 1;
      const job = this.jobs[0];
      if (!job) {
        this.desync('output nobody asked for');
        return;
      }
      job.chunks.push(chunk);
      if (job.chunks.length < job.expect) continue;
      this.jobs.shift();
      if (chunk.toString('utf8').trim() !== job.nonce) {
        job.reject(new PipelineError('Apertium pipeline answered out of step'));
        this.desync('a batch came back with the wrong number of pieces');
        return;
      }
      job.resolve(job.chunks.slice(0, -1));
    }
    if (start < data.length) this.partial.push(data.subarray(start));
  }

  private desync(why: string): void {
    this.fail(new PipelineError(`Apertium pipeline out of step: ${why}`));
    this.stop();
  }

  private fail(err: Error): void {
    for (const job of this.jobs.splice(0)) job.reject(err);
  }

  /** Ends every stage (the whole process group). */
  stop(): void {
    this.exited = true;
    this.fail(new PipelineError('Apertium pipeline stopped'));
    try {
      process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** The pipeline command of a mode file (null when the pair cannot run null-flushed: APy keeps it). */
export async function pipelineCommand(modeFile: string, env?: NodeJS.ProcessEnv): Promise<string | null> {
  try {
    const { stdout } = await runTool('apertium-wblank-mode', ['-z', modeFile], { timeoutMs: 10_000, env });
    const mode = stdout.trim();
    // As the APy launcher runs it: the generator without marks (`-n`), no tagger options.
    return mode ? mode.replace(/\$1/g, '-n').replace(/\$2/g, '') : null;
  } catch {
    return null;
  }
}

/** Mode files of translation directions in `modesDir`, keyed `source|target` in platform codes. */
export function directionModes(modesDir: string): Map<string, string> {
  const out = new Map<string, string>();
  let names: string[] = [];
  try {
    names = readdirSync(modesDir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (!name.endsWith('.mode')) continue;
    const pair = fromApertiumMode(name.slice(0, -'.mode'.length));
    if (pair) out.set(`${pair.source}|${pair.target}`, join(modesDir, name));
  }
  return out;
}

/** The warm pipelines of one node, per direction, started on first use and stopped with the node. */
export class PipelinePool {
  private readonly pools = new Map<string, NullFlushPipeline[]>();
  private readonly commands = new Map<string, Promise<string | null>>();
  private modes: Map<string, string> | null = null;
  private stopped = false;
  private readonly modesDir: string;
  private readonly perPair: number;

  constructor(private readonly options: PipelineOptions = {}) {
    this.modesDir = options.modesDir ?? '/usr/share/apertium/modes';
    this.perPair = Math.max(1, Math.floor(options.perPair ?? 1));
  }

  private async command(direction: string): Promise<string | null> {
    let mode = (this.modes ??= directionModes(this.modesDir)).get(direction);
    // A language pack installed since: look again.
    if (!mode) mode = (this.modes = directionModes(this.modesDir)).get(direction);
    if (!mode) return null;
    let cmd = this.commands.get(direction);
    if (!cmd) {
      cmd = pipelineCommand(mode, this.options.env);
      this.commands.set(direction, cmd);
    }
    return cmd;
  }

  /** A running pipeline of `source|target` (the least busy; a new one while fewer than perPair run), or null. */
  async get(direction: string): Promise<NullFlushPipeline | null> {
    if (this.stopped) return null;
    const command = await this.command(direction);
    if (!command || this.stopped) return null;
    const pool = (this.pools.get(direction) ?? []).filter((p) => p.running);
    this.pools.set(direction, pool);
    const idle = pool.find((p) => p.queued === 0);
    if (idle) return idle;
    if (pool.length < this.perPair) {
      const started = NullFlushPipeline.start(command, this.options);
      pool.push(started);
      return started;
    }
    return pool.reduce((a, b) => (b.queued < a.queued ? b : a));
  }

  /** The pipelines running now, by direction. */
  running(): Array<{ direction: string; pid: number; queued: number }> {
    return [...this.pools].flatMap(([direction, pool]) => pool.filter((p) => p.running).map((p) => ({ direction, pid: p.pid, queued: p.queued })));
  }

  stop(): void {
    this.stopped = true;
    for (const pool of this.pools.values()) for (const p of pool) p.stop();
    this.pools.clear();
  }
}
