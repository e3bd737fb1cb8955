import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '@linguaport/sdk/shared';
import { managementPermissions } from '../../../../core/server/src/plugins/management-routes.js';
import { NS } from '../../console/ns.js';

// The management API is served by the kernel under this plugin's id; the keys it checks must be
// the ones this manifest puts into the permission tree, or grants would not reach the API.
describe('plug-in manifest', () => {
  const manifest = parseManifest(JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'plugin.json'), 'utf8')));

  it('declares exactly the permission keys the kernel routes check, under /plugIn', () => {
    expect(manifest.permissions).toEqual(managementPermissions);
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
