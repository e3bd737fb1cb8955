// Types of pack.mjs for the TypeScript tests that call the packer's builder.
import type { PluginManifest } from '@linguaport/sdk/shared';

export interface PackageLayout {
  bundle: string;
  css: string | null;
  locales: Record<string, string>;
  logo: string | null;
  server: string | null;
}

export function buildPackageFiles(
  pluginDir: string,
  options: { rootDir: string; sharedModules: string[] },
): Promise<{ manifest: PluginManifest; entries: { path: string; data: Buffer }[]; layout: PackageLayout }>;

/** One plugin's server part as one ESM file: npm packages and the SDK stay imports, the workspace's other packages are compiled in. */
export function bundleServer(plugin: { id: string; dir: string; source: string; manifest: { server?: string } }, rootDir: string): Promise<Buffer>;
