import { describe, expect, it } from 'vitest';
import { parseManifest } from '@linguaport/sdk/shared';
import { checkExternalTools, declaredTools, deploymentTools, describeMissingTools, featureUnavailable } from '../src/preflight.js';

const manifest = (id: string, tools: unknown[]) => parseManifest({ id, version: '1.0.0', name: { 'zh-CN': id, 'en-US': id }, sdk: '^1.0.0', i18n: ['x'], tools });

describe('external tools declared in the manifests', () => {
  it("checks each enabled plugin's runtime commands once, naming the feature's purpose and package", () => {
    const tools = declaredTools([
      manifest('area-a', [
        { command: 'lp-missing-tool', package: 'lp-pkg', feature: 'widgets', purpose: 'drawing widgets' },
        { package: 'lp-pkg-data', feature: 'widgets', purpose: 'widget data' },
        { command: 'lp-test-only', package: 'lp-test', feature: 'widgets', purpose: 'x', stage: 'test' },
        { command: 'lp-driver-tool', feature: 'gpu', purpose: 'comes with a driver' },
        { command: 'sh', probe: ['-c', 'exit 3'], package: 'dash', feature: 'shell', purpose: 'a shell that fails its probe' },
      ]),
      manifest('area-b', [{ command: 'lp-missing-tool', package: 'lp-pkg', feature: 'widgets', purpose: 'drawing widgets again' }]),
    ]);
    expect(tools.map((t) => t.name)).toEqual(['lp-missing-tool', 'sh -c exit 3']);
    const statuses = checkExternalTools(process.env, tools);
    expect(featureUnavailable('widgets', statuses)).toBe('lp-missing-tool missing (Debian package lp-pkg)');
    expect(featureUnavailable('shell', statuses)).toBe('sh -c exit 3 missing (Debian package dash)');
    expect(describeMissingTools(statuses)).toEqual(['drawing widgets is unavailable: lp-missing-tool missing (Debian package lp-pkg)', 'a shell that fails its probe is unavailable: sh -c exit 3 missing (Debian package dash)']);
  });

  it("reads the repository's deployment set: the Apertium engine's tools come from its manifest", () => {
    const apertium = deploymentTools().filter((t) => t.feature === 'apertium').map((t) => `${t.name} (${t.debianPackage})`);
    expect(apertium).toEqual(['apertium (apertium)', 'apertium-wblank-mode (apertium)', 'lt-proc (lttoolbox)', 'apertium-apy (apertium-apy)', '/usr/bin/python3 -c import tornado, apertium_apy (apertium-apy)']);
  });
});
