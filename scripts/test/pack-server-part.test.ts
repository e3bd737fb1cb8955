import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleServer } from '../lib/pack.mjs';

// An uploaded plugin's server part resolves `@linguaport/sdk/...` through the host (the compiled SDK);
// a workspace package below the SDK (@linguaport/speaker-model) has no compiled copy on the host, so
// the packer compiles it into the part.
const ROOT = join(import.meta.dirname, '..', '..');

describe('packing a server part', () => {
  it('compiles the workspace packages in and leaves the SDK and npm packages as imports', async () => {
    const dir = join(ROOT, 'plugins', 'engine-voiceprint-local');
    const code = (await bundleServer({ id: 'engine-voiceprint-local', dir, source: 'plugins/engine-voiceprint-local/plugin.json', manifest: { server: 'server/index.ts' } }, ROOT)).toString('utf8');
    const imports = [...code.matchAll(/\bfrom\s*["']([^"']+)["']/g)].map((m) => m[1]);
    expect(imports).toContain('@linguaport/sdk/server');
    expect(imports).toContain('zod');
    expect(imports.filter((s) => s!.startsWith('@linguaport/') && !s!.startsWith('@linguaport/sdk/'))).toEqual([]);
    expect(code).toMatch(/function trainUbmInSteps\(/);
  });
});
