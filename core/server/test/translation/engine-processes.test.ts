// Database: none
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { probePort } from '../../src/preflight.js';
import { EngineProcessRegistry, processGroupMembers } from '../../src/translation/engine-processes.js';
import { requireTool } from '@linguaport/sdk/testing';

// Engine processes die with the server that started them: the launcher watches its parent, and
// the next start ends any group a killed server left recorded in DATA_DIR.
const installed = requireTool('apertium-apy', { files: ['/usr/share/apertium/modes/eng-spa.mode'], debian: 'apertium-apy apertium-eng-spa' });
const OWNER = fileURLToPath(new URL('../support/apy-owner.ts', import.meta.url));

const portFree = (port: number) => probePort(port, '127.0.0.1').then(() => true, () => false);

/** A process group of `sleep`s (leader and one member), as a leftover engine tree would be. */
function leftoverGroup(): number {
  const child = spawn('/bin/sh', ['-c', 'sleep 300 & sleep 300; wait'], { detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid!;
}

describe('engine processes and the server that started them', () => {
  it.skipIf(!installed)('ends the whole APy tree and frees its port when the server is killed with SIGKILL', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lp-owner-'));
    const owner = spawn(process.execPath, ['--import', 'tsx', OWNER, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: owner.stdout! }).once('line', resolve);
        owner.once('exit', (code) => reject(new Error(`owner exited with ${code}`)));
      });
      const { pid, port } = JSON.parse(line) as { pid: number; port: number };
      // A first request starts a pair's pipeline: APy leads a group of the launcher and its pipelines.
      const body = new URLSearchParams({ langpair: 'eng|spa', q: 'The red car.' });
      expect((await fetch(`http://127.0.0.1:${port}/translate`, { method: 'POST', body })).status).toBe(200);
      expect(processGroupMembers(pid).length).toBeGreaterThan(5);
      expect(await portFree(port)).toBe(false);
      expect(JSON.parse(readFileSync(join(dataDir, 'engine-processes.json'), 'utf8'))).toEqual([{ pid, startTicks: expect.any(String) }]);

      owner.kill('SIGKILL');
      await expect.poll(() => processGroupMembers(pid), { timeout: 15_000 }).toEqual([]);
      await expect.poll(() => portFree(port), { timeout: 15_000 }).toBe(true);
    } finally {
      owner.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('ends a recorded group left by a previous run at the next start, and spares a pid now used by another program', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lp-left-'));
    const left = leftoverGroup();
    const stranger = leftoverGroup();
    try {
      await expect.poll(() => processGroupMembers(left).length).toBe(3);
      new EngineProcessRegistry(dataDir).add(left);
      // The stranger's pid, recorded with another start time: a reused pid, not ours.
      const file = join(dataDir, 'engine-processes.json');
      writeFileSync(file, JSON.stringify([...JSON.parse(readFileSync(file, 'utf8')), { pid: stranger, startTicks: '1' }]));

      expect(new EngineProcessRegistry(dataDir).endLeftovers()).toEqual([left]);
      await expect.poll(() => processGroupMembers(left), { timeout: 10_000 }).toEqual([]);
      expect(processGroupMembers(stranger).length).toBeGreaterThan(0);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual([]);
    } finally {
      for (const g of [left, stranger]) {
        try {
          process.kill(-g, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
