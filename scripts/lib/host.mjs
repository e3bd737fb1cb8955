import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import * as esbuild from 'esbuild';
import { BuildError } from './errors.mjs';
import { listFiles, writeFileAtomic } from './files.mjs';
import { renderIndexHtml } from './html.mjs';
import { describeEsbuildFailure } from './plugin.mjs';

export const HOST_ENTRY = 'core/console/src/main.tsx';
export const HOST_TITLE = 'Linguaport';
const ASSETS_URL = '/assets/';

const FILE_ASSETS = Object.fromEntries(['.svg', '.png', '.jpg', '.jpeg', '.gif', '.webp', '.ico', '.woff', '.woff2', '.ttf', '.eot'].map((e) => [e, 'file']));

function productVersion(rootDir) {
  try {
    return JSON.parse(readFileSync(join(rootDir, 'package.json'), 'utf8')).version ?? '';
  } catch {
    return '';
  }
}

export function hostBuildOptions({ rootDir, outDir, mode, entry }) {
  return {
    absWorkingDir: rootDir,
    entryPoints: { main: entry },
    outdir: join(outDir, 'console', 'assets'),
    bundle: true,
    format: 'esm',
    splitting: true,
    minify: true,
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    loader: FILE_ASSETS,
    // The product version the About panel shows: the repository's package.json.
    define: { 'process.env.NODE_ENV': JSON.stringify(mode), __PRODUCT_VERSION__: JSON.stringify(productVersion(rootDir)) },
    // A throwaway entry outside the repository still resolves the workspace's packages.
    nodePaths: [join(rootDir, 'node_modules')],
    metafile: true,
    write: true,
    logLevel: 'silent',
  };
}

/**
 * What index.html references, read from the metafile: the entry module, its CSS bundle and the
 * chunks it imports statically (preloaded, so they download in parallel with the entry).
 */
export function hostPageFromMetafile(metafile, { rootDir, assetsDir, entryFile }) {
  const outputs = metafile.outputs;
  const entryRel = relative(rootDir, entryFile).split(sep).join('/');
  const entryKey = Object.keys(outputs).find((k) => outputs[k].entryPoint === entryRel && k.endsWith('.js'));
  if (!entryKey) throw new BuildError('the host build produced no entry module');
  const url = (key) => ASSETS_URL + relative(assetsDir, resolve(rootDir, key)).split(sep).join('/');
  const preloads = [];
  const seen = new Set([entryKey]);
  const walk = (key) => {
    for (const imp of outputs[key]?.imports ?? []) {
      if (imp.kind !== 'import-statement' || imp.external || seen.has(imp.path)) continue;
      seen.add(imp.path);
      preloads.push(url(imp.path));
      walk(imp.path);
    }
  };
  walk(entryKey);
  const cssBundle = outputs[entryKey].cssBundle;
  return { script: url(entryKey), styles: cssBundle ? [url(cssBundle)] : [], preloads };
}

/** Build the host page into `<out>/console`. Returns the build-state record parts. */
export async function buildHost({ rootDir, outDir, mode, entry }) {
  const entryFile = resolve(rootDir, entry);
  if (!existsSync(entryFile)) throw new BuildError(`host entry ${entry} does not exist`);
  const consoleDir = join(outDir, 'console');
  const assetsDir = join(consoleDir, 'assets');
  let result;
  try {
    result = await esbuild.build(hostBuildOptions({ rootDir, outDir, mode, entry: entryFile }));
  } catch (err) {
    throw new BuildError(`host: ${describeEsbuildFailure(err, rootDir)}`);
  }
  return finishHost(result, { rootDir, outDir, entryFile, consoleDir, assetsDir });
}

/** After esbuild wrote the assets: copy public files, write meta.json and index.html, then prune stale assets. */
export function finishHost(result, { rootDir, outDir, entryFile, consoleDir = join(outDir, 'console'), assetsDir = join(consoleDir, 'assets') }) {
  const written = new Set(Object.keys(result.metafile.outputs).map((k) => resolve(rootDir, k)));
  const publicDir = join(rootDir, 'core', 'console', 'public');
  const publicFiles = existsSync(publicDir) ? readdirSync(publicDir, { recursive: true }) : [];
  if (publicFiles.length) cpSync(publicDir, consoleDir, { recursive: true });

  writeFileAtomic(join(consoleDir, 'meta.json'), JSON.stringify(result.metafile));
  writeFileAtomic(join(consoleDir, 'index.html'), renderIndexHtml({ title: HOST_TITLE, ...hostPageFromMetafile(result.metafile, { rootDir, assetsDir, entryFile }) }));
  // Only once the new page is in place: pages already open may still fetch the old chunks until then.
  for (const file of listFiles(assetsDir)) if (!written.has(file)) rmSync(file, { force: true });

  const toOut = (abs) => relative(outDir, abs).split(sep).join('/');
  const outputs = [...written, join(consoleDir, 'index.html'), join(consoleDir, 'meta.json')].map((f) => ({ file: toOut(f) }));
  const extraInputs = Object.keys(result.metafile.inputs).filter(
    (f) => !f.includes('node_modules/') && !f.startsWith('core/console/') && !f.includes(':'),
  );
  return { outputs, extraInputs };
}

/** Files whose content decides the host's output, for the build state's hash. */
export function hostInputFiles(rootDir, entry, extraInputs = []) {
  const consoleDir = join(rootDir, 'core', 'console');
  return [
    ...listFiles(join(consoleDir, 'src')),
    ...listFiles(join(consoleDir, 'public')),
    join(consoleDir, 'shared-modules.json'),
    join(consoleDir, 'package.json'),
    resolve(rootDir, entry),
    ...extraInputs.map((f) => resolve(rootDir, f)),
  ];
}
