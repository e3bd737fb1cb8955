import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startKernel, type TestKernel } from '../../../../core/server/test/support/kernel.js';

// The limit plugin's one call (icon names for the picker); the tree calls are the kernel's and tested there.

const PLUGIN_DIR = join(import.meta.dirname, '..', '..');
let kernel: TestKernel;
let admin: string;

beforeAll(async () => {
  kernel = await startKernel({ logLevel: 'warn' }, {}, (config) => {
    config.registryFile = join(config.dataDir, 'registry.json');
    writeFileSync(config.registryFile, JSON.stringify({ plugins: [{ id: 'limit', path: PLUGIN_DIR, enabled: true }] }));
  });
  admin = await kernel.login('admin', ADMIN_PASSWORD);
}, 120_000);

afterAll(async () => {
  await kernel?.shutdown();
});

describe('icon names', () => {
  it('lists every Blueprint icon name once, sorted, to a signed-in user', async () => {
    const names = (await kernel.call('GET', '/api/limit/iconNames', admin)).body.data as string[];
    expect(names.length).toBeGreaterThan(400);
    expect(names).toEqual(expect.arrayContaining(['people', 'key', 'shield', 'translate']));
    expect(names).toEqual([...new Set(names)].sort());
  });

  it('answers 601 without a session', async () => {
    expect((await kernel.call('GET', '/api/limit/iconNames', null)).body.code).toBe(601);
  });

  it('puts the /limit menu under the system group of the permission tree', async () => {
    const tree = (await kernel.call('GET', '/api/permissionMenu/getAllPermissionMenu', admin)).body.data as Array<{ key: string; children: Array<{ path: string }> }>;
    expect(tree.find((n) => n.key === 'group:system')!.children.map((c) => c.path)).toContain('/limit');
  });
});
