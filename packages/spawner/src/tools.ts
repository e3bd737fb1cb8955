import { spawn } from 'node:child_process';
import { unnamedMediaInput } from './media-inputs.js';
import { killGroup, spawnTool, type SpawnedTool, type SpawnResult } from './spawner.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Command-line tools (poppler, tesseract, ffmpeg, pocketsphinx), run the way the SDK runs LibreOffice: each in its own
 * process group, killed at its deadline or when the caller aborts, in a scratch folder that is removed
 * afterwards whatever happened.
 */

export class ToolError extends Error {
  constructor(
    message: string,
    /** The tool's own last words (stderr), for the message a caller builds. */
    readonly detail: string,
    readonly exitCode: number | null,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export interface RunOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Written to the tool's standard input, which is then closed (no input: stdin is /dev/null). */
  input?: string | Buffer;
}

export function runTool(command: string, args: string[], options: RunOptions): Promise<{ stdout: string; stderr: string }> {
  if (options.signal?.aborted) return Promise.reject(options.signal.reason ?? new Error('aborted'));
  // ffmpeg and ffprobe left to guess a format follow playlists to other files (see media-inputs.ts).
  const unnamed = unnamedMediaInput(command, args);
  if (unnamed) return Promise.reject(new ToolError(unnamed, unnamed, null));
  // Started by the spawner helper (see spawner.ts): a fork from a large server blocks it for tens of ms.
  const input = options.input === undefined ? undefined : Buffer.isBuffer(options.input) ? options.input : Buffer.from(options.input);
  const tool = spawnTool({ command, args, cwd: options.cwd, env: options.env, input });
  return settle(command, tool, options.timeoutMs, options.signal);
}

/**
 * Waits for a started tool: kills it at `timeoutMs` or when `signal` aborts, and answers its output,
 * or a ToolError (could not start, too long, non-zero exit) with its last words.
 */
async function settle(command: string, tool: SpawnedTool, timeoutMs: number, signal?: AbortSignal): Promise<{ stdout: string; stderr: string }> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    tool.kill();
  }, timeoutMs);
  const onAbort = () => tool.kill();
  signal?.addEventListener('abort', onAbort, { once: true });
  const result = await tool.done;
  clearTimeout(timer);
  signal?.removeEventListener('abort', onAbort);
  // Chunks joined once at the end: pdftotext's layout of a long book is tens of megabytes.
  const stdout = result.stdout.toString('utf8');
  const stderr = result.stderr.toString('utf8');
  const detail = (stderr || stdout).trim().split('\n').slice(-2).join(' ').slice(0, 300);
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
  if (result.error) throw new ToolError(`${command} could not start: ${result.error}`, result.error, null);
  if (timedOut) throw new ToolError(`${command} took longer than ${Math.round(timeoutMs / 1000)} s`, detail, null);
  if (result.code === 0) return { stdout, stderr };
  throw new ToolError(`${command} ended with ${result.signal ?? `code ${result.code}`}: ${detail}`, detail, result.code);
}

/** A tool already started, waiting for its input: see `startWarmTool`. */
export interface WarmTool {
  /** False once it has exited (or been stopped) without being used. */
  readonly ready: boolean;
  /** Writes `input` to the tool's standard input, closes it, and answers like `runTool`. Once only. */
  run(input: Uint8Array, options: { timeoutMs: number; signal?: AbortSignal }): Promise<{ stdout: string; stderr: string }>;
  /** Stops it if it has not been used. */
  stop(): void;
}

/**
 * Starts a tool before its input is known, so what it does first (loading a model, say) overlaps the
 * wait for the input. Until `run`, it holds no reference on this process (an idle spare never keeps
 * it alive, and if this process ends the tool's input closes and it exits) and stops itself after
 * `idleMs`. The input reaches it through a pipe (`cat`), so the tool can open it by path as
 * `/dev/stdin`, which a socket (what Node gives a child as its standard input) does not allow.
 */
export function startWarmTool(command: string, args: string[], options: { idleMs: number; cwd?: string; env?: NodeJS.ProcessEnv }): WarmTool {
  const unnamed = unnamedMediaInput(command, args);
  if (unnamed) throw new ToolError(unnamed, unnamed, null);
  const child = spawn('sh', ['-c', 'cat | exec "$0" "$@"', command, ...args], { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout!.on('data', (d: Buffer) => out.push(d));
  child.stderr!.on('data', (d: Buffer) => err.push(d));
  child.stdin!.on('error', () => {});
  let used = false;
  let exited = false;
  let error: string | undefined;
  child.on('error', (e) => {
    exited = true;
    error ??= e.message;
  });
  const done = new Promise<SpawnResult>((resolve) => {
    child.on('close', (code, signal) => {
      exited = true;
      resolve({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err), ...(error ? { error } : {}) });
    });
  });
  const handles = [child, child.stdin, child.stdout, child.stderr] as Array<{ ref?(): void; unref?(): void } | null>;
  for (const h of handles) h?.unref?.();
  const kill = () => killGroup(child);
  const idle = setTimeout(() => !used && kill(), options.idleMs);
  idle.unref();

  return {
    get ready() {
      return !used && !exited;
    },
    stop() {
      if (used) return;
      used = true;
      clearTimeout(idle);
      kill();
    },
    async run(input, { timeoutMs, signal }) {
      if (used) throw new Error(`${command}: a started tool runs once`);
      used = true;
      clearTimeout(idle);
      for (const h of handles) h?.ref?.();
      if (signal?.aborted) {
        kill();
        throw signal.reason ?? new Error('aborted');
      }
      const settled = settle(command, { done, kill }, timeoutMs, signal);
      child.stdin!.end(input);
      return settled;
    },
  };
}

/** Runs `fn` in a fresh scratch folder, removed afterwards. */
export async function inScratch<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'linguaport-tool-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `fn` over `items` with at most `limit` running at once, results in the items' order. */
export async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
