import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { codeFiles } from './support/imports.js';

// Each plugin owns its tables; the kernel's (users, roles, engines, usage, the operation log...) are
// reached through the SDK's typed services (ctx.users, ctx.organisation, ctx.usage, ...), so the kernel
// may change them. This test names every plugin server file that still queries a kernel table, as the
// import-boundary test names imports. There are none left: a new one fails. An index on a kernel table
// counts too (the kernel creates the indexes its services need).

const ROOT = join(import.meta.dirname, '..', '..');

/** The kernel's tables, read from its migrations (`create table x`, `.createTable('x')`). */
export function kernelTables(): Set<string> {
  const names = new Set<string>();
  for (const abs of codeFiles(join(ROOT, 'core', 'server', 'src'))) {
    const text = readFileSync(abs, 'utf8');
    for (const m of text.matchAll(/create\s+table\s+(?:if\s+not\s+exists\s+)?"?(\w+)/gi)) names.add(m[1]!.toLowerCase());
    for (const m of text.matchAll(/\.createTable\(\s*['"](\w+)/g)) names.add(m[1]!.toLowerCase());
  }
  return names;
}

const BUILDER_CALLS = new Set(['selectFrom', 'insertInto', 'replaceInto', 'updateTable', 'deleteFrom', 'mergeInto', 'innerJoin', 'leftJoin', 'rightJoin', 'fullJoin', 'crossJoin', 'using', 'alterTable', 'dropTable', 'createIndex']);
/** SDK helpers that read kernel tables with the plugin's own `db`: they count as the plugin's query. */
const KERNEL_HELPERS = new Set(['operationTitleJoin', 'operationTitleColumns', 'operationModuleNames']);
const TABLE_HELPERS = new Set(['takenIgnoringCase']);
const SQL_TABLE = /\b(?:from|join|update|into|table)\s+(?:only\s+)?(?:public\.)?"?([a-z_][a-z0-9_]*)"?/gi;
/** `create [unique] index [concurrently] [if not exists] [name] on [only] table`. */
const SQL_INDEX_ON = /\bindex\s+(?:concurrently\s+)?(?:if\s+not\s+exists\s+)?(?:"?[a-z_][a-z0-9_]*"?\s+)?on\s+(?:only\s+)?(?:public\.)?"?([a-z_][a-z0-9_]*)"?/gi;
const sqlTables = (text: string) => [...text.matchAll(SQL_TABLE), ...text.matchAll(SQL_INDEX_ON)].map((m) => m[1]!.toLowerCase());

/** Whether a builder chain (`db.schema.createIndex('x').ifNotExists().on('t')`) passes through `name`. */
function chainHas(node: ts.Expression, name: string): boolean {
  while (ts.isCallExpression(node) || ts.isPropertyAccessExpression(node)) {
    if (ts.isPropertyAccessExpression(node) && node.name.text === name) return true;
    node = node.expression;
  }
  return false;
}

/** A table name as a builder takes it: `users`, `users as u`, `public.users`. */
function tableOf(literal: string): string {
  return literal.trim().split(/\s+/)[0]!.replace(/^public\./, '').replace(/"/g, '').toLowerCase();
}

/** Every place in `text` that queries one of `tables`, as `line: table (how)`. */
export function kernelQueries(path: string, text: string, tables: ReadonlySet<string>): { line: number; table: string; how: string }[] {
  // Parsing is the slow part: a file that names no kernel table (nor a helper) cannot query one.
  const words = new RegExp(`\\b(${[...tables, ...KERNEL_HELPERS].join('|')})\\b`, 'i');
  if (!words.test(text)) return [];
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: { line: number; table: string; how: string }[] = [];
  const hit = (node: ts.Node, table: string, how: string) => {
    if (tables.has(table)) out.push({ line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, table, how });
  };
  const literalsOf = (node: ts.Node | undefined): string[] => {
    if (!node) return [];
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
    if (ts.isArrayLiteralExpression(node)) return node.elements.flatMap((e) => literalsOf(e));
    return [];
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text;
      const target = node.expression.expression;
      if (BUILDER_CALLS.has(name)) for (const lit of literalsOf(node.arguments[0])) hit(node.arguments[0]!, tableOf(lit), name);
      if (name === 'on' && chainHas(target, 'createIndex')) for (const lit of literalsOf(node.arguments[0])) hit(node.arguments[0]!, tableOf(lit), 'createIndex.on');
      if (ts.isIdentifier(target) && target.text === 'sql' && (name === 'table' || name === 'id')) for (const lit of literalsOf(node.arguments[0])) hit(node, tableOf(lit), `sql.${name}`);
      if (ts.isIdentifier(target) && target.text === 'sql' && name === 'raw') for (const lit of literalsOf(node.arguments[0])) for (const table of sqlTables(lit)) hit(node, table, 'sql.raw');
    }
    // The SDK's helpers that take a table name (`takenIgnoringCase(db, 'roles', ...)`) query it for the plugin.
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && TABLE_HELPERS.has(node.expression.text)) for (const lit of literalsOf(node.arguments[1])) hit(node, tableOf(lit), node.expression.text);
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === 'sql') {
      const t = node.template;
      const parts = ts.isNoSubstitutionTemplateLiteral(t) ? [t.text] : [t.head.text, ...t.templateSpans.map((s) => s.literal.text)];
      // A substitution splits the text; `from ${x}` names no table here (x is checked where it is built).
      for (const table of sqlTables(parts.join(' \u0000 '))) hit(node, table, 'sql``');
    }
    if (ts.isIdentifier(node) && KERNEL_HELPERS.has(node.text) && !ts.isImportSpecifier(node.parent)) {
      out.push({ line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, table: node.text === 'operationModuleNames' ? 'permissions' : 'operation_titles', how: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  // One line may name several kernel tables; it is one query line.
  const seen = new Set<string>();
  out.sort((a, b) => a.line - b.line);
  return out.filter((q) => !seen.has(`${q.line}:${q.table}`) && seen.add(`${q.line}:${q.table}`));
}

/** Plugin server code (not tests, not console), repository-relative. */
function pluginServerFiles(): string[] {
  return codeFiles(join(ROOT, 'plugins'))
    .map((abs) => relative(ROOT, abs).split(sep).join('/'))
    .filter((p) => /^plugins\/[^/]+\/(server|shared)\//.test(p));
}


describe('kernel tables are not queried by plugins', () => {
  it('finds builder calls, sql templates and the kernel-reading helpers, and passes the plugin\'s own tables', () => {
    const tables = new Set(['users', 'roles', 'operation_log', 'operation_titles', 'permissions']);
    const text = [
      `const a = await db.selectFrom('users').selectAll().execute();`,
      `const b = await db.selectFrom('users as u').innerJoin('roles as r', 'r.id', 'u.id').execute();`,
      `const c = await db.selectFrom('terms').selectAll().execute();`,
      'const d = await sql`select count(*) from operation_log where ${w}`.execute(db);',
      'const e = await sql<{ n: number }>`select 1 from term_entries t left join public.roles r on true`.execute(db);',
      '// db.selectFrom(\'users\') in a comment is no query',
      "const f = 'select * from users'; // a plain string is no query either",
      'const g = sql`from ${operationTitleJoin}`;',
      `await db.updateTable('terms').set({ a: 1 }).where('id', 'in', db.selectFrom('users').select('id')).execute();`,
      `if (await takenIgnoringCase(db, 'roles', 'name', name)) throw x; if (await takenIgnoringCase(db, 'terms', 'name', n)) throw y;`,
      "await sql.raw('create index if not exists users_sort_idx on users (username, id)').execute(db);",
      'await sql`create unique index on public.roles using gin (name gin_trgm_ops)`.execute(db);',
      `await db.schema.createIndex('x_idx').ifNotExists().on('users').column('a').execute(); await db.schema.createIndex('t_idx').on('terms').column('a').execute();`,
      `socket.on('users', f); await sql\`create index terms_idx on terms (a)\`.execute(db);`,
    ].join('\n');
    expect(kernelQueries('plugins/x/server/index.ts', text, tables).map((q) => `${q.line}:${q.table}:${q.how}`)).toEqual([
      '1:users:selectFrom',
      '2:roles:innerJoin',
      '2:users:selectFrom',
      '4:operation_log:sql``',
      '5:roles:sql``',
      '8:operation_titles:operationTitleJoin',
      '9:users:selectFrom',
      '10:roles:takenIgnoringCase',
      '11:users:sql.raw',
      '12:roles:sql``',
      '13:users:createIndex.on',
    ]);
  });

  it('reads the kernel\'s tables from its migrations', () => {
    const tables = kernelTables();
    for (const t of ['users', 'roles', 'departments', 'user_department_roles', 'permissions', 'role_permissions', 'engines', 'engine_nodes', 'usage_records', 'operation_log', 'operation_titles', 'system_config', 'messages', 'sessions', 'tasks']) expect(tables).toContain(t);
  });

  it('no plugin server file queries a kernel table or indexes one', () => {
    const tables = kernelTables();
    const files = pluginServerFiles();
    expect(files.length).toBeGreaterThan(50);
    const where: string[] = [];
    for (const path of files) {
      where.push(...kernelQueries(path, readFileSync(join(ROOT, path), 'utf8'), tables).map((q) => `${path}:${q.line} ${q.table} (${q.how})`));
    }
    // An offender: reach the data through an SDK service (see plugin-sdk/src/server/kernel-data.ts,
    // ctx.users, ctx.organisation and the rest); an index the kernel's service needs goes in its migrations.
    expect(where).toEqual([]);
    // It parses every plugin server file that names a kernel table: seconds on a loaded 2-core machine.
  }, 30_000);
});
