import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as esbuild from 'esbuild';
import { BuildError } from './errors.mjs';
import { listFiles } from './files.mjs';
import { describeEsbuildFailure } from './plugin.mjs';

/**
 * The production server: the kernel (core/server/src/main.ts), every server part of the deployment
 * set and the SDK compiled into `<out>/server` as ESM for Node 20, so `npm start` runs
 * `node dist/server/main.js` without compiling TypeScript at every start. npm packages stay imports
 * (PGlite, pg-boss and others ship files of their own); the workspace's TypeScript (`@linguaport/sdk`,
 * the packages under packages/) is compiled in. One build with code splitting, so the kernel, the plugins and uploaded server parts
 * share one copy of each module (the SDK's classes among them).
 *
 *   main.js                  the kernel; registers sdk-hooks.js first
 *   plugins/<id>/index.js    a plugin's server part (the plugin host picks it when the kernel runs compiled)
 *   sdk/{server,shared,package,resources,interchange}.js   what an uploaded part's `@linguaport/sdk/...` imports resolve to
 *   sdk-hooks.js             that resolution (a module.register resolve hook)
 *   chunk-*.js               code shared between them
 */

export const SERVER_ENTRY = 'core/server/src/main.ts';
const SDK_ENTRIES = ['server', 'shared', 'package', 'resources', 'interchange'];
const HOOKS_SOURCE = 'scripts/lib/server-sdk-hooks.mjs';
const MAIN_MODULE = 'linguaport:server-main';

/** Entry points: output name (below <out>/server, without .js) -> source file. */
export function serverEntryPoints(rootDir, plugins) {
  const entries = { main: MAIN_MODULE, 'sdk-hooks': join(rootDir, HOOKS_SOURCE) };
  for (const s of SDK_ENTRIES) entries[`sdk/${s}`] = join(rootDir, 'plugin-sdk', 'src', s, 'index.ts');
  for (const p of plugins) if (p.manifest.server) entries[`plugins/${p.id}/index`] = join(p.dir, p.manifest.server);
  return entries;
}

// main.js: the resolve hook is registered before the kernel's code runs (modules run in import order).
function mainModule(rootDir) {
  return {
    name: 'linguaport-server-main',
    setup(build) {
      build.onResolve({ filter: /^linguaport:/ }, (args) => ({ path: args.path, namespace: 'linguaport' }));
      build.onLoad({ filter: /.*/, namespace: 'linguaport' }, (args) => {
        if (args.path === MAIN_MODULE) return { contents: `import 'linguaport:register-hooks';\nimport ${JSON.stringify(`./${SERVER_ENTRY}`)};\n`, resolveDir: rootDir, loader: 'js' };
        return { contents: `import { register } from 'node:module';\nregister('./sdk-hooks.js', import.meta.url);\n`, resolveDir: rootDir, loader: 'js' };
      });
    },
  };
}

/** npm packages and Node's modules stay imports; the workspace's own packages (@linguaport/*) are compiled in. */
const packagesExternal = {
  name: 'linguaport-packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@linguaport/') || args.path.startsWith('linguaport:')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

export function serverBuildOptions({ rootDir, outDir, plugins }) {
  return {
    absWorkingDir: rootDir,
    entryPoints: serverEntryPoints(rootDir, plugins),
    outdir: join(outDir, 'server'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Not minified: stack traces in the logs stay readable; names kept for error and class names.
    keepNames: true,
    chunkNames: '[name]-[hash]',
    plugins: [mainModule(rootDir), packagesExternal],
    metafile: true,
    write: true,
    logLevel: 'silent',
  };
}

// `new URL('./file', import.meta.url)`: a file the code reads beside itself (apy-launcher.py).
const BESIDE = /new URL\(\s*['"](\.\/[^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g;

/**
 * Files that compiled code finds through `new URL('./x', import.meta.url)` are copied beside every
 * output holding that code, so they are found where the code now runs. Returns the copies.
 */
export function copyFilesBeside(metafile, rootDir) {
  const copies = [];
  for (const [out, { inputs }] of Object.entries(metafile.outputs)) {
    for (const input of Object.keys(inputs)) {
      if (input.includes(':') || input.includes('node_modules/')) continue;
      const source = resolve(rootDir, input);
      for (const [, rel] of readFileSync(source, 'utf8').matchAll(BESIDE)) {
        const from = resolve(dirname(source), rel);
        const to = resolve(dirname(resolve(rootDir, out)), rel);
        if (!existsSync(from)) throw new BuildError(`${input} reads ${rel} beside itself, but ${relative(rootDir, from)} does not exist`);
        mkdirSync(dirname(to), { recursive: true });
        copyFileSync(from, to);
        copies.push(to);
      }
    }
  }
  return copies;
}

/** Build the server into `<out>/server`. Returns the build-state record parts. */
export async function buildServer({ rootDir, outDir, plugins }) {
  const serverDir = join(outDir, 'server');
  let result;
  try {
    result = await esbuild.build(serverBuildOptions({ rootDir, outDir, plugins }));
  } catch (err) {
    throw new BuildError(`server: ${describeEsbuildFailure(err, rootDir)}`);
  }
  const written = new Set([...Object.keys(result.metafile.outputs).map((k) => resolve(rootDir, k)), ...copyFilesBeside(result.metafile, rootDir)]);
  for (const file of listFiles(serverDir)) if (!written.has(file)) rmSync(file, { force: true });
  const toOut = (abs) => relative(outDir, abs).split(sep).join('/');
  const extraInputs = Object.keys(result.metafile.inputs).filter((f) => !f.includes('node_modules/') && !f.includes(':'));
  return { outputs: [...written].map((f) => ({ file: toOut(f) })), extraInputs };
}

/** Files whose content decides the server's output, for the build state's hash. */
export function serverInputFiles(rootDir, plugins, extraInputs = []) {
  return [
    ...listFiles(join(rootDir, 'core', 'server', 'src')),
    ...listFiles(join(rootDir, 'plugin-sdk', 'src')),
    // The workspace's packages (@linguaport/speaker-model...), compiled in like the SDK.
    ...listFiles(join(rootDir, 'packages')).filter((f) => f.includes(`${sep}src${sep}`)),
    join(rootDir, HOOKS_SOURCE),
    ...plugins.flatMap((p) => [join(p.dir, 'plugin.json'), ...(p.manifest.server ? listFiles(dirname(join(p.dir, p.manifest.server))) : [])]),
    ...extraInputs.map((f) => resolve(rootDir, f)),
  ];
}
