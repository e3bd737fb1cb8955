#!/usr/bin/env node
// `npm start`: set-up (skipping what is done), then the server in the foreground.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { ROOT, setup, ensureDataDir, SetupError } from './setup.mjs';

try {
  const { unavailable } = setup({ packages: ['runtime'] });
  const dataDir = resolve(ROOT, process.env.DATA_DIR ?? 'data');
  ensureDataDir(dataDir);
  const env = { ...process.env, DATA_DIR: dataDir };
  if (unavailable.length) env.LINGUAPORT_UNAVAILABLE = unavailable.join(';');
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'core/server/src/main.ts')], {
    cwd: ROOT,
    env,
    stdio: 'inherit',
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
} catch (err) {
  process.stderr.write(`${err instanceof SetupError ? '' : 'unexpected: '}${err.message}\n`);
  process.exit(1);
}
