import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestKernel, type TestKernel } from '@linguaport/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// core/server/src/db/schema.ts types the kernel's tables for Kysely; a migration that adds, drops or
// retypes a column without changing the interface fails here, so the types cannot drift from the tables.

const SCHEMA = join(import.meta.dirname, '..', 'src', 'db', 'schema.ts');
const TYPES: Record<string, string> = { bool: 'boolean', date: 'Date', float8: 'number', int4: 'number', int8: 'number', jsonb: 'Json', text: 'string', timestamptz: 'Date', uuid: 'string' };

/** `table -> column -> type` as schema.ts declares them, read from its text. */
function declared(): Record<string, Record<string, string>> {
  const text = readFileSync(SCHEMA, 'utf8');
  const names = Object.fromEntries([...text.matchAll(/^  (\w+): (\w+Table);$/gm)].map((m) => [m[2]!, m[1]!]));
  const out: Record<string, Record<string, string>> = {};
  for (const m of text.matchAll(/^export interface (\w+Table) \{\n([\s\S]*?)^\}/gm)) {
    const table = names[m[1]!];
    if (!table) continue;
    out[table] = Object.fromEntries([...m[2]!.matchAll(/^  (\w+): (.+);$/gm)].map((c) => [c[1]!, c[2]!]));
  }
  return out;
}

let k: TestKernel;
beforeAll(async () => {
  k = await startTestKernel({ plugins: [], builtinEngine: false });
}, 120_000);
afterAll(async () => {
  await k?.shutdown();
});

describe('the kernel schema types', () => {
  it('declare every kernel table with its columns, nullability and defaults as the migrations leave them', async () => {
    const types = declared();
    const rows = await k.database.query<{ table_name: string; column_name: string; udt_name: string; is_nullable: string; column_default: string | null }>(
      `select table_name, column_name, udt_name, is_nullable, column_default from information_schema.columns
       where table_schema = 'public' and table_name = any($1) order by table_name, ordinal_position`,
      [Object.keys(types)],
    );
    const actual: Record<string, Record<string, string>> = {};
    for (const r of rows) {
      let type = TYPES[r.udt_name] ?? `unknown ${r.udt_name}`;
      if (r.is_nullable === 'YES') type += ' | null';
      if (r.column_default !== null) type = `Generated<${type}>`;
      (actual[r.table_name] ??= {})[r.column_name] = type;
    }
    expect(Object.keys(types).length).toBeGreaterThan(25);
    expect(actual).toEqual(types);
  });

  it('leave out no table the kernel creates', async () => {
    const rows = await k.database.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    );
    expect(rows.map((r) => r.table_name).sort()).toEqual(Object.keys(declared()).sort());
  });
});
