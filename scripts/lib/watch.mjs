import { watch as fsWatch } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import * as esbuild from 'esbuild';
import { BuildError } from './errors.mjs';
import { finishHost, hostBuildOptions, HOST_ENTRY } from './host.mjs';
import { NOT_CONSOLE_INPUTS, loadPlugin, pluginBuildOptions, prunePlugin, toSystemRegister } from './plugin.mjs';
import { buildPlugin, writeRegistry } from './run.mjs';
import { writeState } from './state.mjs';

/**
 * Watch mode after a first build: one esbuild context per watched plugin (incremental rebuilds),
 * triggered by any change in the plugin's folder (sources, manifest, locales). Each rebuild
 * republishes that plugin and atomically rewrites the registry. Without ids, every plugin of the
 * set and the host are watched.
 */
export async function watch(ctx, ids, { log = console.log, hostEntry = HOST_ENTRY, debounceMs = 30 } = {}) {
  const targets = ids.length ? ids : ctx.plugins.map((p) => p.id);
  for (const id of targets) {
    if (!ctx.plugins.some((p) => p.id === id)) throw new BuildError(`--watch: plugin ${id} is not in ${ctx.registryFile}`);
  }
  const closers = [];
  for (const id of targets) closers.push(await watchPlugin(ctx, id, { log, debounceMs }));
  if (!ids.length) closers.push(await watchHost(ctx, { log, hostEntry, debounceMs }));
  log(`watching ${targets.join(', ')}${ids.length ? '' : ' and the host'}`);
  return async () => {
    for (const close of closers) await close();
  };
}

/** Coalesce bursts of file events into one run; a change during a run queues exactly one more. */
function serialRunner(run, debounceMs) {
  let timer = null;
  let running = false;
  let again = false;
  const go = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await run();
    } finally {
      running = false;
      if (again) {
        again = false;
        schedule();
      }
    }
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(go, debounceMs);
  };
  return { schedule, cancel: () => clearTimeout(timer) };
}

async function watchPlugin(ctx, id, { log, debounceMs }) {
  let plugin = ctx.plugins.find((p) => p.id === id);
  let context = await esbuild.context(pluginBuildOptions(plugin, ctx));
  let entryFile = plugin.entryFile;
  // Warm up (esbuild's incremental graph, Babel's module load) so the first change is fast too.
  await context.rebuild().catch(() => {});
  await toSystemRegister('export {}', 'warm-up.js');

  const runner = serialRunner(async () => {
    const t0 = performance.now();
    try {
      const fresh = loadPlugin({ id: plugin.id, dir: plugin.dir, enabled: plugin.enabled }, ctx.sdk, ctx.rootDir);
      if (fresh.entryFile !== entryFile) {
        await context.dispose();
        context = await esbuild.context(pluginBuildOptions(fresh, ctx));
        entryFile = fresh.entryFile;
      }
      await buildPlugin(ctx, fresh, context);
      ctx.plugins[ctx.plugins.findIndex((p) => p.id === id)] = fresh;
      plugin = fresh;
      writeRegistry(ctx);
      prunePlugin(ctx.outDir, id, ctx.state.targets[`plugin:${id}`].outputs);
      writeState(ctx.outDir, ctx.state);
      log(`rebuilt ${id} in ${Math.round(performance.now() - t0)} ms`);
    } catch (err) {
      log(`rebuild of ${id} failed: ${err.message}`);
    }
  }, debounceMs);

  const watcher = fsWatch(plugin.dir, { recursive: true }, (_event, filename) => {
    const first = String(filename ?? '').split(sep)[0];
    if (NOT_CONSOLE_INPUTS.has(first) || first.startsWith('.')) return;
    runner.schedule();
  });
  return async () => {
    runner.cancel();
    watcher.close();
    await context.dispose();
  };
}

async function watchHost(ctx, { log, hostEntry, debounceMs }) {
  const entryFile = resolve(ctx.rootDir, hostEntry);
  const context = await esbuild.context(hostBuildOptions({ ...ctx, entry: entryFile }));
  const runner = serialRunner(async () => {
    const t0 = performance.now();
    try {
      const result = await context.rebuild();
      const { outputs, extraInputs } = finishHost(result, { rootDir: ctx.rootDir, outDir: ctx.outDir, entryFile });
      // The inputs hash is left stale on purpose: the next plain build re-checks the host once.
      ctx.state.targets.host = { hash: null, outputs, extraInputs };
      writeState(ctx.outDir, ctx.state);
      log(`rebuilt host in ${Math.round(performance.now() - t0)} ms`);
    } catch (err) {
      log(`rebuild of the host failed: ${err.errors?.[0]?.text ?? err.message}`);
    }
  }, debounceMs);
  const watchers = [join(ctx.rootDir, 'core', 'console', 'src'), join(ctx.rootDir, 'plugin-sdk', 'src')].map((dir) =>
    fsWatch(dir, { recursive: true }, () => runner.schedule()),
  );
  return async () => {
    runner.cancel();
    for (const w of watchers) w.close();
    await context.dispose();
  };
}
