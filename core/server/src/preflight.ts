import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PluginManifest } from '@linguaport/sdk/shared';
import { readDeploymentSet } from './plugins/deployment.js';

/**
 * Checks made before anything is created, so that a start that cannot succeed fails in one clear
 * line and leaves nothing behind (no database, no administrator password printed for nothing).
 */

/** Creates `dir` one level at a time: Node's recursive mkdir never returns under /proc. */
export function ensureWritableDir(dir: string): void {
  const missing: string[] = [];
  let cur = dir;
  for (;;) {
    try {
      if (!statSync(cur).isDirectory()) throw new Error(`data directory ${dir} is not writable: ${cur} is not a directory`);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw reword(dir, err);
      missing.unshift(cur);
      const parent = dirname(cur);
      if (parent === cur) break;
      cur = parent;
    }
  }
  try {
    for (const d of missing) mkdirSync(d);
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw reword(dir, err);
  }
}

function reword(dir: string, err: unknown): Error {
  if (err instanceof Error && err.message.startsWith('data directory')) return err;
  const e = err as NodeJS.ErrnoException;
  return new Error(`data directory ${dir} is not writable: ${e.code ?? e.message}`);
}

/** Resolves when host:port can be bound now; rejects with the listen error (EADDRINUSE, ...). */
export function probePort(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/**
 * External programs the server's features run. Plugins declare them in their manifests (`tools`:
 * command, Debian package, the feature it switches); `scripts/setup.mjs` installs the same packages.
 * A missing one is reported by name at start and in `GET /api/health`, and makes only its feature
 * unavailable: the server still starts.
 */
export type ToolFeature = string;

export interface ExternalTool {
  /** The command, with the probe's arguments when it has one (`/usr/bin/python3 -c import tornado`). */
  name: string;
  debianPackage: string;
  feature: ToolFeature;
  /** What the feature is, for the log line (`the built-in Apertium engine`). */
  purpose: string;
  /** Found on PATH by name, or a custom probe (an interpreter with a module). */
  probe?: (env: NodeJS.ProcessEnv) => boolean;
}

export interface ToolStatus {
  name: string;
  debianPackage: string;
  feature: ToolFeature;
  purpose?: string;
  ok: boolean;
}

/** The checks for the runtime tools the given manifests declare, each command once per feature. */
export function declaredTools(manifests: Iterable<Pick<PluginManifest, 'tools'>>): ExternalTool[] {
  const out = new Map<string, ExternalTool>();
  for (const m of manifests) {
    // A tool without a package is not set-up's to install (a driver's, the base system's): the plugin copes without it.
    for (const t of m.tools) {
      if (t.stage !== 'runtime' || !t.command || !t.package) continue;
      const { command, probe: args } = t;
      const name = args ? `${command} ${args.join(' ')}` : command;
      const key = `${t.feature} ${name}`;
      if (out.has(key)) continue;
      const probe = args ? (env: NodeJS.ProcessEnv) => passedProbe(command, args, env) : undefined;
      out.set(key, { name, debianPackage: t.package, feature: t.feature, purpose: t.purpose, ...(probe ? { probe } : {}) });
    }
  }
  return [...out.values()];
}

/**
 * Probes that passed, by command, arguments and environment. A probe starts an interpreter (APy's
 * python3 and its modules, about half a second of CPU): once per process is enough where the server
 * is started again and again in one process (the test suite: some 400 starts a run). A failed probe
 * runs again each time, so a tool installed since is found.
 */
const passedProbes = new Set<string>();
function passedProbe(command: string, args: string[], env: NodeJS.ProcessEnv): boolean {
  const key = JSON.stringify([command, args, Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
  if (passedProbes.has(key)) return true;
  const ok = spawnSync(command, args, { env, stdio: 'ignore', timeout: 10_000 }).status === 0;
  if (ok) passedProbes.add(key);
  return ok;
}

let repositoryTools: ExternalTool[] | null = null;

/** The tools of the plugins `registry.json` enables (the server passes its own deployment set). */
export function deploymentTools(registryFile = fileURLToPath(new URL('../../../registry.json', import.meta.url))): ExternalTool[] {
  return (repositoryTools ??= declaredTools(readDeploymentSet(registryFile).filter((p) => p.enabled).map((p) => p.manifest)));
}

/** An executable called `name` in one of PATH's directories. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): boolean {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      const file = join(dir, name);
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      // Not in this directory.
    }
  }
  return false;
}

export function checkExternalTools(env: NodeJS.ProcessEnv = process.env, tools: readonly ExternalTool[] = deploymentTools()): ToolStatus[] {
  return tools.map((t) => ({ name: t.name, debianPackage: t.debianPackage, feature: t.feature, purpose: t.purpose, ok: t.probe ? t.probe(env) : onPath(t.name, env) }));
}

/** Why `feature` is unavailable (`tf-extract, tf-inject missing (Debian package transfuse)`), or null when it is available. */
export function featureUnavailable(feature: ToolFeature, statuses: readonly ToolStatus[]): string | null {
  const missing = statuses.filter((t) => t.feature === feature && !t.ok);
  if (missing.length === 0) return null;
  const packages = [...new Set(missing.map((t) => t.debianPackage))];
  return `${missing.map((t) => t.name).join(', ')} missing (Debian package${packages.length > 1 ? 's' : ''} ${packages.join(', ')})`;
}

/** One log line per unavailable feature, naming the missing tools; empty when all are there. */
export function describeMissingTools(statuses: readonly ToolStatus[]): string[] {
  const features = [...new Set(statuses.filter((t) => !t.ok).map((t) => t.feature))];
  // The feature's first declared tool names it (the later ones may say more, "default language packs").
  return features.map((f) => `${statuses.find((t) => t.feature === f && t.purpose)?.purpose ?? f} is unavailable: ${featureUnavailable(f, statuses)}`);
}
