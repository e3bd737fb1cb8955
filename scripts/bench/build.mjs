#!/usr/bin/env node
// Figures for the build (printed, never pass/fail): clean build time, no-op build time, host JS
// needed to paint the login page, total host JS, each plugin bundle, and one watch-mode rebuild.
// Sizes are gzip level 6 (zlib's default, what a server sends) of the files the build wrote.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILD = join(ROOT, 'scripts', 'build.mjs');
const benchDir = join(ROOT, '.tmp', 'bench', 'build');
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const gz = (file) => gzipSync(readFileSync(file), { level: 6 }).length;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timedBuild(args) {
  const t0 = performance.now();
  const res = spawnSync(process.execPath, [BUILD, ...args], { cwd: ROOT, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`build failed: ${res.stderr.trim()}`);
  return performance.now() - t0;
}

// 1. Clean and no-op builds of the deployment set (registry.json).
const dist = join(benchDir, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(benchDir, { recursive: true });
console.log(`clean build (host + ${JSON.parse(readFileSync(join(ROOT, 'registry.json'), 'utf8')).plugins.length} plugins of registry.json): ${timedBuild(['--out', dist]).toFixed(0)} ms`);
console.log(`no-op build (unchanged tree): ${median([0, 1, 2].map(() => timedBuild(['--out', dist]))).toFixed(0)} ms (median of 3)`);

// 2. Host JavaScript from the metafile.
const meta = JSON.parse(readFileSync(join(dist, 'console', 'meta.json'), 'utf8'));
const outputs = meta.outputs;
const abs = (key) => resolve(ROOT, key);
const entry = Object.keys(outputs).find((k) => outputs[k].entryPoint === 'core/console/src/main.tsx' && k.endsWith('.js'));
const staticClosure = (start) => {
  const seen = new Set([start]);
  const walk = (k) => {
    for (const imp of outputs[k]?.imports ?? []) {
      if (imp.kind === 'import-statement' && !imp.external && !seen.has(imp.path)) {
        seen.add(imp.path);
        walk(imp.path);
      }
    }
  };
  walk(start);
  return seen;
};
const paint = staticClosure(entry);
// The login page's own lazy chunk, when the console splits it off (a dynamic import whose module
// is a file under pages/ named Login), with the chunks that chunk imports statically.
const loginChunk = Object.keys(outputs).find((k) => k !== entry && /pages\/Login[^/]*$/i.test(outputs[k].entryPoint ?? ''));
let how;
if (loginChunk) {
  for (const k of staticClosure(loginChunk)) paint.add(k);
  how = `entry + its static imports + lazy chunk ${relative(join(dist, 'console'), abs(loginChunk))} and its static imports`;
} else {
  const inEntryGraph = [...paint].some((k) => Object.keys(outputs[k].inputs ?? {}).some((i) => /pages\/Login/i.test(i)));
  how = `entry + its static imports; the login page is ${inEntryGraph ? 'inside that static graph' : 'not found in the metafile'}`;
}
const paintJs = [...paint].filter((k) => k.endsWith('.js'));
const paintBytes = paintJs.reduce((n, k) => n + gz(abs(k)), 0);
console.log(`host login-paint JS gzip: ${kb(paintBytes)} (budget 300 KB; ${paintJs.length} files: ${how})`);
const css = Object.keys(outputs).filter((k) => k.endsWith('.css'));
console.log(`host CSS gzip: ${kb(css.reduce((n, k) => n + gz(abs(k)), 0))} (${css.length} files, loaded with the page)`);
const allJs = Object.keys(outputs).filter((k) => k.endsWith('.js'));
console.log(`host JS total gzip: ${kb(allJs.reduce((n, k) => n + gz(abs(k)), 0))} (${allJs.length} files, lazy chunks included)`);

// 3. Plugin bundles, from the fixture set (one-view plugins) and the deployment set.
for (const [label, registryFile, out] of [
  ['fixture', join(ROOT, 'tests', 'fixtures', 'registry.json'), join(benchDir, 'fixtures-dist')],
  ['deployed', join(ROOT, 'registry.json'), dist],
]) {
  if (out !== dist) timedBuild(['--out', out, '--registry', registryFile, '--plugins-only']);
  const registry = JSON.parse(readFileSync(join(out, 'registry.json'), 'utf8'));
  for (const p of Object.values(registry.plugins)) {
    const views = new Set(p.routes.map((r) => r.view)).size;
    const file = (url) => join(out, url.replace(/^\//, ''));
    const cssPart = p.css ? `, CSS ${kb(gz(file(p.css)))}` : '';
    console.log(`plugin ${p.id} (${label}, ${views} view${views === 1 ? '' : 's'}) JS gzip: ${kb(gz(file(p.bundle)))}${cssPart} (budget 10 KB for a one-view plugin)`);
  }
}

// 4. Watch mode: touch a source of the fixture plugin `hello`, wait for the `rebuilt` line.
const watchOut = join(benchDir, 'fixtures-dist');
const child = spawn(process.execPath, [BUILD, '--out', watchOut, '--registry', join(ROOT, 'tests', 'fixtures', 'registry.json'), '--plugins-only', '--watch', 'hello'], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const lines = [];
let waiter = null;
let buffered = '';
child.stdout.on('data', (chunk) => {
  buffered += chunk;
  let i;
  while ((i = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, i);
    buffered = buffered.slice(i + 1);
    lines.push(line);
    if (waiter && waiter.test(line)) waiter.resolve(line);
  }
});
const waitFor = (re, ms = 15000) =>
  new Promise((resolveLine, reject) => {
    const found = lines.find((l) => re.test(l));
    if (found) return resolveLine(found);
    const timer = setTimeout(() => reject(new Error(`no line matching ${re} within ${ms} ms`)), ms);
    waiter = { test: (l) => re.test(l), resolve: (l) => { clearTimeout(timer); waiter = null; resolveLine(l); } };
  });
try {
  await waitFor(/^watching /);
  const source = join(ROOT, 'tests', 'fixtures', 'plugins', 'hello', 'console', 'index.tsx');
  const wall = [];
  const reported = [];
  for (let round = 0; round < 5; round++) {
    lines.length = 0;
    const t0 = performance.now();
    const now = new Date();
    utimesSync(source, now, now);
    const line = await waitFor(/^rebuilt hello in (\d+) ms/);
    wall.push(performance.now() - t0);
    reported.push(Number(/in (\d+) ms/.exec(line)[1]));
    await new Promise((r) => setTimeout(r, 200));
  }
  console.log(`watch rebuild of one plugin: median ${median(reported)} ms as reported, ${median(wall).toFixed(0)} ms from touch to line (budget 1000 ms, 5 rounds)`);
} finally {
  child.kill('SIGTERM');
}
