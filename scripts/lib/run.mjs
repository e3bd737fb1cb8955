import { readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as esbuild from 'esbuild';
import { readDeploymentSet } from './deployment.mjs';
import { BuildError } from './errors.mjs';
import { listFiles, writeFileAtomic } from './files.mjs';
import { HOST_ENTRY, buildHost, hostInputFiles } from './host.mjs';
import { describeEsbuildFailure, emitPlugin, loadPlugin, pluginBuildOptions, pluginInputFiles, prunePlugin } from './plugin.mjs';
import { assembleRegistry, checkDeployment } from './registry.mjs';
import { loadSdk } from './sdk.mjs';
import { buildServer, serverEntryPoints, serverInputFiles } from './server.mjs';
import { hashInputs, isUpToDate, readState, writeState } from './state.mjs';

/**
 * One build of the host and the deployment set into `outDir`, skipping targets whose inputs did
 * not change. Returns what watch mode needs to rebuild single plugins afterwards.
 */
export async function runBuild({ rootDir, outDir, registryFile, mode, pluginsOnly = false, hostEntry = HOST_ENTRY }) {
  const sdk = await loadSdk(rootDir);
  const sharedModules = readSharedModules(rootDir);
  const plugins = readDeploymentSet(registryFile).map((entry) => loadPlugin(entry, sdk, rootDir));
  checkDeployment(plugins, sdk);

  const state = readState(outDir);
  const fingerprint = buildFingerprint(rootDir, mode);
  const ctx = { rootDir, outDir, mode, sdk, sharedModules, state, fingerprint, plugins, registryFile };
  const summary = { built: [], skipped: [] };
  try {
    if (!pluginsOnly) {
      const prev = state.targets.host;
      const hash = hostHash(ctx, hostEntry, prev?.extraInputs);
      if (isUpToDate(prev, hash, outDir)) summary.skipped.push('host');
      else {
        const { outputs, extraInputs } = await buildHost({ rootDir, outDir, mode, entry: hostEntry });
        state.targets.host = { hash: hostHash(ctx, hostEntry, extraInputs), outputs, extraInputs };
        summary.built.push('host');
      }
      const prevServer = state.targets.server;
      if (isUpToDate(prevServer, serverHash(ctx, prevServer?.extraInputs), outDir)) summary.skipped.push('server');
      else {
        const { outputs, extraInputs } = await buildServer({ rootDir, outDir, plugins });
        state.targets.server = { hash: serverHash(ctx, extraInputs), outputs, extraInputs };
        summary.built.push('server');
      }
    }
    await Promise.all(
      plugins.map(async (p) => {
        const prev = state.targets[`plugin:${p.id}`];
        if (isUpToDate(prev, pluginHash(ctx, p, prev?.extraInputs), outDir)) {
          p.built = prev.built;
          summary.skipped.push(p.id);
          return;
        }
        await buildPlugin(ctx, p);
        summary.built.push(p.id);
      }),
    );
    writeRegistry(ctx);
    // After the registry: it must never point at a removed file. Pruning every plugin also cleans
    // up after a run that failed between publishing one plugin and writing the registry.
    for (const p of plugins) prunePlugin(outDir, p.id, state.targets[`plugin:${p.id}`].outputs);
    forgetRemovedPlugins(ctx);
  } finally {
    writeState(outDir, state);
  }
  return { ctx, summary };
}

/** Bundle one plugin, publish its files and record it in the build state. */
export async function buildPlugin(ctx, p, esbuildContext = null) {
  let result;
  try {
    result = esbuildContext ? await esbuildContext.rebuild() : await esbuild.build(pluginBuildOptions(p, ctx));
  } catch (err) {
    throw new BuildError(`plugin ${p.id}: ${describeEsbuildFailure(err, ctx.rootDir)}`);
  }
  const { built, outputs, extraInputs } = await emitPlugin(p, result, ctx);
  p.built = built;
  ctx.state.targets[`plugin:${p.id}`] = { hash: pluginHash(ctx, p, extraInputs), outputs, built, extraInputs };
}

/** Assemble, check and atomically replace `<out>/registry.json`. */
export function writeRegistry(ctx) {
  const registry = assembleRegistry(ctx.plugins, ctx.sdk);
  writeFileAtomic(join(ctx.outDir, 'registry.json'), `${JSON.stringify(registry, null, 2)}\n`);
  return registry;
}

export function pluginHash(ctx, p, extraInputs) {
  return hashInputs(pluginInputFiles(p, listFiles, ctx.rootDir, extraInputs), { rootDir: ctx.rootDir, salt: [ctx.fingerprint, `plugin ${p.id}`] });
}

function serverHash(ctx, extraInputs) {
  const entries = Object.entries(serverEntryPoints(ctx.rootDir, ctx.plugins)).map(([name, file]) => `${name}=${relative(ctx.rootDir, file)}`);
  return hashInputs(serverInputFiles(ctx.rootDir, ctx.plugins, extraInputs), { rootDir: ctx.rootDir, salt: [ctx.fingerprint, 'server', ...entries] });
}

function hostHash(ctx, entry, extraInputs) {
  return hashInputs(hostInputFiles(ctx.rootDir, entry, extraInputs), { rootDir: ctx.rootDir, salt: [ctx.fingerprint, 'host'] });
}

/** What changes every output: the build code, the installed packages, the mode, the shared modules. */
function buildFingerprint(rootDir, mode) {
  const libDir = join(rootDir, 'scripts', 'lib');
  const files = [
    join(rootDir, 'scripts', 'build.mjs'),
    join(rootDir, 'package-lock.json'),
    join(rootDir, 'core', 'console', 'shared-modules.json'),
    ...listFiles(libDir).filter((f) => f.endsWith('.mjs') && !f.endsWith('postgres.mjs')),
  ];
  return hashInputs(files, { rootDir, salt: [`mode ${mode}`] });
}

function readSharedModules(rootDir) {
  const file = join(rootDir, 'core', 'console', 'shared-modules.json');
  const modules = JSON.parse(readFileSync(file, 'utf8')).modules;
  if (!Array.isArray(modules) || !modules.every((m) => typeof m === 'string')) {
    throw new BuildError(`${relative(rootDir, file)}: modules must be a list of module names`);
  }
  return modules;
}

/** A plugin dropped from the set loses its published files and its state entry. */
function forgetRemovedPlugins({ state, plugins, outDir }) {
  const ids = new Set(plugins.map((p) => p.id));
  for (const key of Object.keys(state.targets)) {
    if (!key.startsWith('plugin:') || ids.has(key.slice(7))) continue;
    rmSync(join(outDir, 'plugins', key.slice(7)), { recursive: true, force: true });
    delete state.targets[key];
  }
}
