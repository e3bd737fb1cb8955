import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join, relative, sep } from 'node:path';
import { BuildError } from './errors.mjs';
import { writeFileAtomic } from './files.mjs';
import { contentHash, integrityOf } from './integrity.mjs';
import { checkLocaleResources } from './locales.mjs';

const require = createRequire(import.meta.url);

/** Folders of a plugin that never reach its console bundle. */
export const NOT_CONSOLE_INPUTS = new Set(['node_modules', 'test', 'server', 'dist', 'bench']);

/** Repository-relative path for messages; absolute when the file lives outside the repository. */
const rel = (rootDir, file) => {
  const r = relative(rootDir, file);
  return r.startsWith('..') ? file : r.split(sep).join('/');
};

/**
 * Read and validate one plugin of the deployment set: its manifest (with the SDK's schema), its
 * console entry and its locale files. Every failure names the file and the field.
 */
export function loadPlugin(entry, sdk, rootDir) {
  const manifestFile = join(entry.dir, 'plugin.json');
  const source = rel(rootDir, manifestFile);
  let json;
  try {
    json = JSON.parse(readFileSync(manifestFile, 'utf8'));
  } catch (err) {
    throw new BuildError(err.code === 'ENOENT' ? `${source} does not exist (plugin ${entry.id})` : `${source} is not valid JSON: ${err.message}`);
  }
  let manifest;
  try {
    manifest = sdk.parseManifest(json, source);
  } catch (err) {
    throw new BuildError(err.message);
  }
  const entryFile = join(entry.dir, manifest.console);
  if (!existsSync(entryFile)) throw new BuildError(`${source}: console entry ${manifest.console} does not exist`);

  const localeFiles = {};
  const resources = {};
  for (const locale of sdk.LOCALES) {
    const file = join(entry.dir, 'locales', `${locale}.json`);
    const where = rel(rootDir, file);
    if (!existsSync(file)) throw new BuildError(`${where} is missing: plugin ${entry.id} needs resources for ${locale}`);
    try {
      resources[locale] = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new BuildError(`${where} is not valid JSON: ${err.message}`);
    }
    localeFiles[locale] = file;
  }
  checkLocaleResources(manifest, resources, (locale) => rel(rootDir, localeFiles[locale]));
  return { ...entry, manifest, source, entryFile, localeFiles };
}

/**
 * Only the exact names in shared-modules.json stay external: a plugin importing
 * `@blueprintjs/icons` or a deep path of a shared package gets its own copy bundled.
 */
