import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validationMessage, validationMessages, ValidationKeys } from '@linguaport/sdk/shared';

// A schema's message is a key (`validation.userNameLength`) that the server and the forms read
// out. A key with no text would reach the user raw: walk every key the code names and find its
// text in both languages.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SOURCES = [join(ROOT, 'core', 'server', 'src'), join(ROOT, 'core', 'console', 'src'), join(ROOT, 'plugin-sdk', 'src'), join(ROOT, 'plugins')];
const SKIP_DIRS = new Set(['node_modules', 'dist', 'test', 'locales']);

function* sourceFiles(dir: string): Generator<string> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!SKIP_DIRS.has(name)) yield* sourceFiles(path);
    } else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

/** Every `'validation.x'` literal and every `ValidationKeys.x`, with where it was seen. */
function keysInCode(): Map<string, string> {
  const found = new Map<string, string>();
  const byName = ValidationKeys as Record<string, string>;
  for (const dir of SOURCES) {
    for (const file of sourceFiles(dir)) {
      const text = readFileSync(file, 'utf8');
      const where = relative(ROOT, file);
      for (const m of text.matchAll(/['"`](validation\.[A-Za-z0-9_]+)['"`]/g)) if (!found.has(m[1]!)) found.set(m[1]!, where);
      for (const m of text.matchAll(/\bValidationKeys\.([A-Za-z0-9_]+)/g)) {
        const key = byName[m[1]!] ?? `ValidationKeys.${m[1]} (no such key)`;
        if (!found.has(key)) found.set(key, where);
      }
    }
  }
  return found;
}

describe('validation keys', () => {
  const used = keysInCode();

  it('finds the keys the schemas use', () => {
    // The walk itself works: the user name and required checks are used by the user forms and the SDK.
    expect(used.has(ValidationKeys.userNameLength)).toBe(true);
    expect(used.has(ValidationKeys.required)).toBe(true);
    expect(used.size).toBeGreaterThanOrEqual(10);
  });

  it('has a text in Chinese and in English for every key the code uses', () => {
    const missing: string[] = [];
    for (const [key, where] of used) {
      for (const locale of ['zh-CN', 'en-US'] as const) {
        const text = (validationMessages[locale] as Record<string, string>)[key];
        if (!text || text === key) missing.push(`${key} (${locale}), used in ${where}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('reads every key out in the request\'s language, never as the key', () => {
    for (const key of used.keys()) {
      const zh = validationMessage(key, 'zh-CN');
      const en = validationMessage(key, 'en-US');
      expect(zh).not.toBe(key);
      expect(en).not.toBe(key);
      expect(zh).toMatch(/[\u3400-\u9fff]/);
      expect(en).not.toMatch(/[\u3400-\u9fff]/);
    }
  });
});
