import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import type { ZodType } from 'zod';
import { en as zodEnglish, zhCN as zodChinese } from 'zod/locales';
import { ApiError, requestLocale, type Caller, type RawReply, type RequestContext, type RouteAccess, type RouteDefinition } from '@linguaport/sdk/server';
import { Codes, hasNul, KERNEL_API_KEY_SCOPES, ok, validationMessage, ValidationKeys, type Locale } from '@linguaport/sdk/shared';
import { describeIssues, isLtPath, sendError } from './errors.js';
import { notMultipart, readMultipart } from './multipart.js';
import { reachRefusal } from '../access/reach.js';

/**
 * Set by the test runs (vitest's server project, the end-to-end server): every answer of a route
 * that declares its `response.data` is checked against that schema as the client will read it (JSON),
 * so a declared type that lies fails the tests that call the route instead of misleading the API document.
 */
const checkingResponses = () => process.env.LINGUAPORT_CHECK_RESPONSES === '1';

function checkResponse(def: RouteDefinition, data: unknown): void {
  const schema = def.response?.data;
  if (!schema || def.response?.envelope === false) return;
  const seen = data === null ? null : JSON.parse(JSON.stringify(data));
  const parsed = schema.safeParse(seen);
  if (parsed.success) return;
  const where = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(data)'}: ${i.message}`).join('; ');
  throw new Error(`The answer of ${def.method} /api${def.url} does not match its declared response schema: ${where}`);
}

/**
 * The fastify app: every API answer is the `{code, msg, data}` envelope, every route declares
 * who may call it, and the kernel (not the handler) enforces that declaration.
 */

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
    /** The route pattern (`/api/x/:id`) of a late route serving this request; fastify's own routes use routeOptions.url. */
    lateRoute: string | null;
  }
}

export interface RouteOwner {
  pluginId: string;
  declaredPermissions: ReadonlySet<string>;
  /** API key scopes its manifest declares; its routes may name these and the kernel's. */
  apiKeyScopes?: ReadonlySet<string>;
}

export interface AppOptions {
  logLevel: string;
  /** Where pino writes (tests capture it); stdout when absent. */
  logStream?: { write(line: string): void };
  resolveCaller(token: string): Promise<Caller | null>;
  /** The caller behind an `X-Api-Key` header (used only when no session token is sent). */
  resolveApiKey?(key: string): Promise<Caller | null>;
  /** False when a plugin is switched off at run time: its routes then answer 404 (checked per request). */
  isPluginEnabled?(pluginId: string): boolean;
  /** Largest accepted upload, per file: a ceiling over every route's own `upload.maxBytes`. */
  uploadLimitBytes?: number;
  /** Where uploaded files stream to while a call runs (a folder of the data directory); the system's temp folder when absent. */
  uploadDir?: string;
  /** fastify's trustProxy: which proxies' X-Forwarded-For to believe for `request.ip`. */
  trustProxy?: boolean | number | string;
}

export interface KernelApp {
  app: FastifyInstance;
  /**
   * Before the app is ready routes go to fastify; after it (a package published at run time) they go to
   * the kernel's own table of late routes, served through the same access checks and envelope.
   */
  registerRoute(def: RouteDefinition, owner: RouteOwner): void;
  /** Drops a plugin's late routes (its server part is being replaced or stopped). */
  dropLateRoutes(pluginId: string): void;
  /** Answers GET paths outside /api that nothing else served (the console's SPA fallback). */
  setPageFallback(fallback: (request: FastifyRequest, reply: FastifyReply) => unknown): void;
}

/** The policy of every answer but the console page: no script, no plugins, a sandboxed origin. */
export const SANDBOX_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox";

export const SESSION_INVALID_MSG = { 'zh-CN': '登录已过期，请重新登录', 'en-US': 'Login expired, please sign in again' };

/** The token travels in the `Jwt` header (spec 01 section 7); `Authorization: Bearer` is accepted too. */
/** The console's session cookie (core/console/src/auth/storage.ts), read only by routes that declare `sessionCookie`. */
export const SESSION_COOKIE = 'lp_token';

export function tokenOf(request: FastifyRequest, cookieToo = false): string | null {
  const jwt = request.headers.jwt;
  if (typeof jwt === 'string' && jwt) return jwt;
  const auth = request.headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('Bearer ')) return auth.slice(7);
  if (cookieToo && (request.method === 'GET' || request.method === 'HEAD')) {
    const cookie = request.cookies?.[SESSION_COOKIE];
    if (cookie) return cookie;
  }
  return null;
}

