// Walking every route of a running server: each route's path, query and body filled with plausible
// values from the server's own OpenAPI document, so a test can make one thing wrong at a time.

export type Json = Record<string, any>;

/** A plausible value for a JSON schema, so that one malformed field is the only thing wrong. */
export function example(s: Json | undefined, depth = 0): unknown {
  if (!s || depth > 4) return 'x';
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const alternatives = s.anyOf ?? s.oneOf ?? s.allOf;
  if (Array.isArray(alternatives)) return example(alternatives.find((a: Json) => a.type !== 'null') ?? alternatives[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => example(s.items, depth + 1));
    case 'object':
      return Object.fromEntries(Object.entries((s.properties ?? {}) as Record<string, Json>).map(([n, p]) => [n, example(p, depth + 1)]));
    case 'null':
      return null;
    default:
      return s.format === 'email' ? 'a@b.cn' : 'x';
  }
}

export interface Operation {
  method: string;
  /** fastify form: /api/user/:id */
  url: string;
  pathParams: string[];
  query: Json;
  body: unknown;
  bodyFields: string[];
}

/** Every route of the running server with plausible query and body values, from its OpenAPI document. */
export function routeOperations(routes: readonly { method: string; url: string }[], doc: Json, skip: ReadonlySet<string> = new Set()): Operation[] {
  const out: Operation[] = [];
  for (const route of routes) {
    if (skip.has(`${route.method} ${route.url}`)) continue;
    const op = doc.paths?.[route.url.slice(4).replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[route.method.toLowerCase()] as Json | undefined;
    const params = (op?.parameters ?? []) as Json[];
    const bodySchema = op?.requestBody?.content?.['application/json']?.schema as Json | undefined;
    const body = bodySchema ? example(bodySchema) : undefined;
    out.push({
      method: route.method,
      url: route.url,
      pathParams: [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!),
      query: Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, String(example(p.schema))])),
      body,
      bodyFields: body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [],
    });
  }
  return out;
}

export const address = (url: string, fill: (name: string) => string) => url.replace(/:([A-Za-z0-9_]+)/g, (_, n: string) => encodeURIComponent(fill(n)));


/**
 * Row count and a content digest of every table in the kernel's schema (pg-boss keeps its own), but
 * those that change by design (the operation log records refused calls too).
 */
export async function tableDigests(database: { query<T>(sql: string, params: unknown[]): Promise<T[]> }, changesByDesign: ReadonlySet<string> = new Set(['operation_log'])): Promise<Record<string, string>> {
  const tables = await database.query<{ table_name: string }>(
    `select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
    [],
  );
  const out: Record<string, string> = {};
  for (const { table_name } of tables) {
    if (changesByDesign.has(table_name)) continue;
    const [row] = await database.query<{ n: string; digest: string }>(`select count(*)::text as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${table_name}" t`, []);
    out[table_name] = `${row!.n} ${row!.digest}`;
  }
  return out;
}
