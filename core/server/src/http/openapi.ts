import { z, type ZodType } from 'zod';
import type { RouteAccess, RouteDefinition } from '@linguaport/sdk/server';
import { SDK_VERSION } from '@linguaport/sdk/shared';

/**
 * The OpenAPI 3.1 document of the running server, generated from the registered route
 * definitions: their zod schemas become parameters and request bodies through zod 4's
 * `z.toJSONSchema()`, their access becomes the security requirement. Built on each request from
 * the live list, so routes registered later (uploaded plugins) appear without a restart.
 */

export interface DocumentedRoute {
  def: RouteDefinition;
  pluginId: string;
}

type JsonSchema = Record<string, unknown>;

const SECURITY_SCHEMES = {
  ApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'The personal API key (settings dialog: API key). Acts as its owner, on the routes of the scopes the owner granted (translate by default).' },
  Session: { type: 'apiKey', in: 'header', name: 'Jwt', description: 'The console session token returned by POST /login.' },
} as const;

const ENVELOPE: JsonSchema = {
  type: 'object',
  description: 'Every JSON answer: code 200 on success; otherwise the code of the error catalogue and a message.',
  properties: { code: { type: 'integer' }, msg: { type: 'string' }, data: {} },
  required: ['code', 'msg', 'data'],
};

/** zod -> JSON Schema for requests; file parts (z.instanceof(Buffer) and the like) become binary strings. */
export function toRequestSchema(schema: ZodType): { schema: JsonSchema; hasFile: boolean } {
  let hasFile = false;
  try {
    const json = z.toJSONSchema(schema, {
      io: 'input',
      target: 'draft-2020-12',
      unrepresentable: 'any',
      override(ctx) {
        const def = (ctx.zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def;
        if (def?.type === 'custom') {
          hasFile = true;
          Object.assign(ctx.jsonSchema, { type: 'string', format: 'binary' });
        }
      },
    }) as JsonSchema;
    delete json.$schema;
    return { schema: json, hasFile };
  } catch {
    // A schema zod cannot describe still appears, as an open object.
    return { schema: { type: 'object', description: 'Not describable as JSON Schema' }, hasFile };
  }
}

/** Fastify's `/user/:id` -> OpenAPI's `/user/{id}`. */
export function toOpenApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function accessText(access: RouteAccess): string {
  if (access === 'public') return 'Public: no credentials needed.';
  if (access === 'signed-in') return 'Any signed-in caller.';
  if (access === 'member') return 'A full console session of your own account (not a guest, a quick-access link or an API key).';
  if ('permission' in access) return `Needs the permission ${access.permission}.`;
  return `Needs one of the permissions ${access.anyPermission.join(', ')}.`;
}

function parametersOf(schema: ZodType | undefined, where: 'query' | 'path'): JsonSchema[] {
  if (!schema) return [];
  const json = toRequestSchema(schema).schema;
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: s,
    ...(typeof s.description === 'string' ? { description: s.description } : {}),
  }));
}

function operationOf({ def, pluginId }: DocumentedRoute): JsonSchema {
  const op: JsonSchema = {
    operationId: `${def.method.toLowerCase()}${toOpenApiPath(def.url).replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    tags: [pluginId],
    summary: def.summary ?? `${def.method} ${def.url}`,
    description: def.apiKey ? `${accessText(def.access)} API keys with the scope ${def.apiKey} reach it.` : accessText(def.access),
    parameters: [...parametersOf(def.schema?.params as ZodType | undefined, 'path'), ...parametersOf(def.schema?.query as ZodType | undefined, 'query')],
    responses: {
      '200': { description: 'The envelope; `data` carries the result. Files and streams answer with their own content type.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } } },
      '400': { description: 'Bad input; msg names each field.' },
      '403': { description: 'The caller lacks the permission.' },
    },
    // API keys reach only the routes of their scopes; every other route needs a session.
    security: def.access === 'public' ? [] : def.apiKey ? [{ ApiKey: [] }, { Session: [] }] : [{ Session: [] }],
    ...(def.apiKey ? { 'x-api-key-scope': def.apiKey } : {}),
    ...(typeof def.access === 'object' ? { 'x-permission': 'permission' in def.access ? [def.access.permission] : def.access.anyPermission } : {}),
  };
  // Paths with a parameter the params schema does not describe still need it declared.
  const declared = new Set((op.parameters as JsonSchema[]).filter((p) => p.in === 'path').map((p) => p.name));
  for (const m of def.url.matchAll(/:([A-Za-z0-9_]+)/g)) {
    if (!declared.has(m[1])) (op.parameters as JsonSchema[]).push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  if (def.schema?.body) {
    const { schema, hasFile } = toRequestSchema(def.schema.body as ZodType);
    op.requestBody = {
      required: true,
      content: hasFile ? { 'multipart/form-data': { schema } } : { 'application/json': { schema } },
    };
  }
  return op;
}

export function buildOpenApiDocument(routes: DocumentedRoute[], info: { title?: string } = {}): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const sorted = [...routes].sort((a, b) => a.def.url.localeCompare(b.def.url) || a.def.method.localeCompare(b.def.method));
  for (const route of sorted) {
    const path = toOpenApiPath(route.def.url);
    (paths[path] ??= {})[route.def.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: info.title ?? 'Linguaport API',
      version: SDK_VERSION,
      description: 'Every call answers the envelope {code, msg, data}. Authenticate with the X-Api-Key header (your API key) or a console session (Jwt header).',
    },
    servers: [{ url: '/api' }],
    tags: [...new Set(sorted.map((r) => r.pluginId))].map((name) => ({ name })),
    paths,
    components: { securitySchemes: SECURITY_SCHEMES, schemas: { Envelope: ENVELOPE } },
  };
}

/** `GET /api/openapi.json`: the document of every route registered so far (signed-in callers and API keys). */
export function openApiRoute(routes: () => DocumentedRoute[]): RouteDefinition {
  return {
    method: 'GET',
    url: '/openapi.json',
    access: 'signed-in',
    // The document of the public API: read with the default scope.
    apiKey: 'translate',
    summary: 'The OpenAPI 3.1 document of this server',
    handler: () => ({ raw: true as const, contentType: 'application/json; charset=utf-8', body: JSON.stringify(buildOpenApiDocument(routes())) }),
  };
}
