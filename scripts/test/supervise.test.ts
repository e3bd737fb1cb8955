import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm start`'s supervising parent, run as its command line over a small stand-in server that notes
// each start (its pid) in a file and then does what the test asks: wait, or exit with a code.

const SUPERVISE = join(import.meta.dirname, '..', 'lib', 'supervise.mjs');
const dir = mkdtempSync(join(tmpdir(), 'linguaport-supervise-'));
const CHILD = join(dir, 'child.mjs');
writeFileSync(
  CHILD,
  `import { appendFileSync } from 'node:fs';
appendFileSync(process.argv[2], process.pid + '\\n');
const code = process.argv[3];
if (code === 'wait') { setInterval(() => {}, 1000); process.on('SIGTERM', () => process.exit(0)); }
else process.exit(Number(code));
`,
);
const started: ChildProcess[] = [];
afterAll(() => {
  for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function run(name: string, behaviour: string, limits: string[]) {
  const pids = join(dir, `${name}.pids`);
  const proc = spawn(process.execPath, [SUPERVISE, ...limits, '--', process.execPath, CHILD, pids, behaviour], { stdio: ['ignore', 'ignore', 'pipe'] });
  started.push(proc);
  let stderr = '';
  proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return {
    proc,
    exited,
    stderr: () => stderr,
    pids: () => (existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n').filter(Boolean).map(Number) : []),
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the supervisor of npm start', { timeout: 30_000 }, () => {
  it('starts the server again after a SIGKILL, and SIGTERM stops both', async () => {
    const s = run('kill', 'wait', ['--first-delay', '50']);
    await expect.poll(() => s.pids().length, { timeout: 10_000, interval: 50 }).toBe(1);
    const [first] = s.pids();
    process.kill(first!, 'SIGKILL');
    await expect.poll(() => s.pids().length, { timeout: 10_000, interval: 50 }).toBe(2);
    const second = s.pids()[1]!;
    expect(second).not.toBe(first);
    expect(s.stderr()).toContain('was killed by SIGKILL; starting it again');
    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    await expect.poll(() => alive(second), { timeout: 5_000, interval: 50 }).toBe(false);
    expect(s.pids()).toHaveLength(2);
  });

  it('gives up with code 1 and a clear message when the server dies too often', async () => {
    const s = run('burst', '3', ['--first-delay', '20', '--burst', '4', '--window', '60000']);
    expect(await s.exited).toBe(1);
    expect(s.pids()).toHaveLength(4);
    expect(s.stderr()).toContain('exited with code 3. It died 4 times within 60 s, so it is not restarted again');
  });

  it('waits longer after each death', async () => {
    const s = run('backoff', '1', ['--first-delay', '100', '--burst', '4', '--window', '60000']);
    expect(await s.exited).toBe(1);
    expect(s.stderr()).toMatch(/in 0\.1 s[\s\S]*in 0\.2 s[\s\S]*in 0\.4 s/);
  });

  it('leaves a server that exited with code 0 stopped', async () => {
    const s = run('clean', '0', ['--first-delay', '20']);
    expect(await s.exited).toBe(0);
    expect(s.pids()).toHaveLength(1);
  });

  it('stops at once on SIGTERM while it waits to start the server again', async () => {
    const s = run('pause', '1', ['--first-delay', '20000']);
    await expect.poll(() => s.stderr(), { timeout: 10_000, interval: 50 }).toContain('starting it again in 20 s');
    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(s.pids()).toHaveLength(1);
  });
});
