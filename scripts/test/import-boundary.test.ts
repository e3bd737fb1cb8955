import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, posix, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeFiles, importSpecifiers } from './support/imports.js';

// A plugin reaches the platform through @linguaport/sdk alone (its tests through
// @linguaport/sdk/testing): no file under plugins/ imports the kernel (core/) or another plugin's
// folder. The workspace packages under packages/ (@linguaport/speaker-model...) are heavy server-side
// implementations: a plugin's server part, tests and benches may import them, its console side (what
// reaches the browser bundle) may not, and a package imports neither the kernel nor a plugin.
// The scaffold's template is checked as the plugin it becomes.

const ROOT = join(import.meta.dirname, '..', '..');
const TEMPLATE = 'scripts/templates/plugin';

export interface SourceFile {
  /** Repository-relative, with forward slashes: `plugins/<id>/...`. */
  path: string;
  text: string;
}

/** Where a bare specifier lands when it names a workspace package or a folder of the repository, or null. */
function bareTarget(spec: string, workspacePackages: Record<string, string>): string | null {
  if (/^(core|plugins)(\/|$)/.test(spec)) return spec;
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
  if (name === '@linguaport/sdk') return null;
  const dir = workspacePackages[name];
  return dir ? posix.join(dir, spec.slice(name.length)) : null;
}

/**
 * Every import of a plugin's file that lands in core/ or in another plugin's folder, as
 * `file:line imports 'spec' (why)`. `workspacePackages` maps package names to their folders
 * (`@linguaport/server` -> `core/server`), for bare imports of a workspace.
 */
export function boundaryViolations(files: SourceFile[], workspacePackages: Record<string, string> = {}): string[] {
  const out: string[] = [];
  for (const file of files) {
    const own = /^plugins\/([^/]+)\//.exec(file.path)?.[1];
    const inPackage = /^packages\/[^/]+\//.test(file.path);
    if (!own && !inPackage) continue;
    // The folders that never reach a console bundle (scripts/lib/plugin.mjs NOT_CONSOLE_INPUTS).
    const consoleSide = !!own && !/^plugins\/[^/]+\/(server|test|bench|node_modules|dist)\//.test(file.path);
    for (const { spec, pos } of importSpecifiers(file.text)) {
      let target: string | null;
      if (spec.startsWith('.')) target = posix.normalize(posix.join(posix.dirname(file.path), spec));
      else if (isAbsolute(spec)) target = relative(ROOT, spec).split(sep).join('/');
      else target = bareTarget(spec, workspacePackages);
      if (target === null) continue;
      const plugin = /^plugins\/([^/]+)/.exec(target)?.[1];
      const why = /^core(\/|$)/.test(target)
        ? 'the kernel: use @linguaport/sdk'
        : plugin && plugin !== own
          ? `plugin ${plugin}'s folder`
          : consoleSide && /^packages\//.test(target)
            ? 'a server-side package: the console bundle must not pull it'
            : null;
      if (!why) continue;
      const line = file.text.slice(0, pos).split('\n').length;
      out.push(`${file.path}:${line} imports '${spec}' (${why})`);
    }
  }
  return out;
}

/** Workspace packages of core/, packages/ and plugins/, by name: `@linguaport/server` -> `core/server`. */
function workspacePackages(): Record<string, string> {
  const map: Record<string, string> = {};
  for (const top of ['core', 'packages', 'plugins']) {
    for (const e of readdirSync(join(ROOT, top), { withFileTypes: true })) {
      const json = join(ROOT, top, e.name, 'package.json');
      if (e.isDirectory() && existsSync(json)) map[JSON.parse(readFileSync(json, 'utf8')).name] = `${top}/${e.name}`;
    }
  }
  return map;
}

