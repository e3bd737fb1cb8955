import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import * as esbuild from 'esbuild';
import { BuildError } from './errors.mjs';
import { describeEsbuildFailure, emitPlugin, loadPlugin, pluginBuildOptions } from './plugin.mjs';
import { loadSdk } from './sdk.mjs';

/**
 * Builds one plugin with the build's own plugin builder (loadPlugin, pluginBuildOptions,
 * emitPlugin into a temporary folder) and returns the package's files in archive order:
 * plugin.json, bundle/, locales/, logo, server/. The caller lists, signs and archives them.
 */

const LOGO_NAMES = ['logo.png', 'logo.svg', 'logo.jpg', 'logo.jpeg', 'logo.gif', 'logo.webp'];

export async function buildPackageFiles(pluginDir, { rootDir, sharedModules }) {
  const sdk = await loadSdk(rootDir);
  const plugin = loadPlugin({ id: basename(pluginDir), dir: pluginDir, enabled: true }, sdk, rootDir);
  if (plugin.manifest.id !== basename(pluginDir)) {
    throw new BuildError(`${plugin.source}: id is ${plugin.manifest.id} but the folder is ${basename(pluginDir)}; name the folder after the id`);
  }
  if (!sdk.satisfies(sdk.SDK_VERSION, plugin.manifest.sdk)) {
    throw new BuildError(`${plugin.source}: sdk range ${plugin.manifest.sdk} does not accept the platform SDK ${sdk.SDK_VERSION}`);
  }
  const ctx = { rootDir, sharedModules, mode: 'production' };
  let result;
  try {
    result = await esbuild.build(pluginBuildOptions(plugin, ctx));
  } catch (err) {
    throw new BuildError(`plugin ${plugin.id}: ${describeEsbuildFailure(err, rootDir)}`);
  }
  const outDir = mkdtempSync(join(tmpdir(), 'linguaport-pack-'));
  try {
    await emitPlugin(plugin, result, { rootDir, outDir });
    const base = join(outDir, 'plugins', plugin.id);
    const entries = [{ path: 'plugin.json', data: readFileSync(join(pluginDir, 'plugin.json')) }];
    const names = readdirSync(base).filter((n) => n.endsWith('.js') || n.endsWith('.css')).sort();
    const js = names.find((n) => n.endsWith('.js'));
    const css = names.find((n) => n.endsWith('.css')) ?? null;
    entries.push({ path: `bundle/${js}`, data: readFileSync(join(base, js)) });
    if (css) entries.push({ path: `bundle/${css}`, data: readFileSync(join(base, css)) });
    const locales = {};
    for (const locale of sdk.LOCALES) {
      locales[locale] = `locales/${locale}.json`;
      entries.push({ path: locales[locale], data: readFileSync(plugin.localeFiles[locale]) });
    }
    const logoName = LOGO_NAMES.find((n) => existsSync(join(pluginDir, n))) ?? null;
    if (logoName) entries.push({ path: logoName, data: readFileSync(join(pluginDir, logoName)) });
    let server = null;
    if (plugin.manifest.server) {
      server = 'server/index.mjs';
      entries.push({ path: server, data: await bundleServer(plugin, rootDir) });
    }
    return {
      manifest: plugin.manifest,
      entries,
      layout: { bundle: `bundle/${js}`, css: css && `bundle/${css}`, locales, logo: logoName, server },
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * Packages (the SDK, zod, kysely) stay imports the host resolves; the workspace's packages below the
 * SDK (@linguaport/speaker-model...) are TypeScript no host resolves, so they are compiled into the part.
 */
const hostPackagesExternal = {
  name: 'linguaport-host-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (/^@linguaport\/(?!sdk(\/|$))/.test(args.path) ? undefined : { path: args.path, external: true }));
  },
};

/** The server part as one ESM file (see hostPackagesExternal). */
export async function bundleServer(plugin, rootDir) {
  const entry = join(plugin.dir, plugin.manifest.server);
  if (!existsSync(entry)) throw new BuildError(`${plugin.source}: server entry ${plugin.manifest.server} does not exist`);
  try {
    const out = await esbuild.build({
      absWorkingDir: rootDir,
      entryPoints: [entry],
      bundle: true,
      plugins: [hostPackagesExternal],
      format: 'esm',
      platform: 'node',
      target: 'node20',
      write: false,
      logLevel: 'silent',
      loader: { [extname(entry) || '.ts']: 'ts' },
    });
    return Buffer.from(out.outputFiles[0].contents);
  } catch (err) {
    throw new BuildError(`plugin ${plugin.id} server part: ${describeEsbuildFailure(err, rootDir)}`);
  }
}
