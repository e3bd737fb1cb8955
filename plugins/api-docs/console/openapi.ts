/** The parts of an OpenAPI 3.1 document this renderer reads. */
export interface Schema {
  type?: string | string[];
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  schema?: Schema;
  description?: string;
}

export interface Operation {
  operationId: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  security?: Array<Record<string, string[]>>;
  'x-permission'?: string[];
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  tags?: Array<{ name: string }>;
}

export interface OperationEntry {
  method: string;
  path: string;
  op: Operation;
}

export function operations(doc: OpenApiDocument): OperationEntry[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
}

/** A short, readable type: `string`, `integer ≥ 1`, `"a" | "b"`, `object`, `string[]`. */
export function typeLabel(s: Schema | undefined): string {
  if (!s) return 'any';
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.anyOf || s.oneOf) return (s.anyOf ?? s.oneOf)!.map(typeLabel).join(' | ');
  const type = Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'any');
  if (type === 'array') return `${typeLabel(s.items)}[]`;
  const bounds = [s.minimum !== undefined ? `≥ ${s.minimum}` : '', s.maximum !== undefined ? `≤ ${s.maximum}` : '', s.format ?? ''].filter(Boolean).join(', ');
  return bounds ? `${type} (${bounds})` : type;
}

/** A JSON body that fits the schema, to start the try-it-out editor from. */
export function example(s: Schema | undefined, depth = 0): unknown {
  if (!s || depth > 4) return null;
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum[0];
  if (s.anyOf?.length || s.oneOf?.length) return example((s.anyOf ?? s.oneOf)![0], depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, example(v, depth + 1)]));
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      return '';
    default:
      return null;
  }
}

/** `/dictType/{id}` with `{id: 3}` -> `/dictType/3` (values encoded). */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}
