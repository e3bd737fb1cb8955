#!/usr/bin/env node
// Builds the host console, the server (dist/server, see lib/server.mjs) and every plugin of the deployment set into <out> (default dist/):
//   node scripts/build.mjs [--out <dir>] [--registry <file>] [--plugins-only (no host, no server)] [--mode <mode>] [--watch [<id>...]]
// Unchanged targets are skipped (<out>/.build-state.json). On failure: one line on stderr, exit 1.
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBuildArgs } from './lib/args.mjs';
import { runBuild } from './lib/run.mjs';
import { watch } from './lib/watch.mjs';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  const t0 = performance.now();
  const opts = parseBuildArgs(process.argv.slice(2), process.env);
  const outDir = resolve(opts.out);
  const { ctx, summary } = await runBuild({
    rootDir,
    outDir,
    registryFile: resolve(opts.registry),
    mode: opts.mode,
    pluginsOnly: opts.pluginsOnly,
    hostEntry: opts.hostEntry,
  });
  const list = (xs) => (xs.length ? ` (${xs.join(', ')})` : '');
  console.log(
    `build: ${summary.built.length} built${list(summary.built)}, ${summary.skipped.length} up to date${list(summary.skipped)} ` +
      `in ${Math.round(performance.now() - t0)} ms -> ${relative(process.cwd(), outDir) || '.'}`,
  );
  if (opts.watch) {
    const stop = await watch(ctx, opts.watch, { hostEntry: opts.hostEntry });
    const quit = async () => {
      await stop();
      process.exit(0);
    };
    process.on('SIGINT', quit);
    process.on('SIGTERM', quit);
  }
}

main().catch((err) => {
  const message = err?.name === 'BuildError' ? err.message : (err?.stack ?? String(err)).split('\n')[0];
  process.stderr.write(`build failed: ${message}\n`);
  process.exit(1);
});
