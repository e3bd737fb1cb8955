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
  /** What the route's own declaration cannot say: a request it parses itself, another tag, other credentials. */
  extra?: {
    tag?: string;
    description?: string;
    requestBody?: ZodType;
    requestContentTypes?: string[];
    security?: Record<string, string[]>[];
  };
}

type JsonSchema = Record<string, unknown>;

const SECURITY_SCHEMES = {
  ApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'The personal API key (settings dialog: API key). Acts as its owner, on the routes of the scopes the owner granted (translate by default).' },
  Session: { type: 'apiKey', in: 'header', name: 'Jwt', description: 'The console session token returned by POST /login.' },
  SessionCookie: { type: 'apiKey', in: 'cookie', name: 'lp_token', description: "The console's session cookie, accepted in place of the Jwt header only by GET routes whose file a page element reads itself (a media player)." },
  LtKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: 'The API key of the LibreTranslate-compatible API (/lt/...), also accepted as api_key or apiKey in the body.' },
  Bearer: { type: 'http', scheme: 'bearer', description: 'The API key as a bearer token (LibreTranslate-compatible API only).' },
} as const;

const ERROR_CODE_SCHEMA: JsonSchema = {
  type: 'integer',
  description: 'The codes of the error catalogue; each operation lists those it may answer under x-error-codes.',
  enum: [200, 304, 400, 403, 404, 409, 413, 429, 500, 503, 601, 2067, 3027, 4014, 4015],
};

const ENVELOPE: JsonSchema = {
  type: 'object',
  description: 'Every JSON answer: code 200 on success; otherwise the code of the error catalogue and a message.',
  properties: { code: { $ref: '#/components/schemas/ErrorCode' }, msg: { type: 'string' }, data: {} },
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

/** What each code of the error catalogue means, as the document lists it (spec 01 section 8). */
export const ERROR_CODES: Record<number, { http: number; text: string }> = {
  400: { http: 400, text: 'Bad input: the request failed its schema or a business rule; msg names each field. Nothing changed.' },
  403: { http: 403, text: 'The caller lacks the permission the call needs, or the API key lacks its scope.' },
  404: { http: 404, text: 'Not found, or its feature area is disabled.' },
  409: { http: 409, text: 'Already exists, or in use.' },
  413: { http: 413, text: "The files are over the route's upload limit; nothing was stored." },
  429: { http: 429, text: 'Too many requests or over a cap; Retry-After says when to come back.' },
  503: { http: 503, text: 'Service interrupted: no engine node answered.' },
  601: { http: 200, text: 'Session invalid (expired, revoked or unknown token): sign in again. Sent with HTTP 200.' },
  3027: { http: 200, text: 'Queue full: try again later. Sent with HTTP 200.' },
  2067: { http: 200, text: 'File not found on the server. Sent with HTTP 200.' },
  304: { http: 200, text: "Authentication failure; msg says which ('Bad credentials', 'Full authentication is required to access this resource'), in English whatever the language (clients match it); localizedMsg carries the request's language. Sent with HTTP 200." },
  4014: { http: 200, text: 'Sign-in needs a further step (a password change or a department); msg says which. Sent with HTTP 200.' },
  4015: { http: 200, text: 'Single sign-on not finished yet: poll again. Sent with HTTP 200.' },
};

/** The codes a route may answer: those its declaration implies, then those it names. */
export function errorCodesOf(def: RouteDefinition): number[] {
  const codes = new Set<number>();
  const hasInput = !!(def.schema?.query || def.schema?.body || def.schema?.params) || def.method !== 'GET';
  if (hasInput) codes.add(400);
  if (def.access !== 'public') {
    codes.add(601);
    codes.add(403);
  }
  if (def.upload) codes.add(413);
  for (const c of def.response?.errors ?? []) codes.add(c);
  return [...codes].sort((a, b) => a - b);
}

/**
 * A recursive schema (a menu tree) refers to its own `$defs` (`#/$defs/...`) or to itself (`#`), which
 * inside the document would point at the document: those parts move to the document's components, named
 * after the operation, and the references follow.
 */
function hoistDefs(json: JsonSchema, prefix: string, components: Record<string, JsonSchema>): JsonSchema {
  const local = (json.$defs ?? {}) as Record<string, JsonSchema>;
  delete json.$defs;
  const root = `#/components/schemas/${prefix}answer`;
  let selfRef = false;
  const moved = (s: JsonSchema): JsonSchema =>
    JSON.parse(
      JSON.stringify(s)
        .replace(/"#\/\$defs\/([^"]+)"/g, (_, name: string) => JSON.stringify(`#/components/schemas/${prefix}${name}`))
        .replace(/"\$ref":"#"/g, () => ((selfRef = true), `"$ref":${JSON.stringify(root)}`)),
    );
  for (const [name, schema] of Object.entries(local)) components[`${prefix}${name}`] = moved(schema);
  const answer = moved(json);
  if (!selfRef) return answer;
  components[`${prefix}answer`] = answer;
  return { $ref: root };
}

