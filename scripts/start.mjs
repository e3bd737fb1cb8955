#!/usr/bin/env node
// `npm start`: set-up (skipping what is done, the build included), then the compiled server
// (dist/server/main.js) in the foreground, started again if it dies. `npm start -- --dev` runs the server's TypeScript
// through tsx instead, for working on it without a server build.
import { join, resolve } from 'node:path';
import { ROOT, setup, ensureDataDir, SetupError } from './setup.mjs';
import { supervise } from './lib/supervise.mjs';

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
  // Under a supervising parent: a server that dies is started again, with a growing pause and a limit
  // (scripts/lib/supervise.mjs); SIGINT/SIGTERM stop both.
  supervise(process.execPath, args, { cwd: ROOT, env }).then((code) => process.exit(code));
} catch (err) {
  process.stderr.write(`${err instanceof SetupError ? '' : 'unexpected: '}${err.message}\n`);
  process.exit(1);
}