function describeAccess(access: unknown): string | null {
  if (access === 'public' || access === 'signed-in' || access === 'member') return null;
  if (access && typeof access === 'object') {
    const a = access as Record<string, unknown>;
    if (typeof a.permission === 'string') return null;
    if (Array.isArray(a.anyPermission) && a.anyPermission.length > 0 && a.anyPermission.every((k) => typeof k === 'string')) return null;
  }
  return `access must be 'public', 'signed-in', {permission} or {anyPermission: [...]}, got ${JSON.stringify(access)}`;
}

function keysOf(access: RouteAccess): string[] {
  if (typeof access === 'string') return [];
  return 'permission' in access ? [access.permission] : access.anyPermission;
}

/** zod's own messages in the request's language; a schema's own message (a validation key) wins over them. */
const ZOD_MESSAGES: Record<Locale, ReturnType<typeof zodEnglish>['localeError']> = { 'zh-CN': zodChinese().localeError, 'en-US': zodEnglish().localeError };

/** `Invalid request: ` in the request's language, before the fields' problems. */
export const invalidRequest = (locale: Locale, problems: string) => (locale === 'en-US' ? `Invalid request: ${problems}` : `请求无效：${problems}`);

/** Validates params, query and body together, so one 400 names every bad field at once, in the request's language. */
function parseRequest(schema: RouteDefinition['schema'], input: { params: unknown; query: unknown; body: unknown }, locale: Locale) {
  const problems: string[] = [];
  const out: Record<string, unknown> = { ...input };
  for (const location of ['params', 'query', 'body'] as const) {
    const zod = schema?.[location] as ZodType | undefined;
    if (!zod) continue;
    const result = zod.safeParse(input[location] ?? (location === 'body' ? undefined : {}), { error: ZOD_MESSAGES[locale] });
    if (result.success) out[location] = result.data;
    else problems.push(describeIssues(result.error.issues.map((i) => ({ ...i, message: validationMessage(i.message, locale, (i as { params?: Record<string, unknown> }).params) })), location));
  }
  if (problems.length) throw new ApiError(Codes.BAD_REQUEST, invalidRequest(locale, problems.join('; ')));
  return out as { params: unknown; query: unknown; body: unknown };
}

/** Parsed data: a literal object, or a null-prototype one as the query and params parsers make (directly or one level down). */
function isPlainObject(v: unknown): v is object {
  if (!v || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

/** Where the first text holding a NUL character is (`query.name`, `body.items.2`), or null. Only parsed
 * data is walked (plain objects, arrays, strings): uploaded files and streams are not text. */
function nulAt(input: Record<string, unknown>): string | null {
  const stack: Array<[unknown, string]> = Object.entries(input).map(([k, v]) => [v, k]);
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (hasNul(value)) return path;
    } else if (Array.isArray(value) || isPlainObject(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (hasNul(k)) return `${path}.${k.replace(/\0/g, '\\0')}`;
        stack.push([v, `${path}.${k}`]);
      }
    }
  }
  return null;
}

function isRawReply(value: unknown): value is RawReply {
  return !!value && typeof value === 'object' && (value as { raw?: unknown }).raw === true;
}

/** A route added after start-up: its URL pattern (`/a/:id`) compiled to a matcher. */
interface LateRoute {
  def: RouteDefinition;
  owner: RouteOwner;
  pattern: RegExp;
  names: string[];
}

