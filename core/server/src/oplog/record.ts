import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { RouteDefinition } from '@linguaport/sdk/server';
import { CORE_PLUGIN_ID } from '../access/core-permissions.js';
import type { RouteOwner } from '../http/app.js';
import { KERNEL_TITLES } from './titles.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeployedPlugin } from '../plugins/deployment.js';
import type { KernelTables } from '../db/schema.js';

/**
 * The kernel's operation log (table `operation_log`): every call that changes data (POST, PUT,
 * DELETE, PATCH, unless the route says `log: false`; a GET that changes data says `log: true`) is recorded after its response, successes and failures alike, with no plugin doing
 * it by hand. The kernel's sign-in calls (login, logout, register, SSO, ...) are logged under module
 * `auth` with the user name. Never the body, never the query string (it may carry an API key).
 *
 * A line keeps its operation (`route`, e.g. `POST /user/add`) and the English line (`message`); the
 * operation's title in both languages is in `operation_titles`, so a reader sees the line in their
 * language (the kernel's titles are in ./titles.ts, a plugin's in its locale files under
 * `<namespace>.operations`). Rows from before that have no route and show their English line.
 */

const MUTATING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
export const AUTH_MODULE = 'auth';
/** The kernel's sign-in-like calls: logged under module `auth`. */
const AUTH_URL = /^\/(login|logout|user\/register|user\/updatePasswordForced|user\/switchDepartment|quickAccess\/|captcha\/|sso\/)/;

interface TrackedRoute {
  module: string;
  summary: string | null;
  /** `METHOD /url` as declared (without `/api`): the key of its title. */
  route: string;
  title: OperationTitle;
  /** A sign-in call: with no caller yet, the operator is the account named in the body. */
  signIn: boolean;
}

export interface OperationTitle {
  zh: string;
  en: string;
}

/** A plugin's operation titles: `<namespace>.operations` of its locale file for a locale, or nothing. */
export type PluginTitles = (pluginId: string, locale: 'zh-CN' | 'en-US') => Record<string, string> | null;

/** Reads `<namespace>.operations` from the deployed plugins' locale files (the first namespace of the manifest). */
export function pluginTitlesFrom(plugins: readonly DeployedPlugin[]): PluginTitles {
  const cache = new Map<string, Record<string, string> | null>();
  return (pluginId, locale) => {
    const key = `${pluginId}/${locale}`;
    if (!cache.has(key)) {
      const plugin = plugins.find((p) => p.id === pluginId);
      const file = plugin ? join(plugin.dir, 'locales', `${locale}.json`) : null;
      let titles: Record<string, string> | null = null;
      if (plugin && file && existsSync(file)) {
        const resources = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { operations?: Record<string, string> } | undefined>;
        titles = resources[plugin.manifest.i18n[0] ?? '']?.operations ?? null;
      }
      cache.set(key, titles);
    }
    return cache.get(key)!;
  };
}

export interface OperationLog {
  /** Remembers a route's module and title; call it for every route registered. */
  track(def: RouteDefinition, owner: RouteOwner): void;
  /** Logged routes with no Chinese title of their own (they would show the English one). */
  untitled(): string[];
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

/** Stores (or updates) an operation's title in both languages, for the readers of the log. */
export async function storeOperationTitle(db: Kysely<KernelTables>, route: string, title: OperationTitle): Promise<void> {
  await db
    .insertInto('operation_titles')
    .values({ route, name_zh: title.zh, name_en: title.en })
    .onConflict((oc) => oc.column('route').doUpdateSet({ name_zh: title.zh, name_en: title.en }))
    .execute();
}

export function installOperationLog(app: FastifyInstance, db: Kysely<KernelTables>, now: () => Date, pluginTitles: PluginTitles = () => null): OperationLog {
  const routes = new Map<string, TrackedRoute>();
  const untitled = new Set<string>();
  // Titles are stored when a route is tracked (again at each start: a plugin's texts may change), and once more if that failed.
  const titled = new Set<string>();

  const titleOf = (def: RouteDefinition, owner: RouteOwner, route: string): OperationTitle => {
    // A plugin's own texts first; the kernel names its own routes (also those it serves for plug-in management).
    const zh = pluginTitles(owner.pluginId, 'zh-CN')?.[route] ?? KERNEL_TITLES[route]?.zh;
    const en = pluginTitles(owner.pluginId, 'en-US')?.[route] ?? KERNEL_TITLES[route]?.en ?? def.summary ?? route;
    if (!zh) untitled.add(`${owner.pluginId} ${route}`);
    return { zh: zh ?? en, en };
  };

  const storeTitle = async (route: string, title: OperationTitle) => {
    if (titled.has(route)) return;
    titled.add(route);
    try {
      await storeOperationTitle(db, route, title);
    } catch (err) {
      titled.delete(route);
      throw err;
    }
  };
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
    const write = storeTitle(route.route, route.title).then(() => db
      .insertInto('operation_log')
      .values({
        module: route.module,
        message: route.summary ? `${route.summary} (${request.method} ${url})` : `${request.method} ${url}`,
        route: route.route,
        operator_id: request.caller?.userId ?? null,
        operator_name: operatorName(request, route.signIn),
        method: request.method,
        url,
        outcome: code === 200 ? 'success' : 'failure',
        code,
        ip: request.ip,
        created_at: now(),
      })
      .execute())
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
      const route = `${def.method} ${def.url}`;
      const title = titleOf(def, owner, route);
      routes.set(`${def.method} /api${def.url}`, { module: def.module ?? defaultModule(def, owner), summary: def.summary ?? null, signIn, route, title });
      // Stored now, so the titles table names every logged operation from the start.
      const stored = storeTitle(route, title).catch((err: Error) => app.log.error({ err }, `operation log: could not store the title of ${route}`));
      pending.add(stored);
      void stored.finally(() => pending.delete(stored));
    },
    untitled: () => [...untitled].sort(),
    async idle() {
      while (pending.size) await Promise.all([...pending]);
    },
  };
}
