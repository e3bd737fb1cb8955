import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { writeFileAtomic } from './files.mjs';
import { integrityOf } from './integrity.mjs';

/**
 * Incremental builds: each target (the host, each plugin) records a hash of its inputs and the
 * files it wrote in `<out>/.build-state.json`. A target is skipped when its inputs hash the same
 * and its outputs are still there, unaltered.
 */

export const STATE_VERSION = 1;

/**
 * Hash file paths (relative to `rootDir`, so the same tree elsewhere hashes the same) and contents,
 * plus free-form `salt` strings (build options). A missing file hashes as missing, not as an error:
 * an input that disappeared is a change.
 */
export function hashInputs(files, { rootDir, salt = [] } = {}) {
  const h = createHash('sha256');
  for (const s of salt) h.update(`salt\0${s}\0`);
  for (const file of [...new Set(files)].sort()) {
    h.update(`file\0${rootDir ? relative(rootDir, file) : file}\0`);
    try {
      h.update(readFileSync(file));
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
      h.update('\0missing\0');
    }
    h.update('\0');
  }
  return h.digest('hex');
}

export function readState(outDir) {
  try {
    const state = JSON.parse(readFileSync(join(outDir, '.build-state.json'), 'utf8'));
    return state.version === STATE_VERSION && state.targets ? state : { version: STATE_VERSION, targets: {} };
  } catch {
    return { version: STATE_VERSION, targets: {} };
  }
}

export function writeState(outDir, state) {
  writeFileAtomic(join(outDir, '.build-state.json'), `${JSON.stringify(state, null, 1)}\n`);
}

/**
 * True when `record` (a target's entry in the state) was made from inputs hashing to `hash` and
 * every output it lists still exists under `outDir` (with its integrity, when one was recorded).
 */
export function isUpToDate(record, hash, outDir) {
  if (!record || record.hash !== hash || !Array.isArray(record.outputs)) return false;
  return record.outputs.every((o) => {
    const file = join(outDir, o.file);
    if (!existsSync(file)) return false;
    return !o.integrity || integrityOf(readFileSync(file)) === o.integrity;
  });
}
