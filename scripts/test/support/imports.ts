import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

// What the repository's checks of imports share: which files are code, and what a file imports.

const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', 'test-results', 'data']);
const CODE = /\.[cm]?[jt]sx?$/;

/** Every code file below `dir`, skipping installed packages, build output and hidden folders. */
export function codeFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const e of readdirSync(at, { withFileTypes: true })) {
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) walk(join(at, e.name));
      } else if (CODE.test(e.name)) out.push(join(at, e.name));
    }
  };
  walk(dir);
  return out;
}

/**
 * Specifiers a file imports, with their offset in the text: import/export from, import(), require(),
 * require.resolve(), createRequire(...)(), reference paths and types.
 */
export function importSpecifiers(text: string): { spec: string; pos: number }[] {
  const info = ts.preProcessFile(text, true, true);
  const specs = [...info.importedFiles, ...info.referencedFiles, ...info.typeReferenceDirectives].map((f) => ({ spec: f.fileName, pos: f.pos }));
  for (const m of text.matchAll(/(?:require\.resolve|createRequire\([^)]*\))\(\s*(['"])([^'"\s]+)\1/g)) specs.push({ spec: m[2]!, pos: m.index! });
  return specs.sort((a, b) => a.pos - b.pos);
}
