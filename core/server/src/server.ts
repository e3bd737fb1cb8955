import type { FastifyInstance } from 'fastify';
import { createUserDirectory } from './access/directory.js';
import { createAuthService } from './access/auth-service.js';
import { accessMigrations } from './access/migrations.js';
import { corePermissionKeys, CORE_PLUGIN_ID } from './access/core-permissions.js';
import type { Clock } from './access/sessions.js';
import { ensureAdmin } from './auth/admin.js';
import { resolveApiKeyCaller } from './auth/api-keys.js';
import { resolveScopedCaller } from './auth/caller.js';
import { authMigrations } from './auth/migrations.js';
import { authRoutes } from './auth/routes.js';
import { createFormatRegistry } from './formats/registry.js';
import { createHookRegistry } from './translation/hooks.js';
import { txtFormat } from './formats/txt.js';
import { taskMigrations } from './tasks/migrations.js';
import { taskRoutes } from './tasks/routes.js';
import { createTaskService, type TaskServiceOptions } from './tasks/service.js';
import { loadSecret } from './auth/secret.js';
import { seedSignInFromEnv } from './auth/seed-env.js';
import { createEventBus } from './bus/events.js';
import type { Config } from './config.js';
import { coreMigrations } from './db/core-migrations.js';
import { createDatabase, type Database } from './db/database.js';
import { runMigrations } from './db/migrations.js';
import { createApp } from './http/app.js';
import { sweepUploads } from './http/upload-sweep.js';
import { healthRoute } from './http/health.js';
import { sdkLogger } from './http/logger.js';
import { registerWebSocket } from './http/websocket.js';
import { createJobService } from './jobs/queue.js';
import { readDeploymentSet } from './plugins/deployment.js';
import { startPlugins } from './plugins/host.js';
import { apiKeyStillValid, resolveApiKeyCaller as resolveApiKeyForLt } from './auth/api-keys.js';
import { ltRoutes } from './translation/lt-routes.js';
import { registerLtCors } from './translation/lt-cors.js';
import { documentLtRoute } from './translation/lt-openapi.js';
import { openApiRoute, type DocumentedRoute } from './http/openapi.js';
import { translationMigrations } from './translation/migrations.js';
import { createTranslationService } from './translation/service.js';
import { systemConfigReader } from './translation/settings-reader.js';
import { registryRoute } from './plugins/registry-route.js';
import { serveDist } from './plugins/static.js';
import { MANAGEMENT_PLUGIN_ID, managementPermissions, managementRoutes, reportFailureRoute } from './plugins/management-routes.js';
import { pluginMigrations } from './plugins/migrations.js';
import { PluginRuntime } from './plugins/runtime.js';
import { menuRoutes } from './access/menu-routes.js';
import { bridgeAccessChanged, PERMISSIONS_CHANGED } from './access/notify.js';
import { installOperationLog, pluginTitlesFrom } from './oplog/record.js';
import { createFileStorage } from './storage/files.js';
import { privateDataDir } from './storage/private.js';
import { configRoutes } from './system/config-routes.js';
import { expiredEngineRoute } from './system/expired-engines.js';
import { createMessageCenter, messageRoutes } from './system/messages.js';
import { systemMigrations } from './system/migrations.js';
import { createSystemSettings } from './system/settings.js';
import { documentTranslationService, type RouteDefinition, type ServiceToken } from '@linguaport/sdk/server';
import type { RouteOwner } from './http/app.js';
import { join } from 'node:path';
import { checkExternalTools, declaredTools } from './preflight.js';
import { declaredLists } from './plugins/declared-lists.js';

/**
 * The server kernel, assembled: database -> migrations -> first administrator -> plugins ->
 * routes. Used in-process by tests (`app.inject`) and by main.ts, which adds `listen`.
 */

export interface ServerOptions {
  /** Use this open database instead of opening one from the config; it is not closed by close(). */
  database?: Database;
  /** The clock for sessions and one-time keys (tests move time forward). */
  now?: Clock;
  /** Where the log goes (tests capture it); stdout when absent. */
  logStream?: { write(line: string): void };
  /** Where the first administrator's random password is announced; stdout when absent. */
  print?: (line: string) => void;
  /** WebSocket ping interval. */
  wsPingMs?: number;
  /** Task service timings (tests shorten them). */
  tasks?: Pick<TaskServiceOptions, 'heartbeatMs' | 'staleAfterMs' | 'sweepMs' | 'progressEveryMs'>;
  /** Start translation nodes left running now (main.ts); otherwise they start on first use. */
  engineAutostart?: boolean;
}

export interface KernelServer {
  app: FastifyInstance;
  database: Database;
  /** Every API route registered, with its declared access and owner (the route-walk test reads it). */
  routes: RegisteredRoute[];
  close(): Promise<void>;
}

