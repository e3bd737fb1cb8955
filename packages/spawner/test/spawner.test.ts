import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Tools are started by a small helper process (a fork from a large server blocks it for tens of ms).
// The helper must never keep a finished server alive, and must not leave tools running when the
// server is killed.

const fixture = join(import.meta.dirname, 'fixtures', 'run-tools.ts');
const sleeping = () => execFileSync('ps', ['-eo', 'args']).toString().split('\n').filter((l) => l.trim() === 'sleep 59.5');

function run(mode: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

describe('the spawner helper', () => {
  it('does not keep a process alive once its tools are done', async () => {
    const { output, exited } = run('once');
    expect(await exited).toBe(0);
    expect(output()).toBe('started\n');
  }, 30_000);

  it('kills the tools it was running when the process that asked for them is killed', async () => {
    expect(sleeping()).toEqual([]);
    const { child, output, exited } = run('hang');
    await expect.poll(output, { timeout: 20_000 }).toBe('started\n');
    await expect.poll(() => sleeping().length, { timeout: 10_000 }).toBe(1);
    child.kill('SIGKILL');
    await exited;
    await expect.poll(() => sleeping().length, { timeout: 10_000 }).toBe(0);
  }, 60_000);
});