function compilePattern(url: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const body = url
    .split('/')
    .map((seg) => {
      if (seg.startsWith(':')) {
        names.push(seg.slice(1));
        return '([^/]+)';
      }
      return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { pattern: new RegExp(`^${body}/?$`), names };
}

export async function createApp(options: AppOptions): Promise<KernelApp> {
  const app = Fastify({
    logger: { level: options.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    // Our onResponse hook logs one line per request at debug instead of fastify's two at info.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 10 * 1024 * 1024,
    // A hop count means: believe that many proxies in front (proxy-addr's reading of a number).
    trustProxy: typeof options.trustProxy === 'number' ? ((_address: string, hop: number) => hop < (options.trustProxy as number)) : (options.trustProxy ?? false),
  });
  app.decorateRequest('caller', null);
  app.decorateRequest('lateRoute', null);
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, { limits: { fileSize: options.uploadLimitBytes ?? 512 * 1024 * 1024, fieldSize: 1024 * 1024 } });
  // Browsers post forms urlencoded too; fastify parses only JSON by default.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  // Only the console page may run as a page of this origin (it sets its own policy, plugins/static.ts):
  // any other answer opened in a tab (an uploaded file, an API reply) runs nothing, and none is sniffed.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', SANDBOX_CSP);
    return payload;
  });
  // Temporary files of a call's uploads go when its answer has been sent (or failed).
  const uploads = new WeakMap<FastifyRequest, () => Promise<void>>();
  app.addHook('onResponse', async (request) => {
    await uploads.get(request)?.();
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.debug(`${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`);
  });
  app.setErrorHandler((err, request, reply) => sendError(err, request, reply));

  let pageFallback: ((request: FastifyRequest, reply: FastifyReply) => unknown) | null = null;
  const late: LateRoute[] = [];
  let sealed = false;
  app.addHook('onReady', async () => {
    sealed = true;
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    if (path.startsWith('/api/')) {
      const sub = path.slice(4);
      for (const route of late) {
        if (route.def.method !== request.method) continue;
        const m = route.pattern.exec(sub);
        if (!m) continue;
        const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
        return serveLate(route, params, request, reply);
      }
    }
    // `/api` itself is also the console's API-documentation screen (spec 01): a browser asking for a page gets it.
    const apiDocsPage = path === '/api' && String(request.headers.accept ?? '').includes('text/html');
    if (pageFallback && request.method === 'GET' && ((!path.startsWith('/api/') && path !== '/api') || apiDocsPage)) return pageFallback(request, reply);
    if (isLtPath(path)) return reply.status(404).send({ error: `Not Found: ${request.method} ${path}` });
    const msg = requestLocale(request.headers) === 'en-US' ? `No such API: ${request.method} ${path}` : `没有此接口：${request.method} ${path}`;
    return reply.status(404).send({ code: Codes.NOT_FOUND, msg, data: null });
  });

  const owners = new Map<string, string>();

  async function authorize(request: FastifyRequest, def: Pick<RouteDefinition, 'access' | 'apiKey' | 'sessionCookie'>): Promise<void> {
    const access = def.access;
    const token = tokenOf(request, def.sessionCookie === true);
    const apiKey = request.headers['x-api-key'];
    const caller = token
      ? await options.resolveCaller(token)
      : typeof apiKey === 'string' && apiKey && options.resolveApiKey
        ? await options.resolveApiKey(apiKey)
        : null;
    // An API key outside its scopes, a guest or a quick-access page on a member route: refused before any permission.
    const refusal = caller ? reachRefusal(caller, def, request.headers) : null;
    request.caller = refusal && access === 'public' ? null : caller;
    if (access === 'public') return;
    if (!caller) throw new ApiError(Codes.SESSION_INVALID, SESSION_INVALID_MSG);
    if (refusal) throw new ApiError(Codes.FORBIDDEN, refusal);
    if (access === 'signed-in' || access === 'member' || caller.isSuperAdmin) return;
    if ('permission' in access) {
      if (!caller.permissions.has(access.permission)) throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': `无权限：此调用需要 ${access.permission} 权限`, 'en-US': `Permission denied: this call needs the permission ${access.permission}` });
    } else if (!access.anyPermission.some((k) => caller.permissions.has(k))) {
      throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': `无权限：此调用需要以下权限之一：${access.anyPermission.join(', ')}`, 'en-US': `Permission denied: this call needs one of the permissions ${access.anyPermission.join(', ')}` });
    }
  }

  function registerRoute(def: RouteDefinition, owner: RouteOwner): void {
    const where = `plugin ${owner.pluginId} route ${def.method} ${def.url}`;
    if (!def.url?.startsWith('/')) throw new Error(`${where}: url must start with a slash (it is served under /api)`);
    if (def.access === undefined || def.access === null) throw new Error(`${where} has no access declaration (access: 'public', 'signed-in', {permission} or {anyPermission})`);
    const bad = describeAccess(def.access);
    if (bad) throw new Error(`${where}: ${bad}`);
    if (def.sessionCookie && def.method !== 'GET') throw new Error(`${where}: sessionCookie is for GET routes only (a page element reading a file)`);
    if (def.apiKey !== undefined) {
      const scopes = [...KERNEL_API_KEY_SCOPES.map((s) => s.scope), ...(owner.apiKeyScopes ?? [])];
      if (!scopes.includes(def.apiKey)) throw new Error(`${where}: apiKey ${JSON.stringify(def.apiKey)} is neither the kernel's scope nor one the plugin's manifest declares under apiKeyScopes (${scopes.join(', ')})`);
    }
    for (const key of keysOf(def.access)) {
      if (!owner.declaredPermissions.has(key)) throw new Error(`${where} needs permission ${key}, which the plugin's manifest does not declare`);
    }
    const id = `${def.method} ${def.url}`;
    const other = owners.get(id);
    if (other) throw new Error(`route ${id} is registered twice: by ${other} and by ${owner.pluginId}`);
    owners.set(id, owner.pluginId);

    if (sealed) {
      late.push({ def, owner, ...compilePattern(def.url) });
      return;
    }
    app.route({
      method: def.method,
      url: `/api${def.url}`,
      preHandler: (request) => admit(def, owner, request),
      handler: (request, reply) => handle(def, request, request.params, reply),
    });
  }

  function admit(def: RouteDefinition, owner: RouteOwner, request: FastifyRequest): Promise<void> {
    if (options.isPluginEnabled && !options.isPluginEnabled(owner.pluginId)) {
      throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `没有此接口：${def.method} /api${def.url}（功能模块 ${owner.pluginId} 已停用）`, 'en-US': `No such API: ${def.method} /api${def.url} (feature area ${owner.pluginId} is disabled)` });
    }
    return authorize(request, def);
  }

  async function handle(def: RouteDefinition, request: FastifyRequest, params: unknown, reply: FastifyReply) {
    let rawBody: unknown = request.body;
    // A route that takes files takes only multipart: a JSON or form body shaped like a file is no upload.
    if (def.upload && !request.isMultipart()) throw notMultipart(requestLocale(request.headers));
    // Every route's multipart body is read here, under the route's own limit (multipart.ts).
    if (request.isMultipart()) {
      const read = await readMultipart(request, def.upload, options.uploadDir ?? join(tmpdir(), 'linguaport-uploads'));
      uploads.set(request, read.cleanup);
      rawBody = read.body;
      // Kept on the request too, for the hooks that read the body after the handler (operation log).
      request.body = rawBody;
    }
    // PostgreSQL text cannot hold NUL: refused here for every route, before any schema or query sees it.
    const nul = nulAt({ params, query: request.query, body: rawBody });
    if (nul) throw new ApiError(Codes.BAD_REQUEST, invalidRequest(requestLocale(request.headers), `${nul}: ${validationMessage(ValidationKeys.noNul, requestLocale(request.headers))}`));
    const parsed = parseRequest(def.schema, { params, query: request.query, body: rawBody }, requestLocale(request.headers));
    const ctx: RequestContext = {
      ...parsed,
      headers: request.headers,
      caller: request.caller,
      ip: request.ip,
      raw: request,
      header: (name, value) => void reply.header(name, value),
    };
    const result = await def.handler(ctx);
    if (isRawReply(result)) {
      reply.status(result.status ?? 200);
      if (result.headers) reply.headers(result.headers);
      reply.type(result.contentType);
      return reply.send(result.body);
    }
    const data = result === undefined ? null : result;
    if (checkingResponses()) checkResponse(def, data);
    return ok(data);
  }

  /** A late route through the same steps as a fastify one: enabled check, access, parsing, envelope. */
  async function serveLate(route: LateRoute, params: Record<string, string>, request: FastifyRequest, reply: FastifyReply) {
    // The not-found handler starts from 404; a served route answers like any other.
    reply.status(200);
    request.lateRoute = `/api${route.def.url}`;
    try {
      await admit(route.def, route.owner, request);
      const body = await handle(route.def, request, params, reply);
      if (!reply.sent) return reply.send(body);
    } catch (err) {
      return sendError(err as Error, request, reply);
    }
  }

  return {
    app,
    registerRoute,
    dropLateRoutes(pluginId) {
      for (let i = late.length - 1; i >= 0; i--) {
        if (late[i]!.owner.pluginId !== pluginId) continue;
        owners.delete(`${late[i]!.def.method} ${late[i]!.def.url}`);
        late.splice(i, 1);
      }
    },
    setPageFallback(fallback) {
      pageFallback = fallback;
    },
  };
}