function repositoryPluginFiles(): SourceFile[] {
  const toRepo = (abs: string) => relative(ROOT, abs).split(sep).join('/');
  const plugins = [...codeFiles(join(ROOT, 'plugins')), ...codeFiles(join(ROOT, 'packages'))].map((abs) => ({ path: toRepo(abs), text: readFileSync(abs, 'utf8') }));
  // The template's files sit where `npm run new-plugin` puts them: plugins/<id>/...
  const template = codeFiles(join(ROOT, TEMPLATE)).map((abs) => ({ path: `plugins/__ID__/${relative(join(ROOT, TEMPLATE), abs).split(sep).join('/')}`, text: readFileSync(abs, 'utf8') }));
  return [...plugins, ...template];
}

describe('import boundary of plugins', () => {
  it('names each import that climbs into core/ or another plugin, and lets the SDK and the plugin itself through', () => {
    // Specifiers are split so that the dependencies test, which reads this file, does not take them for imports.
    const q = (spec: string) => `'${spec}'`;
    const text = [
      `import { startKernel } from ${q('../../../../core/server/test/support/kernel.js')};`,
      `import { startTestKernel } from ${q('@linguaport/sdk/testing')};`,
      `import { plugin } from ${q('../../server/index.js')};`,
      `export * from ${q('../../../glossary/shared/schemas.js')};`,
      `const late = await import(${q('../../../../core/server/src/server.js')});`,
      `const required = require(${q('core/server/src/config.js')});`,
      `import type { Config } from ${q('@linguaport/server/src/config.js')};`,
      `import { z } from ${q('zod')};`,
      `import { join } from ${q('node:path')};`,
      `import { trainUbm } from ${q('@linguaport/speaker-model')};`,
    ].join('\n');
    const packages = { '@linguaport/server': 'core/server', '@linguaport/speaker-model': 'packages/speaker-model' };
    const found = boundaryViolations(
      [
        { path: 'plugins/term/test/server/term.test.ts', text },
        { path: 'core/server/src/fine.ts', text },
        { path: 'plugins/voiceprint/console/index.tsx', text: `import { trainUbm } from ${q('@linguaport/speaker-model')};\nimport { api } from ${q('@linguaport/sdk/console')};` },
        { path: 'plugins/voiceprint/shared/schemas.ts', text: `export { GMM_UBM_METHOD } from ${q('@linguaport/speaker-model')};` },
        { path: 'plugins/voiceprint/server/models.ts', text: `import { trainUbm } from ${q('@linguaport/speaker-model')};` },
        { path: 'packages/speaker-model/src/gmm.ts', text: `import { x } from ${q('../../../core/server/src/x.js')};\nimport { y } from ${q('../../../plugins/tm/server/y.js')};\nimport { z } from ${q('./features.js')};` },
      ],
      packages,
    );
    expect(found).toEqual([
      "plugins/term/test/server/term.test.ts:1 imports '../../../../core/server/test/support/kernel.js' (the kernel: use @linguaport/sdk)",
      "plugins/term/test/server/term.test.ts:4 imports '../../../glossary/shared/schemas.js' (plugin glossary's folder)",
      "plugins/term/test/server/term.test.ts:5 imports '../../../../core/server/src/server.js' (the kernel: use @linguaport/sdk)",
      "plugins/term/test/server/term.test.ts:6 imports 'core/server/src/config.js' (the kernel: use @linguaport/sdk)",
      "plugins/term/test/server/term.test.ts:7 imports '@linguaport/server/src/config.js' (the kernel: use @linguaport/sdk)",
      "plugins/voiceprint/console/index.tsx:1 imports '@linguaport/speaker-model' (a server-side package: the console bundle must not pull it)",
      "plugins/voiceprint/shared/schemas.ts:1 imports '@linguaport/speaker-model' (a server-side package: the console bundle must not pull it)",
      "packages/speaker-model/src/gmm.ts:1 imports '../../../core/server/src/x.js' (the kernel: use @linguaport/sdk)",
      "packages/speaker-model/src/gmm.ts:2 imports '../../../plugins/tm/server/y.js' (plugin tm's folder)",
    ]);
  });

  it('no file under plugins/ or packages/ (nor the scaffold template) imports core/ or another plugin, and no console side a package', () => {
    const files = repositoryPluginFiles();
    expect(files.length).toBeGreaterThan(50);
    expect(boundaryViolations(files, workspacePackages())).toEqual([]);
  });
});
