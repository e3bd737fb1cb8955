import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Codes } from '../../plugin-sdk/src/shared/envelope.js';
// @ts-expect-error: plain JavaScript build modules without declarations
import { readDeploymentSet } from '../lib/deployment.mjs';
// @ts-expect-error: plain JavaScript build modules without declarations
import { buildServer } from '../lib/server.mjs';
import { ROOT, startServer, type RunningServer } from '../lib/run-server.js';

// The production server: the build compiles the kernel, the plugins' server parts and the SDK into
// <out>/server, and plain Node (no tsx) starts it; an uploaded part's SDK imports reach the same copy.

interface ServerPart {
  id: string;
  dir: string;
  manifest: { server?: string };
}

let tmp: string;
let outDir: string;
let plugins: ServerPart[];
let server: RunningServer | null = null;

beforeAll(async () => {
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  tmp = mkdtempSync(join(ROOT, '.tmp', 'server-build-'));
  outDir = join(tmp, 'dist');
  plugins = (readDeploymentSet(join(ROOT, 'registry.json')) as { id: string; dir: string }[]).map((p) => ({
    ...p,
    manifest: JSON.parse(readFileSync(join(p.dir, 'plugin.json'), 'utf8')),
  }));
  await buildServer({ rootDir: ROOT, outDir, plugins });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

describe('the compiled server', () => {
  it('writes the kernel, each server part of the deployment set, the SDK and the files read beside the code', () => {
    const dir = join(outDir, 'server');
    // The built-in engine's plugin reads its APy launcher beside its code.
    for (const file of ['main.js', 'sdk-hooks.js', 'sdk/server.js', 'sdk/shared.js', 'sdk/package.js', 'plugins/engine-apertium/apy-launcher.py']) expect(existsSync(join(dir, file)), file).toBe(true);
    const withServer = plugins.filter((p) => p.manifest.server);
    expect(withServer.length).toBeGreaterThan(0);
    for (const p of withServer) expect(existsSync(join(dir, 'plugins', p.id, 'index.js')), p.id).toBe(true);
    // npm packages stay imports; the workspace's TypeScript is compiled in.
    const main = readFileSync(join(dir, 'main.js'), 'utf8');
    expect(main).toMatch(/from "fastify"/);
    expect(main).not.toMatch(/@linguaport\/sdk/);
  });

  it('starts with plain node (no tsx) and answers /api/health, with every built-in server part loaded', async () => {
    server = await startServer({ DIST_DIR: outDir }, { main: join(outDir, 'server', 'main.js') });
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    // A plugin's route answers through the kernel's access check: it was registered, so its part loaded.
    const plugin = await (await fetch(`${server.url}/api/user/getAllUserByPage`)).json();
    expect(plugin.code).toBe(Codes.SESSION_INVALID);
    expect((await (await fetch(`${server.url}/api/no/such`)).json()).code).toBe(Codes.NOT_FOUND);
    await server.stop();
    server = null;
  }, 120_000);

  it("resolves an uploaded part's @linguaport/sdk imports to the compiled SDK, the kernel's own copy", () => {
    // As the runtime lays it out: the package's server/index.mjs below DATA_DIR, DATA_DIR/node_modules a link.
    const dataDir = join(tmp, 'data');
    const part = join(dataDir, 'plugins', 'partner', '1.0.0', 'server', 'index.mjs');
    mkdirSync(join(part, '..'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dataDir, 'node_modules'), 'dir');
    writeFileSync(
      part,
      "import { ApiError, defineServerPlugin } from '@linguaport/sdk/server';\nimport { Codes } from '@linguaport/sdk/shared';\nimport { z } from 'zod';\n" +
        'export default defineServerPlugin({ setup() {} });\nexport { ApiError, Codes, z };\n',
    );
    const dir = join(outDir, 'server');
    const script = [
      "import { register } from 'node:module';",
      `register(${JSON.stringify(pathToFileURL(join(dir, 'sdk-hooks.js')).href)});`,
      `const part = await import(${JSON.stringify(pathToFileURL(part).href)});`,
      `const sdk = await import(${JSON.stringify(pathToFileURL(join(dir, 'sdk', 'server.js')).href)});`,
      `const shared = await import(${JSON.stringify(pathToFileURL(join(dir, 'sdk', 'shared.js')).href)});`,
      'console.log(JSON.stringify({ setup: typeof part.default.setup, sameApiError: part.ApiError === sdk.ApiError, sameCodes: part.Codes === shared.Codes, zod: typeof part.z.object }));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: tmp, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ setup: 'function', sameApiError: true, sameCodes: true, zod: 'function' });
  }, 30_000);
});