function sharedModulesExternal(modules) {
  const escaped = modules.map((m) => m.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  const filter = new RegExp(`^(${escaped.join('|')})$`);
  return {
    name: 'linguaport-shared-modules',
    setup(build) {
      build.onResolve({ filter }, (args) => ({ path: args.path, external: true }));
    },
  };
}

const INLINE_ASSETS = Object.fromEntries(['.svg', '.png', '.jpg', '.jpeg', '.gif', '.webp', '.woff', '.woff2', '.ttf', '.eot'].map((e) => [e, 'dataurl']));

/** esbuild options for one plugin: one ESM file (plus its CSS), shared modules external. */
export function pluginBuildOptions(plugin, { rootDir, sharedModules, mode }) {
  return {
    absWorkingDir: rootDir,
    entryPoints: [plugin.entryFile],
    outfile: join(rootDir, '.plugin-out', plugin.id, `${plugin.id}.js`),
    bundle: true,
    format: 'esm',
    splitting: false,
    minify: true,
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    loader: INLINE_ASSETS,
    define: { 'process.env.NODE_ENV': JSON.stringify(mode) },
    plugins: [sharedModulesExternal(sharedModules)],
    // A plugin folder outside the repository (tests, uploads) still resolves the workspace's packages.
    nodePaths: [join(rootDir, 'node_modules')],
    legalComments: 'none',
    metafile: true,
    write: false,
    logLevel: 'silent',
  };
}

let babelPromise;
/** @babel/core is slow to load; only builds that bundle something pay for it. */
function loadBabel() {
  babelPromise ??= import('@babel/core').then((m) => m.default ?? m);
  return babelPromise;
}

/** esbuild has no System format: convert its ESM output to `System.register`. */
export async function toSystemRegister(code, filename) {
  const babel = await loadBabel();
  const out = await babel.transformAsync(code, {
    filename,
    babelrc: false,
    configFile: false,
    sourceType: 'module',
    compact: true,
    minified: true,
    comments: false,
    plugins: [require.resolve('@babel/plugin-transform-modules-systemjs')],
  });
  return out.code;
}

/** esbuild's messages as one line: the first error with its file and line. */
export function describeEsbuildFailure(err, rootDir) {
  const first = err?.errors?.[0];
  if (!first) return err?.message ?? String(err);
  const loc = first.location ? `${first.location.file}:${first.location.line}:${first.location.column}: ` : '';
  const more = err.errors.length > 1 ? ` (and ${err.errors.length - 1} more)` : '';
  return `${loc}${first.text}${more}`.replace(rootDir + sep, '');
}

/**
 * Turn one esbuild result into the plugin's published files: the System.register bundle, its
 * CSS, the locale files, all content-hashed. The previous files stay until `prunePlugin` runs
 * after the new registry is written, so the registry on disk never points at a deleted file.
 * Returns `built` (the registry's URLs and integrity values), `outputs` (for the build state) and
 * `extraInputs` (sources outside the plugin folder the bundle used).
 */
export async function emitPlugin(plugin, result, { rootDir, outDir }) {
  const base = join(outDir, 'plugins', plugin.id);
  const files = new Map();
  const jsOut = result.outputFiles.find((f) => extname(f.path) === '.js');
  const cssOut = result.outputFiles.find((f) => extname(f.path) === '.css');
  const system = Buffer.from(await toSystemRegister(jsOut.text, `${plugin.id}.js`));
  const js = `${plugin.id}-${contentHash(system)}.js`;
  files.set(js, system);
  let css = null;
  if (cssOut && cssOut.contents.length) {
    css = `${plugin.id}-${contentHash(cssOut.contents)}.css`;
    files.set(css, Buffer.from(cssOut.contents));
  }
  const locales = {};
  for (const [locale, file] of Object.entries(plugin.localeFiles)) {
    const data = readFileSync(file);
    const name = `locales/${locale}-${contentHash(data)}.json`;
    files.set(name, data);
    locales[locale] = name;
  }

  for (const [name, data] of files) writeFileAtomic(join(base, name), data);

  const url = (name) => `/plugins/${plugin.id}/${name}`;
  const built = {
    bundle: url(js),
    integrity: integrityOf(files.get(js)),
    css: css && url(css),
    cssIntegrity: css && integrityOf(files.get(css)),
    locales: Object.fromEntries(Object.entries(locales).map(([l, n]) => [l, url(n)])),
  };
  const outputs = [...files].map(([name, data]) => ({ file: `plugins/${plugin.id}/${name}`, integrity: integrityOf(data) }));
  const pluginRel = rel(rootDir, plugin.dir) + '/';
  const extraInputs = Object.keys(result.metafile.inputs).filter(
    (f) => !f.includes('node_modules/') && !f.startsWith(pluginRel) && !f.includes(':'),
  );
  return { built, outputs, extraInputs };
}

/** Remove the files of a plugin that its current outputs (`plugins/<id>/...` paths) do not list. */
export function prunePlugin(outDir, id, outputs) {
  const base = join(outDir, 'plugins', id);
  const keep = new Set(outputs.map((o) => o.file.slice(`plugins/${id}/`.length)));
  for (const name of readdirSync(base, { recursive: true })) {
    const n = String(name).split(sep).join('/');
    if (keep.has(n) || n === 'locales') continue;
    rmSync(join(base, n), { force: true });
  }
}

/** Files whose content decides a plugin's output, for the build state's hash. */
export function pluginInputFiles(plugin, listFiles, rootDir, extraInputs = []) {
  return [...listFiles(plugin.dir, NOT_CONSOLE_INPUTS), ...extraInputs.map((f) => join(rootDir, f))];
}
