import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseManifest } from '@linguaport/sdk/shared';
import { startTestKernel, type TestKernel } from '@linguaport/sdk/testing';
import { NS } from '../../console/ns.js';

// The management API is served by the kernel under this plugin's id; the keys it checks must be
// the ones this manifest puts into the permission tree, or grants would not reach the API.
describe('plug-in manifest', () => {
  const manifest = parseManifest(JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'plugin.json'), 'utf8')));

  describe('in a kernel', () => {
    let kernel: TestKernel;
    beforeAll(async () => {
      kernel = await startTestKernel({ plugins: ['plug-in'] });
    });
    afterAll(async () => {
      await kernel?.shutdown();
    });

    it('declares exactly the permission keys the kernel routes check, under /plugIn', () => {
      const keysOf = (access: (typeof kernel.routes)[number]['access']) => (typeof access !== 'object' ? [] : 'permission' in access ? [access.permission] : access.anyPermission);
      const checked = new Set(kernel.routes.filter((r) => r.pluginId === 'plug-in').flatMap((r) => keysOf(r.access)));
      expect([...checked].sort()).toEqual(manifest.permissions.map((p) => p.key).sort());
      expect(manifest.permissions.every((p) => p.menu === '/plugIn')).toBe(true);
    });
  });

  it('reads its texts from its own namespace (not the plugin id, which differs)', () => {
    expect(manifest.i18n[0]).toBe(NS);
  });

  it('has every visible string in both locales', () => {
    const en = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'locales', 'en-US.json'), 'utf8')).plugIn;
    const zh = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'locales', 'zh-CN.json'), 'utf8')).plugIn;
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    const used = new Set<string>();
    for (const file of ['PlugIn.tsx', 'UploadDialog.tsx', 'DetailsDialog.tsx', 'TrustedKeys.tsx']) {
      const src = readFileSync(join(import.meta.dirname, '..', '..', 'console', file), 'utf8');
      for (const m of src.matchAll(/\bt\('([A-Za-z_]+)'/g)) used.add(m[1]);
      expect(src).not.toContain('useTranslation()');
    }
    expect([...used].filter((k) => !(k in en))).toEqual([]);
  });
});
