import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestKernel, testConfig as kitTestConfig, type KernelConfig, type KernelOptions, type TestKernel } from '@linguaport/sdk/testing';

// The kernel's tests start it through the SDK's testing kit, as plugins' tests do; what is here is
// the kernel's own: its fixture plugins (the default deployment set) and a built dist.
export { ADMIN_PASSWORD, createUserWithRole, encryptFor, type TestKernel } from '@linguaport/sdk/testing';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const FIXTURE_REGISTRY = join(FIXTURES, 'registry.json');

export function testConfig(dataDir: string, databaseUrl: string | null, overrides: Partial<KernelConfig> = {}): KernelConfig {
  return kitTestConfig(dataDir, databaseUrl, { registryFile: FIXTURE_REGISTRY, ...overrides });
}

export function startKernel(
  overrides: Partial<KernelConfig> = {},
  options: KernelOptions = {},
  /** Runs before the server starts, with its config (to place plugin config files, a dist...). */
  prepare?: (config: KernelConfig) => void,
): Promise<TestKernel> {
  return startTestKernel({ config: { logLevel: 'info', registryFile: FIXTURE_REGISTRY, ...overrides }, options, prepare });
}

/** Writes a dist folder like the build's: registry.json, one plugin bundle, the console page. */
export function writeDist(distDir: string, registry: object): void {
  mkdirSync(join(distDir, 'plugins', 'notes'), { recursive: true });
  mkdirSync(join(distDir, 'console', 'assets'), { recursive: true });
  writeFileSync(join(distDir, 'registry.json'), JSON.stringify(registry));
  writeFileSync(join(distDir, 'plugins', 'notes', 'notes-abc123.js'), 'System.register([], function () { return {}; });');
  writeFileSync(join(distDir, 'console', 'index.html'), '<!doctype html><title>Linguaport</title><div id="root"></div>');
  writeFileSync(join(distDir, 'console', 'assets', 'main-abc.js'), 'console.log(1)');
}
