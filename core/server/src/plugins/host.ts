import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { SocketDefinition, AuthService, UserDirectory, EngineService, EventBus, JobQueue, MessageCenter, RouteDefinition, ServerPlugin, ServerPluginContext, ServiceToken, SystemSettings, TaskService, TranslationPipeline } from '@linguaport/sdk/server';
import type { FormatRegistry } from '@linguaport/sdk/shared';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { runMigrations } from '../db/migrations.js';
import { createFileStorage } from '../storage/files.js';
import type { RouteOwner } from '../http/app.js';
import { sdkLogger } from '../http/logger.js';
import { readDeploymentSet, type DeployedPlugin } from './deployment.js';
import { createServiceRegistry } from './services.js';
import { createUsageRecords } from '../translation/usage-records.js';
import { createOperationLogReader } from '../oplog/reader.js';
import { createOrganisation } from '../access/organisation.js';
import { createEngineAdmin } from '../translation/engine-admin.js';
import { createDomainUsage } from './domain-usage.js';
import { planStart, type BlockedReason } from './start-plan.js';
import { declaredLists, withUsageChannels } from './declared-lists.js';

/**
 * The plugin host: validates every plugin of the deployment set, then for each enabled plugin
 * with a server part runs its migrations and calls `setup` with a context scoped to it.
 */

export interface PluginHostDeps {
  config: Pick<Config, 'registryFile' | 'dataDir'>;
  /** The deployment set, when already read (start-up reads it before opening the database). */
  plugins?: DeployedPlugin[];
  database: Database;
  jobs: { forPlugin(pluginId: string): JobQueue };
  bus: EventBus;
  auth: AuthService;
  /** The kernel's user records, read-only (ctx.users). */
  users: UserDirectory;
  /** The translation service (ctx.engines); scoped per plugin when it can be (adapters are named after their plugin). */
  engines: EngineService & { forPlugin?(pluginId: string): EngineService; dropOwner?(pluginId: string): void };
  /** The system configuration and the message centre (kernel services, shared by every plugin). */
  settings: SystemSettings;
  /** `forPlugin` gives each plugin the centre that sends the kernel's types and its manifest's. */
  messages: MessageCenter & { forPlugin?(pluginId: string): MessageCenter };
  /** The task service and the format registry, each scoped to the plugin that asks. */
  tasks: { forPlugin(pluginId: string): TaskService; forget(pluginId: string): void };
  formats: { forPlugin(pluginId: string): FormatRegistry; dropOwner(pluginId: string): void };
  hooks: { forPlugin(pluginId: string): TranslationPipeline; dropOwner(pluginId: string): void };
  logger: FastifyBaseLogger;
  registerRoute(def: RouteDefinition, owner: RouteOwner): void;
  /** Removes the routes a plugin registered after start-up. */
  dropRoutes?(pluginId: string): void;
  /** Plugins' own WebSockets (ctx.socket), served by the kernel's WebSocket hub. */
  sockets?: { accept(def: SocketDefinition, owner: RouteOwner): void; closePlugin(pluginId: string): void };
}

export interface PluginHost {
  plugins: DeployedPlugin[];
  enabledIds: ReadonlySet<string>;
  /** Enabled plugins held back at start, with the reason (a dependency or a service missing, a cycle). */
  blocked: ReadonlyMap<string, BlockedReason>;
  /** Starts one more server part after start-up (an uploaded package published while running). */
  start(plugin: DeployedPlugin): Promise<void>;
  /** Stops a server part started with `start`: its onClose callbacks run and its routes go. */
  stop(pluginId: string): Promise<void>;
  /** Runs the plugins' onClose callbacks, last started first. */
  close(): Promise<void>;
  /** A service a running plugin provides (for the kernel's own routes), or null. */
  service<T>(token: ServiceToken<T>): T | null;
}

