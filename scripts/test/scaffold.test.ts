import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM build code without type declarations
import { pluginNames, renderTemplate, sdkMajor, validatePluginId } from '../lib/scaffold.mjs';

const ROOT = join(import.meta.dirname, '..', '..');

describe('scaffold names', () => {
  it('derives the route, view and table names from a dashed id', () => {
    expect(pluginNames('demo-x2')).toEqual({ __ID__: 'demo-x2', __CAMEL__: 'demoX2', __PASCAL__: 'DemoX2', __TABLE__: 'demo_x2_items' });
  });

  it('accepts manifest-valid ids and refuses the others with one line', () => {
    expect(validatePluginId('glossary')).toBeNull();
    expect(validatePluginId('Glossary')).toMatch(/^invalid plugin id "Glossary"/);
    expect(validatePluginId('g')).toMatch(/invalid plugin id/);
    expect(validatePluginId('9lives')).toMatch(/invalid plugin id/);
    expect(validatePluginId('term--base')).toMatch(/doubled or trailing dashes/);
    expect(validatePluginId('term-')).toMatch(/doubled or trailing dashes/);
  });
});

describe('a scaffolded plugin', () => {
  // Made inside the repository (its imports resolve through the workspace's node_modules), never in plugins/.
  const scratch = mkdtempSync(join(ROOT, '.tmp', 'scaffold-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('has the layout of the areas (typed tables, shared schemas, server, console, tests, README) and passes its own tests as generated', () => {
    const dir = join(scratch, 'demo-x2');
    renderTemplate(join(ROOT, 'scripts', 'templates', 'plugin'), dir, { ...pluginNames('demo-x2'), __SDK_MAJOR__: sdkMajor(ROOT) });
    for (const file of ['plugin.json', 'package.json', 'README.md', 'shared/schemas.ts', 'server/tables.ts', 'server/index.ts', 'console/index.tsx', 'locales/en-US.json', 'locales/zh-CN.json', 'test/server/demo-x2.test.ts', 'test/console/demo-x2.test.tsx']) {
      expect(readFileSync(join(dir, file), 'utf8'), file).not.toMatch(/__(ID|CAMEL|PASCAL|TABLE|SDK_MAJOR)__/);
    }
    expect(readFileSync(join(dir, 'server', 'tables.ts'), 'utf8')).toContain('export interface DemoX2Database');
    // A config of its own, as a partner's repository would have: the repository's projects would not include this folder.
    writeFileSync(join(scratch, 'vitest.config.mjs'), "export default { test: { include: ['**/*.test.{ts,tsx}'], testTimeout: 60000, hookTimeout: 120000 } };\n");
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', join(scratch, 'vitest.config.mjs'), '--root', dir, '--reporter=dot'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 280_000,
      env: { ...process.env, LINGUAPORT_CHECK_RESPONSES: '1', NO_COLOR: '1' },
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/Tests\s+5 passed/);
  }, 300_000);
});
