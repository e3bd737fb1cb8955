import { mkdirSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM build code without type declarations
import { hashInputs, isUpToDate, readState, writeState } from '../lib/state.mjs';
// @ts-expect-error: plain ESM build code without type declarations
import { integrityOf } from '../lib/integrity.mjs';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lp-state-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function tree(root: string, files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return Object.keys(files).map((n) => join(root, n));
}

describe('hashInputs', () => {
  it('hashes the same tree in two places the same when paths are taken relative to each root', () => {
    const a = tree(join(dir, 'a'), { 'plugin.json': '{}', 'console/index.tsx': 'x' });
    const b = tree(join(dir, 'b'), { 'plugin.json': '{}', 'console/index.tsx': 'x' });
    expect(hashInputs(a, { rootDir: join(dir, 'a') })).toBe(hashInputs(b, { rootDir: join(dir, 'b') }));
  });

  it('ignores the order files are listed in', () => {
    const files = tree(dir, { a: '1', b: '2' });
    expect(hashInputs(files, { rootDir: dir })).toBe(hashInputs([...files].reverse(), { rootDir: dir }));
  });

  it('changes when a content, a file name or the salt changes', () => {
    const files = tree(dir, { 'src/a.ts': 'one' });
    const before = hashInputs(files, { rootDir: dir, salt: ['mode production'] });
    expect(hashInputs(files, { rootDir: dir, salt: ['mode development'] })).not.toBe(before);
    writeFileSync(files[0], 'two');
    expect(hashInputs(files, { rootDir: dir, salt: ['mode production'] })).not.toBe(before);
    const renamed = tree(dir, { 'src/b.ts': 'one' });
    expect(hashInputs(renamed, { rootDir: dir, salt: ['mode production'] })).not.toBe(before);
  });

  it('treats a missing input as a change, not an error', () => {
    const [present] = tree(dir, { a: '1' });
    const withMissing = hashInputs([present, join(dir, 'gone.ts')], { rootDir: dir });
    expect(withMissing).not.toBe(hashInputs([present], { rootDir: dir }));
  });
});

describe('isUpToDate', () => {
  it('is true only for the same hash with every output present and unaltered', () => {
    tree(dir, { 'plugins/a/a-1.js': 'code', 'console/index.html': '<html>' });
    const record = {
      hash: 'h1',
      outputs: [{ file: 'plugins/a/a-1.js', integrity: integrityOf('code') }, { file: 'console/index.html' }],
    };
    expect(isUpToDate(record, 'h1', dir)).toBe(true);
    expect(isUpToDate(record, 'h2', dir)).toBe(false);
    expect(isUpToDate(undefined, 'h1', dir)).toBe(false);

    appendFileSync(join(dir, 'plugins/a/a-1.js'), '// altered');
    expect(isUpToDate(record, 'h1', dir)).toBe(false);
    writeFileSync(join(dir, 'plugins/a/a-1.js'), 'code');
    rmSync(join(dir, 'console/index.html'));
    expect(isUpToDate(record, 'h1', dir)).toBe(false);
  });
});

describe('build state file', () => {
  it('round-trips, and an unreadable file reads as an empty state', () => {
    expect(readState(dir)).toEqual({ version: 1, targets: {} });
    writeState(dir, { version: 1, targets: { host: { hash: 'x', outputs: [] } } });
    expect(readState(dir).targets.host.hash).toBe('x');
    writeFileSync(join(dir, '.build-state.json'), '{ broken');
    expect(readState(dir)).toEqual({ version: 1, targets: {} });
  });
});
