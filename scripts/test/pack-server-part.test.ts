import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleServer } from '../lib/pack.mjs';

// An uploaded plugin's server part resolves `@linguaport/sdk/...` through the host (the compiled SDK);
// a workspace package below the SDK (@linguaport/speaker-model, media, ocr) has no compiled copy on the
// host, so the packer compiles it into the part (the spawner with it: such a part runs its own helper).
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

  it('compiles @linguaport/ocr and @linguaport/media in with the spawner they run tools through; the SDK stays the host\'s', async () => {
    const pack = async (id: string) => {
      const dir = join(ROOT, 'plugins', id);
      const code = (await bundleServer({ id, dir, source: `plugins/${id}/plugin.json`, manifest: { server: 'server/index.ts' } }, ROOT)).toString('utf8');
      const imports = [...code.matchAll(/\bfrom\s*["']([^"']+)["']/g)].map((m) => m[1]!);
      expect(imports).toContain('@linguaport/sdk/server');
      expect(imports.filter((s) => s.startsWith('@linguaport/') && !s.startsWith('@linguaport/sdk/'))).toEqual([]);
      return code;
    };
    const tesseract = await pack('engine-tesseract');
    expect(tesseract).toMatch(/function createTesseractAdapter\(/);
    expect(tesseract).toMatch(/function runTool\(/);
    const video = await pack('video');
    expect(video).toMatch(/function convertMedia\(/);
    expect(video).toMatch(/function unnamedMediaInput\(/);
  });
});
