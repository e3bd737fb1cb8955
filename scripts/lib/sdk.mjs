import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { writeFileAtomic } from './files.mjs';
import { contentHash } from './integrity.mjs';

/**
 * The build validates with the SDK's own TypeScript (one schema for build, server and upload):
 * esbuild compiles the shared modules into one ESM file under node_modules/.cache (so `zod`
 * resolves from the workspace) and Node imports it.
 */
export async function loadSdk(rootDir) {
  const shared = join(rootDir, 'plugin-sdk', 'src', 'shared');
  const result = await esbuild.build({
    stdin: {
      contents: [
        `export { parseManifest, LOCALES, registryRouteOf, slotTable } from ${JSON.stringify(join(shared, 'manifest.ts'))};`,
        `export { satisfies } from ${JSON.stringify(join(shared, 'semver.ts'))};`,
        `export { SDK_VERSION } from ${JSON.stringify(join(shared, 'version.ts'))};`,
      ].join('\n'),
      resolveDir: rootDir,
      loader: 'ts',
    },
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  const file = join(rootDir, 'node_modules', '.cache', 'linguaport-build', `sdk-${contentHash(code)}.mjs`);
  if (!existsSync(file)) writeFileAtomic(file, code);
  return import(pathToFileURL(file).href);
}
