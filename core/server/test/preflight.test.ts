import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureWritableDir, probePort } from '../src/preflight.js';

describe('start-up preflight', () => {
  it('creates a missing nested data directory', () => {
    const root = mkdtempSync(join(tmpdir(), 'lp-pre-'));
    const dir = join(root, 'a', 'b', 'c');
    ensureWritableDir(dir);
    expect(existsSync(dir)).toBe(true);
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses a data directory below a file, naming it', () => {
    const root = mkdtempSync(join(tmpdir(), 'lp-pre-'));
    writeFileSync(join(root, 'file'), 'x');
    expect(() => ensureWritableDir(join(root, 'file', 'data'))).toThrow(/data directory .*file\/data is not writable: ENOTDIR/);
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses a data directory under /proc without hanging', () => {
    expect(() => ensureWritableDir('/proc/linguaport-data')).toThrow(/is not writable/);
  });

  it('reports a port already in use', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const { port } = busy.address() as { port: number };
    await expect(probePort(port, '127.0.0.1')).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await new Promise<void>((r) => busy.close(() => r()));
    await expect(probePort(port, '127.0.0.1')).resolves.toBeUndefined();
  });
});
