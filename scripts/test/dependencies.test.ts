import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeFiles, importSpecifiers } from './support/imports.js';

// Every package the code imports is declared (root package.json, or a workspace's), and every
// declared package is imported somewhere, or named below with the reason it is not.

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCES = ['core', 'plugin-sdk', 'packages', 'plugins', 'scripts', 'tests'];

/** Declared and never imported, on purpose. */
const NOT_IMPORTED: Record<string, string> = {
  tsx: 'loaded by name: node --import tsx (npm start -- --dev, pack-plugin, plugin-key, benchmarks, tests that spawn TypeScript)',
  'happy-dom': "vitest's DOM for the console tests, named by their environment docblock",
  '@types/node': "types of Node's own modules (tsconfig types: ['node'])",
  '@blueprintjs/table': 'chosen for the virtualised grids of areas not built yet (CAT segments, memories, term bases: ARCHITECTURE.md); PagedTable uses HTMLTable',
};

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

function sourceFiles(): string[] {
  return SOURCES.flatMap((top) => codeFiles(join(ROOT, top)));
}

/** The package a specifier names (`@scope/name/deep` -> `@scope/name`), or null for files, Node's modules and virtual modules. */
export function packageOf(spec: string): string | null {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.includes(':')) return null;
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
  return builtinModules.includes(name) ? null : name;
}

/** Specifiers a file imports: import/export from, import(), require(), require.resolve(), createRequire(...)(), reference types. */
export function importsOf(text: string): string[] {
  return importSpecifiers(text).map((i) => i.spec);
}

function workspaces(): { dir: string; json: Record<string, any> }[] {
  const root = readJson(join(ROOT, 'package.json'));
  const dirs = (root.workspaces as string[]).flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [join(ROOT, pattern)];
    const parent = join(ROOT, pattern.slice(0, -2));
    return readdirSync(parent, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(parent, e.name));
  });
  return dirs.flatMap((dir) => {
    try {
      return [{ dir, json: readJson(join(dir, 'package.json')) }];
    } catch {
      return [];
    }
  });
}

const depsOf = (json: Record<string, any>) => [...Object.keys(json.dependencies ?? {}), ...Object.keys(json.devDependencies ?? {}), ...Object.keys(json.peerDependencies ?? {}), ...Object.keys(json.optionalDependencies ?? {})];

describe('declared packages', () => {
  const root = readJson(join(ROOT, 'package.json'));
  const ws = workspaces();
  const workspaceNames = new Set(ws.map((w) => w.json.name as string));
  const declared = new Set([...depsOf(root), ...ws.flatMap((w) => depsOf(w.json))]);
  const imported = new Map<string, string>();
  for (const file of sourceFiles()) {
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      const name = packageOf(spec);
      if (name && !imported.has(name)) imported.set(name, relative(ROOT, file));
    }
  }

  it('reads every kind of import', () => {
    const text = [
      "import a from 'a';",
      "import type { B } from '@b/b/deep';",
      "export * from 'c';",
      "const d = await import('d/sub.js');",
      "const e = require('e');",
      // Split so that the scan of this file does not read them as imports of its own.
      "const f = require.resolve(" + "'f');",
      "const g = createRequire(import.meta.url)(" + "'g/lib/x.js');",
      "import h from 'node:fs';",
      "import i from './i.js';",
      "import 'path';",
    ].join('\n');
    expect(importsOf(text).map(packageOf).filter(Boolean).sort()).toEqual(['@b/b', 'a', 'c', 'd', 'e', 'f', 'g']);
  });

  it('declares every package the code imports', () => {
    const undeclared = [...imported].filter(([name]) => !declared.has(name) && !workspaceNames.has(name)).map(([name, file]) => `${name} (imported by ${file})`);
    expect(undeclared).toEqual([]);
  });

  it('imports every declared package, or says why not', () => {
    const used = (name: string) => {
      if (imported.has(name) || name in NOT_IMPORTED) return true;
      // @types/x types a package x that is imported.
      const typed = /^@types\/(.+)$/.exec(name)?.[1];
      return typed !== undefined && imported.has(typed.includes('__') ? `@${typed.replace('__', '/')}` : typed);
    };
    expect([...declared].filter((name) => !used(name))).toEqual([]);
  });

  it('names only declared packages as exceptions', () => {
    expect(Object.keys(NOT_IMPORTED).filter((name) => !declared.has(name))).toEqual([]);
  });
});
