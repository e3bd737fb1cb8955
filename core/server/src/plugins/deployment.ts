import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { parseManifest, satisfies, SDK_VERSION, type PluginManifest, type ManifestRoute } from '@linguaport/sdk/shared';
import type { LocalizedName } from '../access/permission-tree.js';

/** The deployment set (`registry.json`) and each listed plugin's validated manifest. */

export interface DeployedPlugin {
  id: string;
  /** Absolute plugin folder. */
  dir: string;
  enabled: boolean;
  manifest: PluginManifest;
}

const deploymentSchema = z.object({
  plugins: z.array(z.object({ id: z.string().min(1), path: z.string().min(1), enabled: z.boolean() }).strict()),
});

function readJson(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${what} ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

export function readDeploymentSet(registryFile: string): DeployedPlugin[] {
  const parsed = deploymentSchema.safeParse(readJson(registryFile, 'the deployment set'));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`${registryFile} is invalid: ${problems}`);
  }
  const seen = new Set<string>();
  return parsed.data.plugins.map((entry) => {
    if (seen.has(entry.id)) throw new Error(`${registryFile}: plugin ${entry.id} is listed twice`);
    seen.add(entry.id);
    const dir = resolve(dirname(registryFile), entry.path);
    const manifestFile = join(dir, 'plugin.json');
    const manifest = parseManifest(readJson(manifestFile, `the manifest of plugin ${entry.id}`), manifestFile);
    if (manifest.id !== entry.id) throw new Error(`${manifestFile}: id is ${manifest.id} but ${registryFile} lists it as ${entry.id}`);
    if (!satisfies(SDK_VERSION, manifest.sdk)) {
      throw new Error(`${manifestFile}: plugin ${manifest.id} needs SDK ${manifest.sdk}, this server provides ${SDK_VERSION}`);
    }
    return { id: entry.id, dir, enabled: entry.enabled, manifest };
  });
}

function lookup(resources: unknown, dotted: string): string | undefined {
  let node = resources;
  for (const part of dotted.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Reads a route's title (`ns:key`) from the plugin's locale files, for the permission tree's names. */
export function routeTitles(plugins: DeployedPlugin[]): (manifest: PluginManifest, route: ManifestRoute) => LocalizedName {
  const locales = new Map<string, Record<string, unknown>>();
  const load = (p: DeployedPlugin, locale: string) => {
    const file = join(p.dir, 'locales', `${locale}.json`);
    const cacheKey = `${p.id}/${locale}`;
    if (!locales.has(cacheKey)) locales.set(cacheKey, existsSync(file) ? (readJson(file, 'locale file') as Record<string, unknown>) : {});
    return locales.get(cacheKey)!;
  };
  return (manifest, route) => {
    const plugin = plugins.find((p) => p.id === manifest.id);
    const [ns, key] = route.title.includes(':') ? route.title.split(/:(.*)/s) : [manifest.i18n[0], route.title];
    const text = (locale: 'zh-CN' | 'en-US') => (plugin ? lookup(load(plugin, locale)[ns], key) : undefined) ?? manifest.name[locale];
    return { zh: text('zh-CN'), en: text('en-US') };
  };
}
