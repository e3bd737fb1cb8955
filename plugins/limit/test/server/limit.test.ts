import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The limit plugin's one call (icon names for the picker); the tree calls are the kernel's and tested there.

let kernel: TestKernel;
let admin: string;

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['limit'] });
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
