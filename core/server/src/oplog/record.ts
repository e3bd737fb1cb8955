import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { RouteDefinition } from '@linguaport/sdk/server';
import { CORE_PLUGIN_ID } from '../access/core-permissions.js';
import type { RouteOwner } from '../http/app.js';

/**
 * The kernel's operation log (table `operation_log`): every call that changes data (POST, PUT,
 * DELETE, PATCH, unless the route says `log: false`; a GET that changes data says `log: true`) is recorded after its response, successes and failures alike, with no plugin doing
 * it by hand. The kernel's sign-in calls (login, logout, register, SSO, ...) are logged under module
 * `auth` with the user name. Never the body, never the query string (it may carry an API key).
 */

const MUTATING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
export const AUTH_MODULE = 'auth';
/** The kernel's sign-in-like calls: logged under module `auth`. */
const AUTH_URL = /^\/(login|logout|user\/register|user\/updatePasswordForced|user\/switchDepartment|quickAccess\/|captcha\/|sso\/)/;

interface TrackedRoute {
  module: string;
  summary: string | null;
  /** A sign-in call: with no caller yet, the operator is the account named in the body. */
  signIn: boolean;
}

export interface OperationLog {
  /** Remembers a route's module and title; call it for every route registered. */
  track(def: RouteDefinition, owner: RouteOwner): void;
  /** Resolves when every record started so far is written (tests, shutdown). */
  idle(): Promise<void>;
}

const ENVELOPE_CODE = /^\{"code":(-?\d+)/;

function operatorName(request: FastifyRequest, signIn: boolean): string | null {
  if (request.caller) return request.caller.username;
  if (!signIn) return null;
  // Sign-in calls name the account they were for (in the body, or the query of a GET such as the
  // forced password change); nothing else is read from them.
  const body = request.body as Record<string, unknown> | null | undefined;
  const query = request.query as Record<string, unknown> | null | undefined;
  const name = (body && typeof body === 'object' ? body.username : undefined) ?? (query && typeof query === 'object' ? query.username : undefined);
  return typeof name === 'string' ? name.trim().slice(0, 255) || null : null;
}

/** A plugin's routes default to its id; the kernel's to `auth` for sign-in calls, else their area (`/lt/translate` -> `lt`). */
function defaultModule(def: RouteDefinition, owner: RouteOwner): string {
  if (owner.pluginId !== CORE_PLUGIN_ID) return owner.pluginId;
  if (AUTH_URL.test(def.url)) return AUTH_MODULE;
  return def.url.split('/')[1] || owner.pluginId;
}

export function installOperationLog(app: FastifyInstance, db: Kysely<any>, now: () => Date): OperationLog {
  const routes = new Map<string, TrackedRoute>();
  const codes = new WeakMap<FastifyRequest, number>();
  const pending = new Set<Promise<void>>();

  const logged = (request: FastifyRequest) => routes.get(`${request.method} ${request.lateRoute ?? request.routeOptions.url}`);

  app.addHook('onSend', async (request, reply, payload) => {
    if (!logged(request)) return payload;
    const match = typeof payload === 'string' ? ENVELOPE_CODE.exec(payload) : null;
    // A raw reply (a file) has no envelope: its HTTP status says how it went.
    codes.set(request, match ? Number(match[1]) : reply.statusCode < 400 ? 200 : reply.statusCode);
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = logged(request);
    if (!route) return;
    const code = codes.get(request) ?? reply.statusCode;
    const url = request.url.split('?')[0];
    const write = db
      .insertInto('operation_log')
      .values({
        module: route.module,
        message: route.summary ? `${route.summary} (${request.method} ${url})` : `${request.method} ${url}`,
        operator_id: request.caller?.userId ?? null,
        operator_name: operatorName(request, route.signIn),
        method: request.method,
        url,
        outcome: code === 200 ? 'success' : 'failure',
        code,
        ip: request.ip,
        created_at: now(),
      })
      .execute()
      .then(
        () => undefined,
        (err: Error) => request.log.error({ err }, `operation log: could not record ${request.method} ${url}`),
      );
    pending.add(write);
    void write.finally(() => pending.delete(write));
  });

  return {
    track(def, owner) {
      // A route may say otherwise: a POST that only checks (checkUserName), a GET that changes (examineUser).
      if (!(def.log ?? MUTATING.has(def.method))) return;
      const signIn = owner.pluginId === CORE_PLUGIN_ID && AUTH_URL.test(def.url);
      routes.set(`${def.method} /api${def.url}`, { module: def.module ?? defaultModule(def, owner), summary: def.summary ?? null, signIn });
    },
    async idle() {
      while (pending.size) await Promise.all([...pending]);
    },
  };
}