function dataSchemaOf(def: RouteDefinition, prefix: string, components: Record<string, JsonSchema>): JsonSchema | null {
  const data = def.response?.data;
  if (!data) return null;
  try {
    const json = z.toJSONSchema(data as ZodType, { io: 'output', target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
    delete json.$schema;
    return hoistDefs(json, prefix, components);
  } catch {
    return null;
  }
}

function responsesOf(def: RouteDefinition, codes: number[], prefix: string, components: Record<string, JsonSchema>): JsonSchema {
  const data = dataSchemaOf(def, prefix, components);
  const raw = def.response?.envelope === false;
  const success = raw
    ? { description: 'The answer.', content: { [def.response?.contentType ?? 'application/json']: { schema: data ?? {} } } }
    : {
        description: 'The envelope with code 200; `data` carries the result.',
        content: { 'application/json': { schema: data ? { allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', properties: { data } }] } : { $ref: '#/components/schemas/Envelope' } } },
      };
  const responses: JsonSchema = { '200': success };
  // Codes sent with their own HTTP status get a response each; the others travel inside the 200's envelope.
  for (const code of codes) {
    const known = ERROR_CODES[code];
    if (!known || known.http === 200) continue;
    responses[String(known.http)] = raw
      ? { description: known.text, content: { 'application/json': { schema: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] } } } }
      : { $ref: `#/components/responses/Error${known.http}` };
  }
  return responses;
}

function operationOf({ def, pluginId, extra }: DocumentedRoute, components: Record<string, JsonSchema>): JsonSchema {
  const codes = errorCodesOf(def);
  const operationId = `${def.method.toLowerCase()}${toOpenApiPath(def.url).replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;
  const op: JsonSchema = {
    operationId,
    tags: [extra?.tag ?? pluginId],
    summary: def.summary ?? `${def.method} ${def.url}`,
    description: extra?.description ?? (def.apiKey ? `${accessText(def.access)} API keys with the scope ${def.apiKey} reach it.` : accessText(def.access)),
    parameters: [...parametersOf(def.schema?.params as ZodType | undefined, 'path'), ...parametersOf(def.schema?.query as ZodType | undefined, 'query')],
    responses: responsesOf(def, codes, `${operationId}_`, components),
    // API keys reach only the routes of their scopes; every other route needs a session.
    security: extra?.security ?? (def.access === 'public' ? [] : def.apiKey ? [{ ApiKey: [] }, { Session: [] }] : def.sessionCookie ? [{ Session: [] }, { SessionCookie: [] }] : [{ Session: [] }]),
    'x-error-codes': codes,
    ...(def.apiKey ? { 'x-api-key-scope': def.apiKey } : {}),
    ...(typeof def.access === 'object' ? { 'x-permission': 'permission' in def.access ? [def.access.permission] : def.access.anyPermission } : {}),
  };
  // Paths with a parameter the params schema does not describe still need it declared.
  const declared = new Set((op.parameters as JsonSchema[]).filter((p) => p.in === 'path').map((p) => p.name));
  for (const m of def.url.matchAll(/:([A-Za-z0-9_]+)/g)) {
    if (!declared.has(m[1])) (op.parameters as JsonSchema[]).push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  if (extra?.requestBody) {
    const { schema } = toRequestSchema(extra.requestBody);
    op.requestBody = { required: true, content: Object.fromEntries((extra.requestContentTypes ?? ['application/json']).map((t) => [t, { schema }])) };
  } else if (def.schema?.body) {
    const { schema, hasFile } = toRequestSchema(def.schema.body as ZodType);
    op.requestBody = {
      required: true,
      content: hasFile || def.upload ? { 'multipart/form-data': { schema } } : { 'application/json': { schema } },
    };
  }
  return op;
}

export function buildOpenApiDocument(routes: DocumentedRoute[], info: { title?: string } = {}): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const hoisted: Record<string, JsonSchema> = {};
  const sorted = [...routes].sort((a, b) => a.def.url.localeCompare(b.def.url) || a.def.method.localeCompare(b.def.method));
  for (const route of sorted) {
    const path = toOpenApiPath(route.def.url);
    (paths[path] ??= {})[route.def.method.toLowerCase()] = operationOf(route, hoisted);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: info.title ?? 'Linguaport API',
      version: SDK_VERSION,
      description: 'Every call answers the envelope {code, msg, data}. Authenticate with the X-Api-Key header (your API key) or a console session (Jwt header).',
    },
    servers: [{ url: '/api' }],
    tags: [...new Set(sorted.map((r) => r.extra?.tag ?? r.pluginId))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas: { Envelope: ENVELOPE, ErrorCode: ERROR_CODE_SCHEMA, ...hoisted },
      responses: Object.fromEntries(
        [...new Set(Object.values(ERROR_CODES).map((c) => c.http))]
          .filter((http) => http !== 200)
          .map((http) => [
            `Error${http}`,
            {
              description: Object.entries(ERROR_CODES).filter(([, c]) => c.http === http).map(([code, c]) => `${code}: ${c.text}`).join(' '),
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } },
            },
          ]),
      ),
    },
  };
}

/**
 * `GET /api/openapi.json`: the document of every route registered so far. Public, as LibreTranslate's
 * and Weblate's are: an integrator reads it before holding a key, and it says nothing a route's own
 * answer would not (who may call what is the server's to enforce on every call).
 */
export function openApiRoute(routes: () => DocumentedRoute[]): RouteDefinition {
  return {
    method: 'GET',
    url: '/openapi.json',
    access: 'public',
    summary: 'The OpenAPI 3.1 document of this server',
    response: { envelope: false, data: z.object({ openapi: z.literal('3.1.0') }).passthrough() },
    handler: () => ({ raw: true as const, contentType: 'application/json; charset=utf-8', body: JSON.stringify(buildOpenApiDocument(routes())) }),
  };
}
