#!/usr/bin/env node
// `npm run bench`: runs every benchmark under scripts/bench/ (and plugins/*/bench/) in turn and
// prints their figures. Benchmarks measure and print; they are not pass/fail tests.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, setup } from './setup.mjs';

setup({ packages: ['runtime', 'test'] });
const only = process.argv.slice(2);
const dirs = [join(ROOT, 'scripts', 'bench')];
for (const p of existsSync(join(ROOT, 'plugins')) ? readdirSync(join(ROOT, 'plugins')) : []) {
  if (existsSync(join(ROOT, 'plugins', p, 'bench'))) dirs.push(join(ROOT, 'plugins', p, 'bench'));
}
let failed = 0;
for (const dir of dirs) {
  for (const file of readdirSync(dir).filter((f) => /\.(mjs|ts)$/.test(f)).sort()) {
    if (only.length && !only.some((o) => file.includes(o))) continue;
    process.stdout.write(`\n== ${file.replace(/\.(mjs|ts)$/, '')} ==\n`);
    const args = file.endsWith('.ts') ? ['--import', 'tsx', join(dir, file)] : [join(dir, file)];
    const res = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
    if (res.status !== 0) {
      failed++;
      process.stdout.write(`(${file} exited with ${res.status})\n`);
    }
  }
}
process.exit(failed ? 1 : 0);
