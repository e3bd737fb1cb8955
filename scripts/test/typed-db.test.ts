import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeFiles } from './support/imports.js';

// A plugin that uses its database declares its tables (`defineServerPlugin<Tables>`, see the SDK README),
// so every query of `ctx.db` is typed; a cast (`ctx.db as Kysely<...>`) or an untyped `ctx.db` is the
// `Kysely<any>` the typed context replaces.

const ROOT = join(import.meta.dirname, '..', '..');

function serverFiles(plugin: string): string[] {
  return codeFiles(join(ROOT, 'plugins', plugin, 'server')).map((abs) => relative(ROOT, abs).split(sep).join('/'));
}

describe('plugins type their database', () => {
  it('every plugin using ctx.db declares its tables, and none casts ctx.db', () => {
    const plugins = codeFiles(join(ROOT, 'plugins'))
      .map((abs) => relative(ROOT, abs).split(sep))
      .filter((parts) => parts[2] === 'server' && parts[3] === 'index.ts')
      .map((parts) => parts[1]!);
    expect(plugins.length).toBeGreaterThan(30);
    const untyped: string[] = [];
    const casts: string[] = [];
    for (const plugin of plugins) {
      const texts = serverFiles(plugin).map((p) => [p, readFileSync(join(ROOT, p), 'utf8')] as const);
      const usesDb = texts.some(([, t]) => /\bctx\.db\b|\{[^}]*\bdb\b[^}]*\}\s*=\s*ctx\b/.test(t));
      const typed = texts.some(([p, t]) => p.endsWith('/server/index.ts') && /defineServerPlugin<\w+>\(/.test(t));
      if (usesDb && !typed) untyped.push(plugin);
      for (const [p, t] of texts) if (/\bctx\.db\s+as\b/.test(t)) casts.push(p);
    }
    expect(untyped).toEqual([]);
    expect(casts).toEqual([]);
  });
});
