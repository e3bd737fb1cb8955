import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, startServer } from '../../../scripts/lib/run-server.js';

export const ADMIN_PASSWORD = 'E2e-admin-Passw0rd';

/**
 * Builds the fixture plugins into their own dist, breaks two of them on purpose (a deleted bundle
 * for a 404, an altered one for an integrity failure), and starts one real server for the suite.
 */
export default async function globalSetup() {
  const e2eDir = join(ROOT, '.tmp', 'e2e');
  const dist = join(e2eDir, 'dist');
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(e2eDir, { recursive: true });
  const registryFile = join(ROOT, 'tests', 'fixtures', 'registry.json');
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--out', dist, '--registry', registryFile], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  const registry = JSON.parse(readFileSync(join(dist, 'registry.json'), 'utf8'));
  const fileOf = (url: string) => join(dist, url.replace(/^\//, ''));
  rmSync(fileOf(registry.plugins.missing.bundle));
  appendFileSync(fileOf(registry.plugins.tampered.bundle), '\n// altered after the build\n');

  const server = await startServer({ DIST_DIR: dist, REGISTRY_FILE: registryFile, ADMIN_PASSWORD });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_ADMIN_PASSWORD = ADMIN_PASSWORD;
  return async () => {
    await server.stop();
  };
}
