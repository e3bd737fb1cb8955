#!/usr/bin/env node
// Set-up shared by `npm start` and `npm test`: Node check, npm dependencies, Debian packages, build.
// Only Node built-ins here: this runs on a fresh clone before `node_modules` exists.
// Each step skips itself when its work is already done, so a second run is quick.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync, accessSync, constants } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDeploymentSet } from './lib/deployment.mjs';

export class SetupError extends Error {}

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The kernel's own Debian packages, by stage: what no plugin owns. Plugins declare theirs in their
 * manifests (`tools` in plugin.json); `systemPackages()` adds those. `runtime` features degrade when
 * missing; `test` ones are needed by `npm test`.
 */
export const KERNEL_PACKAGES = {
  runtime: [],
  test: [
    { pkg: 'chromium', feature: 'end-to-end tests in Chromium' },
    { pkg: 'postgresql', feature: 'integration tests against PostgreSQL' },
    { pkg: 'slapd', feature: 'directory (LDAP) sign-in tests against OpenLDAP' },
    { pkg: 'ldap-utils', feature: 'directory (LDAP) sign-in tests against OpenLDAP' },
  ],
};

/**
 * The packages the enabled plugins of `registryFile` declare (`tools[].package`), by stage, in
 * registry order. Read from the manifests' JSON directly: this runs before anything is built.
 */
export function manifestPackages(registryFile = join(ROOT, process.env.REGISTRY_FILE || 'registry.json')) {
  const out = { runtime: [], test: [] };
  for (const plugin of readDeploymentSet(registryFile).filter((p) => p.enabled)) {
    const file = join(plugin.dir, 'plugin.json');
    const tools = JSON.parse(readFileSync(file, 'utf8')).tools ?? [];
    if (!Array.isArray(tools)) throw new SetupError(`${file}: tools must be a list`);
    for (const t of tools) {
      if (!t || typeof t.package !== 'string') continue;
      const stage = t.stage ?? 'runtime';
      if (!(stage in out)) throw new SetupError(`${file}: tool ${t.command ?? t.package} has stage ${stage}, not runtime or test`);
      out[stage].push({ pkg: t.package, feature: t.purpose ?? t.feature, plugin: plugin.id });
    }
  }
  return out;
}

/** Debian packages by stage: the kernel's and the enabled plugins', each package once (its first purpose). */
export function systemPackages(registryFile) {
  const fromPlugins = manifestPackages(registryFile);
  const out = {};
  for (const stage of ['runtime', 'test']) {
    const seen = new Set();
    out[stage] = [...KERNEL_PACKAGES[stage], ...fromPlugins[stage]].filter((p) => !seen.has(p.pkg) && seen.add(p.pkg));
  }
  // A package a runtime feature needs is installed at runtime already: `--test` adds only the others.
  const runtime = new Set(out.runtime.map((p) => p.pkg));
  out.test = out.test.filter((p) => !runtime.has(p.pkg));
  return out;
}

const say = (line) => process.stdout.write(`[setup] ${line}\n`);


function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...opts });
  if (res.error) throw new SetupError(`${cmd} could not be run: ${res.error.message}`);
  if (res.status !== 0) throw new SetupError(`${cmd} ${args.join(' ')} failed with exit code ${res.status}`);
}

export function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 11)) {
    throw new SetupError(`Node ${process.versions.node} is too old: Node 20.11 or newer is needed`);
  }
}

function installHash() {
  const h = createHash('sha256');
  for (const f of ['package.json', 'package-lock.json']) {
    if (existsSync(join(ROOT, f))) h.update(readFileSync(join(ROOT, f)));
  }
  return h.digest('hex');
}

/** npm install when node_modules is missing or older than package.json / the lock file. */
export function ensureNodeModules() {
  const marker = join(ROOT, 'node_modules', '.linguaport-install');
  const want = installHash();
  if (existsSync(marker) && readFileSync(marker, 'utf8') === want) return false;
  say('installing npm dependencies');
  // `npm install` (not `npm ci`) with the committed lock: the registry here lacks some other-platform
  // optional binaries (e.g. @node-rs/jieba for darwin), which `npm ci` refuses as an out-of-sync lock.
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error']);
  // npm may bring the lock file up to date with new workspace members: remember the state after it.
  writeFileSync(marker, installHash());
  return true;
}

function dpkgInstalled(pkg) {
  const res = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return res.status === 0 && res.stdout.includes('install ok installed');
}

/**
 * Installs missing Debian packages when running as root. Without root it prints the exact
 * apt-get line and returns the features that stay unavailable, instead of failing.
 */
export function ensureSystemPackages(kinds) {
  const packages = systemPackages();
  const wanted = kinds.flatMap((k) => packages[k]);
  const missing = wanted.filter((p) => !dpkgInstalled(p.pkg));
  if (missing.length === 0) return [];
  const names = missing.map((p) => p.pkg);
  const line = `apt-get install -y ${names.join(' ')}`;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!hasApt || typeof process.getuid !== 'function' || process.getuid() !== 0) {
    say(`missing system packages: ${names.join(', ')}. Install them with: sudo ${line}`);
    for (const p of missing) say(`unavailable until then: ${p.feature}`);
    return missing.map((p) => p.feature);
  }
  say(`installing system packages: ${names.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-o', 'DPkg::Lock::Timeout=600'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  run('apt-get', ['install', '-y', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=600', ...names], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return [];
}

export function build(extraArgs = [], env = {}) {
  run(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), ...extraArgs], { env: { ...process.env, ...env } });
}

/** The data directory must exist and be writable before the server opens its database there. */
export function ensureDataDir(dir) {
  // One level at a time: Node's recursive mkdir never returns under /proc.
  const missing = [];
  let cur = dir;
  while (!existsSync(cur) && dirname(cur) !== cur) {
    missing.unshift(cur);
    cur = dirname(cur);
  }
  try {
    for (const d of missing) mkdirSync(d);
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw new SetupError(`data directory ${dir} is not writable: ${err.code ?? err.message}`);
  }
}

export function setup({ packages = ['runtime'], skipBuild = false } = {}) {
  checkNode();
  ensureNodeModules();
  const unavailable = ensureSystemPackages(packages);
  if (!skipBuild) build();
  return { unavailable };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const depsOnly = process.argv.includes('--deps-only');
  const forTest = process.argv.includes('--test');
  try {
    setup({ packages: forTest ? ['runtime', 'test'] : ['runtime'], skipBuild: depsOnly });
  } catch (err) {
    process.stderr.write(`[setup] ${err.message}\n`);
    process.exit(1);
  }
}
