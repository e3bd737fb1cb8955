import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepUploads } from '../src/http/upload-sweep.js';
import { startKernel, type TestKernel } from './support/kernel.js';

// A server killed in the middle of an upload leaves its temporary file in DATA_DIR/tmp/uploads; the
// next start removes what is there, and nothing outside that folder.

let k: TestKernel | null = null;
const outside = mkdtempSync(join(tmpdir(), 'linguaport-sweep-outside-'));
afterAll(async () => {
  await k?.shutdown();
  rmSync(outside, { recursive: true, force: true });
});

describe('temporary uploads left by a crash', () => {
  it('are removed when the server starts; what links point at is kept', async () => {
    const keep = join(outside, 'keep.txt');
    writeFileSync(keep, 'not the server’s');
    let uploads = '';
    k = await startKernel({}, {}, (config) => {
      uploads = join(config.dataDir, 'tmp', 'uploads');
      mkdirSync(join(uploads, 'b6a1-request'), { recursive: true });
      writeFileSync(join(uploads, '3f2a.upload'), 'half an upload');
      writeFileSync(join(uploads, 'b6a1-request', 'file.upload'), 'another');
      symlinkSync(outside, join(uploads, 'link-to-dir'));
      symlinkSync(keep, join(uploads, 'link-to-file'));
    });
    expect(readdirSync(uploads)).toEqual([]);
    expect(existsSync(keep)).toBe(true);
  });

  it('leaves a folder alone when the data directory holds a link in its place', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'linguaport-sweep-data-'));
    try {
      writeFileSync(join(outside, 'other.txt'), 'someone else’s');
      mkdirSync(join(dataDir, 'tmp'));
      symlinkSync(outside, join(dataDir, 'tmp', 'uploads'));
      expect(sweepUploads(join(dataDir, 'tmp', 'uploads'))).toBe(0);
      expect(existsSync(join(outside, 'other.txt'))).toBe(true);
      expect(sweepUploads(join(dataDir, 'missing', 'uploads'))).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
