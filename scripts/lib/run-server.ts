import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  /** The server's pid: `process`'s own, or under a supervisor its child's (null between a death and the restart). */
  serverPid(): number | null;
  stop(): Promise<void>;
}

/** The children of a process (Linux: /proc/<pid>/task/<pid>/children). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Starts the real server on a free loopback port and waits for /api/health: its TypeScript
 * (`core/server/src/main.ts`, through tsx), or with `main` the compiled server (`dist/server/main.js`).
 * With `supervised`, under `npm start`'s supervising parent (scripts/lib/supervise.mjs, these options
 * before its `--`): `process` is then the supervisor, and `serverPid()` the server's own pid.
 */
export async function startServer(env: Record<string, string>, { main, supervised }: { main?: string; supervised?: string[] } = {}): Promise<RunningServer> {
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const ownDataDir = !env.DATA_DIR;
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(ROOT, '.tmp', 'data-'));
  // The port is free when chosen but the server binds it seconds later: on a busy machine another
  // process (a test's APy, a browser) may take it meanwhile. Then the server says so and exits; try another.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const serverArgs = main ? [main] : ['--import', 'tsx', join(ROOT, 'core/server/src/main.ts')];
    const args = supervised ? [join(ROOT, 'scripts', 'lib', 'supervise.mjs'), ...supervised, '--', process.execPath, ...serverArgs] : serverArgs;
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let stderrTail = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-2000);
    });
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    let exited: number | null = null;
    child.once('exit', (code) => (exited = code ?? 1));
    let ready = false;
    while (!ready) {
      if (exited !== null) break;
      try {
        const res = await fetch(`${url}/api/health`);
        if (res.ok) ready = true;
      } catch {
        /* not listening yet */
      }
      if (ready) break;
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error('server did not answer /api/health within 60 s');
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    if (!ready) {
      if (/is already in use/.test(stderrTail) && attempt < 3) continue;
      throw new Error(`server exited with code ${exited} before it was ready`);
    }
    return running(url, dataDir, ownDataDir, child, !!supervised);
  }
}

function running(url: string, dataDir: string, ownDataDir: boolean, child: ChildProcess, supervised: boolean): RunningServer {
  return {
    url,
    dataDir,
    process: child,
    serverPid: () => (supervised ? (childrenOf(child.pid!)[0] ?? null) : (child.pid ?? null)),
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