function pluginConfig(dataDir: string, pluginId: string): Record<string, unknown> {
  const file = join(dataDir, 'config', `${pluginId}.json`);
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * The kernel runs compiled (`npm start`: dist/server, written by scripts/build.mjs) or from its
 * TypeScript (tsx, tests). Compiled, a plugin's TypeScript entry runs as the build compiled it,
 * dist/server/plugins/<id>/index.js beside the kernel's code; an uploaded part ships JavaScript.
 */
const RUNS_COMPILED = !/\.[cm]?tsx?$/.test(fileURLToPath(import.meta.url));

function serverEntryFile(plugin: DeployedPlugin): string {
  const file = resolve(plugin.dir, plugin.manifest.server!);
  if (!RUNS_COMPILED || !/\.[cm]?tsx?$/.test(file)) return file;
  const compiled = fileURLToPath(new URL(`./plugins/${plugin.id}/index.js`, import.meta.url));
  if (!existsSync(compiled)) throw new Error(`plugin ${plugin.id}: server entry ${file} was not compiled (${compiled} does not exist; run npm run build)`);
  return compiled;
}

async function importServerPart(plugin: DeployedPlugin): Promise<ServerPlugin> {
  const file = serverEntryFile(plugin);
  if (!existsSync(file)) throw new Error(`plugin ${plugin.id}: server entry ${file} does not exist`);
  let mod: { default?: unknown };
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (err) {
    throw new Error(`plugin ${plugin.id}: server entry ${file} failed to load: ${(err as Error).message}`);
  }
  const part = mod.default as ServerPlugin | undefined;
  if (!part || typeof part.setup !== 'function') {
    throw new Error(`plugin ${plugin.id}: ${file} must default-export defineServerPlugin({ setup }) (no setup function found)`);
  }
  return part;
}

export async function startPlugins(deps: PluginHostDeps): Promise<PluginHost> {
  const plugins = deps.plugins ?? readDeploymentSet(deps.config.registryFile);
  // Dependencies and service providers start first; a plugin whose needs are not met is held back with the reason.
  const plan = planStart(plugins.filter((p) => p.enabled));
  for (const [id, why] of plan.blocked) deps.logger.warn(`plugin ${id} not started: ${why['en-US']}`);
  const enabled = plan.order;
  const services = createServiceRegistry();
  // The kernel's records, read through typed services rather than its tables (one of each for every plugin).
  const usage = createUsageRecords(deps.database.db);
  const operationLog = createOperationLogReader(deps.database.db);
  const organisation = createOrganisation(deps.database.db);
  const engineAdmin = createEngineAdmin(deps.database.db);
  const domains = createDomainUsage(deps.database.db);
  const closers: { pluginId: string; fn: () => Promise<void> | void }[] = [];

  async function runClosers(list: typeof closers) {
    for (const { pluginId, fn } of list.reverse()) {
      try {
        await fn();
      } catch (err) {
        deps.logger.error({ err }, `plugin ${pluginId}: onClose failed`);
      }
    }
  }

  async function start(plugin: DeployedPlugin): Promise<void> {
    const part = await importServerPart(plugin);
    if (part.migrations?.length) await runMigrations(deps.database, `plugin:${plugin.id}`, part.migrations);
    const owner: RouteOwner = { pluginId: plugin.id, declaredPermissions: new Set(plugin.manifest.permissions.map((p) => p.key)), apiKeyScopes: new Set(plugin.manifest.apiKeyScopes.map((s) => s.scope)) };
    const ctx: ServerPluginContext = {
      pluginId: plugin.id,
      config: Object.freeze(pluginConfig(deps.config.dataDir, plugin.id)),
      logger: sdkLogger(deps.logger, { plugin: plugin.id }),
      db: deps.database.db,
      jobs: deps.jobs.forPlugin(plugin.id),
      bus: deps.bus,
      storage: createFileStorage(join(deps.config.dataDir, 'files'), plugin.id),
      auth: deps.auth,
      users: deps.users,
      usage,
      operationLog,
      organisation,
      engineAdmin,
      domains: domains.forPlugin(plugin.id),
      engines: withUsageChannels(deps.engines.forPlugin?.(plugin.id) ?? deps.engines, plugin.id, declaredLists([plugin.manifest]).usageChannels.usableBy(plugin.id)),
      settings: deps.settings,
      messages: deps.messages.forPlugin?.(plugin.id) ?? deps.messages,
      services: services.forPlugin(plugin),
      tasks: deps.tasks.forPlugin(plugin.id),
      formats: deps.formats.forPlugin(plugin.id),
      pipeline: deps.hooks.forPlugin(plugin.id),
      route: (def) => deps.registerRoute(def, owner),
      socket: (def) => {
        if (!deps.sockets) throw new Error(`plugin ${plugin.id}: this kernel serves no plugin sockets`);
        deps.sockets.accept(def, owner);
      },
      onClose: (fn) => void closers.push({ pluginId: plugin.id, fn }),
    };
    await part.setup(ctx);
    deps.logger.info(`plugin ${plugin.id} ${plugin.manifest.version} started`);
  }

  for (const plugin of enabled) {
    if (plugin.manifest.server) await start(plugin);
  }

  return {
    plugins,
    enabledIds: new Set(enabled.map((p) => p.id)),
    blocked: plan.blocked,
    start,
    async stop(pluginId) {
      deps.dropRoutes?.(pluginId);
      deps.sockets?.closePlugin(pluginId);
      const mine = closers.filter((c) => c.pluginId === pluginId);
      for (const c of mine) closers.splice(closers.indexOf(c), 1);
      await runClosers(mine);
      services.dropOwner(pluginId);
      deps.tasks.forget(pluginId);
      deps.formats.dropOwner(pluginId);
      deps.hooks.dropOwner(pluginId);
      domains.dropOwner(pluginId);
      deps.engines.dropOwner?.(pluginId);
      deps.logger.info(`plugin ${pluginId} stopped`);
    },
    async close() {
      await runClosers(closers.splice(0));
    },
    service: (token) => services.provided(token),
  };
}
