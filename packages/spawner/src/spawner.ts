import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Starting a process from a large server is slow: the fork copies the parent's page tables, so a
 * server holding an embedded database's memory pays 20-25 ms of its main thread a spawn (a small
 * process pays about 2 ms). Tools are therefore started by a small helper process, once per server,
 * which spawns on the server's behalf and passes input and output over its IPC channel. The helper
 * ends with the server (its channel closes) and kills what it started then; if it cannot run, tools
 * are spawned directly.
 */

export interface SpawnRequest {
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: Buffer;
}

export interface SpawnResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
  /** Set when the command could not be started. */
  error?: string;
}

export interface SpawnedTool {
  done: Promise<SpawnResult>;
  /** Kills the tool's whole process group. */
  kill(): void;
}

/** The helper's program, run by `node -e`: nothing to resolve on disk, in development or a build. */
const HELPER = `
const { spawn } = require('node:child_process');
const running = new Map();
const killGroup = (child) => { try { process.kill(-child.pid, 'SIGKILL'); } catch { try { child.kill('SIGKILL'); } catch {} } };
process.on('message', (m) => {
  if (m.kill !== undefined) { const c = running.get(m.kill); if (c) killGroup(c); return; }
  let child;
  try {
    child = spawn(m.command, m.args, { cwd: m.cwd, env: m.env || process.env, stdio: [m.input ? 'pipe' : 'ignore', 'pipe', 'pipe'], detached: true });
  } catch (e) { process.send({ id: m.id, code: null, signal: null, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), error: e.message }); return; }
  running.set(m.id, child);
  const out = [], err = [];
  let error;
  child.stdout.on('data', (d) => out.push(d));
  child.stderr.on('data', (d) => err.push(d));
  if (m.input) child.stdin.on('error', () => {}).end(Buffer.from(m.input));
  child.on('error', (e) => { error = e.message; });
  child.on('close', (code, signal) => {
    running.delete(m.id);
    process.send({ id: m.id, code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err), error });
  });
});
process.on('disconnect', () => { for (const c of running.values()) killGroup(c); process.exit(0); });
`;

interface Pending {
  resolve(result: SpawnResult): void;
}

let helper: ChildProcess | null = null;
let broken = false;
let nextId = 1;
const pending = new Map<number, Pending>();

function setRef() {
  const channel = (helper as unknown as { channel?: { ref(): void; unref(): void } } | null)?.channel;
  if (!helper || !channel) return;
  // Idle, the helper never keeps the server alive; with tools running it does, as direct children would.
  if (pending.size) {
    helper.ref();
    channel.ref();
  } else {
    helper.unref();
    channel.unref();
  }
}

function startHelper(): ChildProcess | null {
  if (helper || broken) return helper;
  try {
    const child = spawn(process.execPath, ['-e', HELPER], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'advanced', env: process.env });
    child.on('message', (m: SpawnResult & { id: number }) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      setRef();
      p.resolve({ code: m.code, signal: m.signal, stdout: Buffer.from(m.stdout), stderr: Buffer.from(m.stderr), ...(m.error ? { error: m.error } : {}) });
    });
    const gone = () => {
      if (helper !== child) return;
      helper = null;
      // Tools it was running are lost with it: their callers hear so, and the next ones start a new helper.
      for (const [id, p] of pending) {
        pending.delete(id);
        p.resolve({ code: null, signal: 'SIGKILL', stdout: Buffer.alloc(0), stderr: Buffer.from('the process that started the tool ended'), error: undefined });
      }
    };
    child.on('exit', gone);
    child.on('error', () => {
      broken = true;
      gone();
    });
    helper = child;
    setRef();
    return child;
  } catch {
    broken = true;
    return null;
  }
}

/** Starts `command` through the helper (or directly when the helper cannot run). */
export function spawnTool(request: SpawnRequest): SpawnedTool {
  const via = startHelper();
  if (!via?.connected) return spawnDirect(request);
  const id = nextId++;
  const done = new Promise<SpawnResult>((resolve) => pending.set(id, { resolve }));
  setRef();
  via.send({ id, command: request.command, args: request.args, cwd: request.cwd, env: request.env, input: request.input });
  return {
    done,
    kill: () => {
      if (helper?.connected && pending.has(id)) helper.send({ kill: id });
    },
  };
}

/** The same, from this process. */
export function spawnDirect(request: SpawnRequest): SpawnedTool {
  let child: ChildProcess;
  try {
    child = spawn(request.command, request.args, { cwd: request.cwd, env: request.env ?? process.env, stdio: [request.input ? 'pipe' : 'ignore', 'pipe', 'pipe'], detached: true });
  } catch (e) {
    return { done: Promise.resolve({ code: null, signal: null, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), error: (e as Error).message }), kill: () => {} };
  }
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let error: string | undefined;
  child.stdout!.on('data', (d: Buffer) => out.push(d));
  child.stderr!.on('data', (d: Buffer) => err.push(d));
  if (request.input) child.stdin!.on('error', () => {}).end(request.input);
  child.on('error', (e) => (error = e.message));
  const done = new Promise<SpawnResult>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err), ...(error ? { error } : {}) }));
  });
  return { done, kill: () => killGroup(child) };
}

/** Kills a tool started `detached` (its own process group), with whatever it started. */
export function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}
