#!/usr/bin/env node
// `npm start`: set-up (skipping what is done, the build included), then the compiled server
// (dist/server/main.js) in the foreground. `npm start -- --dev` runs the server's TypeScript
// through tsx instead, for working on it without a server build.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { ROOT, setup, ensureDataDir, SetupError } from './setup.mjs';

try {
  const dev = process.argv.slice(2).includes('--dev');
  const { unavailable } = setup({ packages: ['runtime'] });
  const dataDir = resolve(ROOT, process.env.DATA_DIR ?? 'data');
  ensureDataDir(dataDir);
  const env = { ...process.env, DATA_DIR: dataDir };
  if (unavailable.length) env.LINGUAPORT_UNAVAILABLE = unavailable.join(';');
  const args = dev
    ? ['--import', 'tsx', join(ROOT, 'core/server/src/main.ts')]
    : [join(resolve(ROOT, process.env.DIST_DIR || 'dist'), 'server', 'main.js')];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
} catch (err) {
  process.stderr.write(`${err instanceof SetupError ? '' : 'unexpected: '}${err.message}\n`);
  process.exit(1);
}
