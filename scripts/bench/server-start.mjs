#!/usr/bin/env node
// Figures for the server's start (printed, never pass/fail): time from spawning Node to the first
// answer of /api/health, the compiled server (dist/server/main.js, what `npm start` runs) against
// its TypeScript through tsx (`npm start -- --dev`, the tests). Both start in turn on one data
// directory that a first start has set up, so they do the same work and share the machine's load.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = resolve(ROOT, process.env.DIST_DIR || 'dist');
const ROUNDS = 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const freePort = () =>
  new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });

async function timeStart(args, dataDir) {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, DIST_DIR: DIST, LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return performance.now() - t0;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error(`${args.join(' ')}: no answer from /api/health within 120 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

const compiled = join(DIST, 'server', 'main.js');
if (!existsSync(compiled)) throw new Error(`${compiled} does not exist: run npm run build`);
const modes = { compiled: [compiled], tsx: ['--import', 'tsx', join(ROOT, 'core', 'server', 'src', 'main.ts')] };
mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const dataDir = mkdtempSync(join(ROOT, '.tmp', 'bench-start-'));
try {
  console.log(`first start on an empty data directory (compiled): ${(await timeStart(modes.compiled, dataDir)).toFixed(0)} ms`);
  const times = { compiled: [], tsx: [] };
  for (let i = 0; i < ROUNDS; i++) for (const [mode, args] of Object.entries(modes)) times[mode].push(await timeStart(args, dataDir));
  for (const [mode, xs] of Object.entries(times)) {
    console.log(`start to /api/health, ${mode}: median ${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`);
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