export interface RegisteredRoute {
  method: string;
  /** Full path, `/api/...`, with fastify's `:param` placeholders. */
  url: string;
  access: RouteDefinition['access'];
  pluginId: string;
  /** Whether it declares the shape of its answer (`response.data`, or an answer that is not the envelope). */
  typed: boolean;
  /** Whether it takes files (`upload`): only as multipart, from the kernel's reader. */
  upload: boolean;
}

export async function createServer(config: Config, options: ServerOptions = {}): Promise<KernelServer> {
  const now = options.now ?? (() => new Date());
  // Manifests first: a broken plugin should stop start-up before anything is created.
  const plugins = readDeploymentSet(config.registryFile);
  // The data directory is the server user's alone (umask 077; an older install's modes fixed).
  const notPrivate = privateDataDir(config.dataDir);
  const ownsDatabase = !options.database;
  const database = options.database ?? (await createDatabase(config));
  const cleanups: (() => Promise<void> | void)[] = [];
  const close = async () => {
    for (const fn of cleanups.reverse()) await fn();
    cleanups.length = 0;
  };
  if (ownsDatabase) cleanups.push(() => database.close());

  try {
    const db = database.db;
    await runMigrations(database, 'core', coreMigrations);
    await runMigrations(database, 'core.access', accessMigrations);
    await runMigrations(database, 'core.auth', authMigrations);
    const secret = loadSecret(config.dataDir);
    await seedSignInFromEnv(db, secret);
    await runMigrations(database, 'core.plugins', pluginMigrations);
    await runMigrations(database, 'core.system', systemMigrations);
    await ensureAdmin(db, config, options.print);

    const caller = (token: string) => resolveScopedCaller(db, token, now());
    // Set once the plugin state is loaded; the route layer asks it whether a route's plugin is on.
    let runtime: PluginRuntime | null = null;
    // Temporary uploads a killed server left behind go before any call can make new ones.
    const uploadDir = join(config.dataDir, 'tmp', 'uploads');
    const swept = sweepUploads(uploadDir);
    const kernel = await createApp({ logLevel: config.logLevel, logStream: options.logStream, uploadDir, trustProxy: config.trustProxy, isPluginEnabled: (id) => runtime?.isEnabled(id) ?? true, resolveCaller: caller, resolveApiKey: (key) => resolveApiKeyCaller(db, key, now()) });
    const { app } = kernel;
    if (swept) app.log.info(`removed ${swept} temporary uploads left by an earlier run`);
    if (notPrivate.length) app.log.warn(`${notPrivate.length} entries under ${config.dataDir} could not be made private to this user (mode 0700/0600), e.g. ${notPrivate[0]}`);
    // Every route goes through here so the operation log knows its module and title.
    const oplog = installOperationLog(app, db, now, pluginTitlesFrom(plugins));
    const routes: RegisteredRoute[] = [];
    // The OpenAPI document is generated from these (GET /api/openapi.json).
    const documented: DocumentedRoute[] = [];
    const registerRoute = (def: RouteDefinition, owner: RouteOwner) => {
      oplog.track(def, owner);
      kernel.registerRoute(def, owner);
      routes.push({ method: def.method, url: `/api${def.url}`, access: def.access, pluginId: owner.pluginId, typed: !!def.response?.data || def.response?.envelope === false, upload: !!def.upload });
      documented.push(def.url.startsWith('/lt/') ? documentLtRoute(def, owner.pluginId) : { def, pluginId: owner.pluginId });
    };
    cleanups.push(() => oplog.idle());
    cleanups.push(() => app.close());

    const jobs = await createJobService(database);
    cleanups.push(() => jobs.stop());
    const bus = await createEventBus(database);
    cleanups.push(() => bus.close());
    await runMigrations(database, 'core.tasks', taskMigrations);
    const tasks = createTaskService({ database, jobs, bus, logger: sdkLogger(app.log), ...options.tasks });
    // Running tasks reach a safe point (and are queued again) before the queue and the bus stop.
    cleanups.push(() => tasks.stop());
    const formats = createFormatRegistry();
    formats.register(txtFormat);
    // Sessions ended through ctx.auth (password change, disable) close their sockets; those are registered just below.
    const auth = createAuthService({ db, now, onSessionEnded: (hash) => sockets.closeSession(hash) });
    const settings = createSystemSettings(db, bus, now);
    // The lists plugins extend from their manifests: API key scopes, message types, usage channels.
    const lists = declaredLists(plugins.filter((p) => p.enabled).map((p) => p.manifest));
    const messages = createMessageCenter(db, bus, now, lists.messageTypes);
    const accessBridge = bridgeAccessChanged(bus, db, (err) => app.log.error({ err }, 'access.changed bridge failed'));
    cleanups.push(() => accessBridge.unsubscribe());
    const sockets = await registerWebSocket(app, { bus, resolveCaller: caller, pingMs: options.wsPingMs, isPluginEnabled: (id) => runtime?.isEnabled(id) ?? true });

    // Core routes first, so a plugin claiming one of their paths is the one named as the intruder.
    const core = { pluginId: CORE_PLUGIN_ID, declaredPermissions: corePermissionKeys };
    const logger = sdkLogger(app.log);
    for (const route of authRoutes({ db, secret, now, logger, onSessionEnded: (hash) => sockets.closeSession(hash), apiKeyScopes: lists.apiKeyScopes })) registerRoute(route, core);
    const coreStorage = createFileStorage(join(config.dataDir, 'files'), CORE_PLUGIN_ID);
    const adminRoutes = [
      ...menuRoutes(db, bus),
      ...configRoutes({ db, bus, storage: coreStorage, now }),
      ...messageRoutes(db, bus, lists.messageTypes),
      expiredEngineRoute(db, now),
    ];
    for (const route of adminRoutes) registerRoute(route, core);
    // The translation service before the plugins: they get it as ctx.engines and close first.
    await runMigrations(database, 'core.translation', translationMigrations);
    const hooks = createHookRegistry();
    // The external tools the enabled plugins declare in their manifests, checked once at start.
    const tools = checkExternalTools(process.env, declaredTools(plugins.filter((p) => p.enabled).map((p) => p.manifest)));
    const engines = createTranslationService({ db, dataDir: config.dataDir, logger, readSetting: systemConfigReader(db, bus), now, autostart: options.engineAutostart, hooks, tools });
    await engines.start();
    cleanups.push(() => engines.close());
    registerRoute(healthRoute(database, jobs, () => engines.overview(), () => engines.tools()), core);
    // The LibreTranslate-compatible API authenticates keys itself: only keys with the translate scope.
    const translationKey = async (keyDb: typeof db, key: string, at: Date) => {
      const keyCaller = await resolveApiKeyForLt(keyDb, key, at);
      return keyCaller?.apiKeyScopes?.has('translate') ? keyCaller : null;
    };
    const ltSetting = systemConfigReader(db, bus);
    registerLtCors(app, ltSetting);
    // Files go to the documents area when a plugin provides it (the host starts below).
    let pluginHost: { service<T>(token: ServiceToken<T>): T | null } | null = null;
    const documents = () => pluginHost?.service(documentTranslationService) ?? null;
    for (const route of ltRoutes({ db, engines, resolveApiKey: translationKey, keyStillValid: apiKeyStillValid, permissionsChanged: bus.events(PERMISSIONS_CHANGED), readSetting: ltSetting, documents, now })) registerRoute(route, core);
    registerRoute(registryRoute(() => runtime), core);
    for (const route of taskRoutes(database, tasks)) registerRoute(route, core);

    // Plug-in management: run-time state of built-ins and uploaded packages (before the host, which also starts
    // the server parts of live packages from keys trusted for server code).
    const rt = new PluginRuntime({ db, bus, dataDir: config.dataDir, distDir: config.distDir, builtins: plugins, rootDir: config.rootDir, logger: sdkLogger(app.log) });
    await rt.init();
    cleanups.push(() => rt.close());
    runtime = rt;
    const dropRoutes = (pluginId: string) => {
      kernel.dropLateRoutes(pluginId);
      for (const list of [routes, documented]) {
        for (let i = list.length - 1; i >= 0; i--) if (list[i]!.pluginId === pluginId) list.splice(i, 1);
      }
    };
    const host = await startPlugins({ engines, config, plugins, database, jobs, bus, auth, users: createUserDirectory(db), logger: app.log, settings, messages, tasks, formats, hooks, registerRoute, dropRoutes, sockets });
    pluginHost = host;
    // Plugins close before the services they use (cleanups run last-in, first-out).
    cleanups.push(() => host.close());
    rt.holdBack(host.blocked);
    const management = { pluginId: MANAGEMENT_PLUGIN_ID, declaredPermissions: new Set(managementPermissions.map((p) => p.key)) };
    for (const route of managementRoutes({ db, runtime: rt, bus })) registerRoute(route, management);
    registerRoute(reportFailureRoute(db), core);
    await rt.syncTree();
    registerRoute(openApiRoute(() => documented), core);
    // Every operation's title is stored before the first call can be logged or read.
    await oplog.idle();
    await serveDist(kernel, config.distDir, rt.installedRoot());
    await app.ready();
    // Uploaded packages' server parts start now, as late routes, and from here on follow the packages' state.
    await rt.attachServerHost(host);
    return { app, database, routes, close };
  } catch (err) {
    await close().catch(() => {});
    throw err;
  }
}
