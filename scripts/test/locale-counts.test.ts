import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Counts read naturally in both languages: "1 file", "2 files", never "file(s)". English texts with a
// count use i18next's plural keys (`key_one`, `key_other`, called with `count`); Chinese needs none.
const ROOT = join(__dirname, '..', '..');

function localeFiles(): string[] {
  const files = [join(ROOT, 'core', 'console', 'src', 'locales', 'en-US.json')];
  for (const p of readdirSync(join(ROOT, 'plugins'))) {
    const f = join(ROOT, 'plugins', p, 'locales', 'en-US.json');
    if (existsSync(f)) files.push(f);
  }
  return files;
}

function* texts(value: unknown, path: string[] = []): Generator<[string, string]> {
  if (typeof value === 'string') yield [path.join('.'), value];
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* texts(v, [...path, k]);
}

describe('English counts', () => {
  it('never writes a plural as "(s)" (an address scheme such as http(s):// is not a plural)', () => {
    const found: string[] = [];
    for (const file of localeFiles()) {
      for (const [key, text] of texts(JSON.parse(readFileSync(file, 'utf8')))) {
        if (/[A-Za-z]\(s\)(?!:\/\/)/.test(text)) found.push(`${file.slice(ROOT.length + 1)} ${key}: ${text}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('gives every plural key its singular and its plural', () => {
    const missing: string[] = [];
    for (const file of localeFiles()) {
      const keys = new Set([...texts(JSON.parse(readFileSync(file, 'utf8')))].map(([k]) => k));
      for (const k of keys) {
        const m = /^(.*)_(one|other)$/.exec(k);
        if (m && !keys.has(`${m[1]}_${m[2] === 'one' ? 'other' : 'one'}`)) missing.push(`${file.slice(ROOT.length + 1)} ${k}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
