import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely, Selectable } from 'kysely';
import type { Caller, EventBus, Logger } from '@linguaport/sdk/server';
import { registryRouteOf, slotTable, type Registry, type RegistryPlugin } from '@linguaport/sdk/shared';
import { menuKey, syncPermissionTree } from '../access/permission-tree.js';
import { routeTitles, type DeployedPlugin } from './deployment.js';
import type { PluginStateTable } from '../db/schema.js';
import type { KernelTables } from '../db/schema.js';

/**
 * The plugins' run-time state: which built-ins and uploaded packages are live, what the registry
 * holds for a caller, and what happens after a change (permission tree sync, bus events). The
 * state lives in table `plugin_state`; every instance reloads it on `registry.changed`, so a
 * change made on one instance reaches the route checks of all of them.
 */

/** A row of `plugin_state` (the kernel schema's), with the words its source and type take. */
export type PluginStateRow = Omit<Selectable<PluginStateTable>, 'source' | 'type' | 'updated_at' | 'created_at'> & {
  source: 'builtin' | 'package';
  type: 'console' | 'download';
  updated_at: Date | string;
  created_at: Date | string;
};

/** What install writes next to a package's files: the registry entry with URLs and integrity. */
export const ENTRY_FILE = 'registry-entry.json';
/** The file the uploader sent, kept as is (what users download for the download type). */
export const ORIGINAL_DIR = 'original';

export const REGISTRY_CHANGED = 'registry.changed';
export const PLUGIN_UPGRADED = 'plugin.upgraded';

export interface RuntimeDeps {
  db: Kysely<KernelTables>;
  bus: EventBus;
  dataDir: string;
  distDir: string;
  /** Every plugin of registry.json (enabled there or not). */
  builtins: DeployedPlugin[];
  /** The installation root: uploaded server parts resolve its node_modules (the SDK, zod, kysely). */
  rootDir: string;
  logger: Logger;
}

/** What the runtime needs from the plugin host to start and stop server parts after start-up. */
export interface ServerPartHost {
  start(plugin: DeployedPlugin): Promise<void>;
  stop(pluginId: string): Promise<void>;
}

export class PluginRuntime {
  private rows = new Map<string, PluginStateRow>();
  private installed = new Map<string, { plugin: DeployedPlugin; entry: RegistryPlugin }>();
  private readonly builtins: Map<string, DeployedPlugin>;
  private subscription: { unsubscribe(): void } | null = null;
  /**
   * Uploaded server parts running in this process: plugin id -> version. They start once the app is
   * ready (at boot and whenever a package goes live), so their routes are the kernel's late routes and
   * can be stopped and replaced as the package's state changes; a part that fails to start is
   * contained (it does not stop the server) and its reason is kept for the details screen.
   */
  private readonly running = new Map<string, string>();
  private readonly serverErrors = new Map<string, string>();
  private serverHost: ServerPartHost | null = null;
  private serverSync: Promise<void> = Promise.resolve();

  constructor(private readonly deps: RuntimeDeps) {
    this.builtins = new Map(deps.builtins.map((p) => [p.id, p]));
  }

  /** Creates rows for new built-ins (enabled as registry.json says), loads state, listens for changes. */
  async init(): Promise<void> {
    for (const p of this.builtins.values()) {
      await this.deps.db
        .insertInto('plugin_state')
        .values({ id: p.id, source: 'builtin', type: p.manifest.type, enabled: p.enabled, published: true, current_version: p.manifest.version, publisher: 'built-in', signature_state: 'built-in', description: p.manifest.description?.['en-US'] ?? null })
        .onConflict((oc) => oc.column('id').doUpdateSet({ current_version: p.manifest.version, type: p.manifest.type }))
        .execute();
    }
    await this.reload();
    this.subscription = this.deps.bus.events(REGISTRY_CHANGED).subscribe(() => void this.reload().catch((err) => this.deps.logger.error(`plugin state reload failed: ${(err as Error).message}`)));
  }

  close(): void {
    this.subscription?.unsubscribe();
  }

  async reload(): Promise<void> {
    const rows = (await this.deps.db.selectFrom('plugin_state').selectAll().execute()) as PluginStateRow[];
    this.rows = new Map(rows.map((r) => [r.id, r]));
    await this.syncServerParts();
  }

  /** Starts the live packages' server parts (once the app is ready); from then on they follow the state. */
  async attachServerHost(host: ServerPartHost): Promise<void> {
    this.serverHost = host;
    await this.syncServerParts();
  }

  /**
   * Brings this process's uploaded server parts in line with the state: a live package whose server
   * part is not running starts; a late-started one that is no longer live, or whose current version
   * changed, stops (and the new version starts). One sync at a time.
   */
  private syncServerParts(): Promise<void> {
    const run = async () => {
      const host = this.serverHost;
      if (!host) return;
      for (const [id, version] of this.running) {
        const row = this.rows.get(id);
        const wanted = row && row.source === 'package' && this.isLive(row) && this.uploadMeta(id, row.current_version).server ? row.current_version : null;
        if (wanted === version) continue;
        this.running.delete(id);
        await host.stop(id).catch((err) => this.deps.logger.error(`plugin ${id}: server part did not stop cleanly: ${(err as Error).message}`));
      }
      for (const row of this.rows.values()) {
        if (row.source !== 'package' || !this.isLive(row) || this.running.has(row.id)) continue;
        const server = this.uploadMeta(row.id, row.current_version).server;
        if (!server) continue;
        const { plugin } = this.installedVersion(row.id, row.current_version);
        this.ensureModulesLink();
        try {
          await host.start({ ...plugin, manifest: { ...plugin.manifest, server } });
          this.running.set(row.id, row.current_version);
          this.serverErrors.delete(`${row.id}@${row.current_version}`);
        } catch (err) {
          const message = (err as Error).message;
          this.serverErrors.set(`${row.id}@${row.current_version}`, message);
          this.deps.logger.error(`plugin ${row.id} ${row.current_version}: server part did not start: ${message}`);
          await host.stop(row.id).catch(() => {});
        }
      }
    };
    this.serverSync = this.serverSync.then(run, run);
    return this.serverSync;
  }

  /** Uploaded server parts import the SDK, zod and kysely through DATA_DIR/node_modules (a link). */
  private ensureModulesLink(): void {
    const link = join(this.deps.dataDir, 'node_modules');
    if (!existsSync(link)) symlinkSync(join(this.deps.rootDir, 'node_modules'), link, 'dir');
  }

  row(id: string): PluginStateRow | undefined {
    return this.rows.get(id);
  }

  allRows(): PluginStateRow[] {
    return [...this.rows.values()];
  }

  builtin(id: string): DeployedPlugin | undefined {
    return this.builtins.get(id);
  }

  builtinList(): DeployedPlugin[] {
    return [...this.builtins.values()];
  }

  /** A built-in ships when registry.json enables it (its bundle is built and its server part runs). */
  isDeployed(id: string): boolean {
    const b = this.builtins.get(id);
    return b ? b.enabled : this.rows.get(id)?.source === 'package';
  }

  private isLive(row: PluginStateRow): boolean {
    if (!row.enabled) return false;
    return row.source === 'builtin' ? this.isDeployed(row.id) && !this.held.has(row.id) : row.published;
  }

  /** Built-ins the host held back at start (a dependency or a service missing): off, with the reason. */
  private held = new Map<string, { 'zh-CN': string; 'en-US': string }>();
  holdBack(reasons: ReadonlyMap<string, { 'zh-CN': string; 'en-US': string }>): void {
    this.held = new Map(reasons);
  }
  heldBack(id: string): { 'zh-CN': string; 'en-US': string } | null {
    return this.held.get(id) ?? null;
  }

  /** For the route layer: unknown owners (the kernel itself) are always on. */
  isEnabled = (pluginId: string): boolean => {
    const row = this.rows.get(pluginId);
    return row ? this.isLive(row) : true;
  };

  /** DATA_DIR/plugins: every uploaded package, one folder per id and version. */
  installedRoot(): string {
    return join(this.deps.dataDir, 'plugins');
  }

  packageDir(id: string, version: string): string {
    return join(this.installedRoot(), id, version);
  }

  /** An installed package version: its manifest (as a deployed plugin, dir = its folder) and registry entry. */
  installedVersion(id: string, version: string): { plugin: DeployedPlugin; entry: RegistryPlugin } {
    const key = `${id}@${version}`;
    let hit = this.installed.get(key);
    if (!hit) {
      const dir = this.packageDir(id, version);
      const file = join(dir, ENTRY_FILE);
      if (!existsSync(file)) throw new Error(`plugin ${id} ${version}: ${file} is missing`);
      const entry = JSON.parse(readFileSync(file, 'utf8')) as RegistryPlugin & { manifest: DeployedPlugin['manifest'] };
      const { manifest, ...rest } = entry;
      hit = { plugin: { id, dir, enabled: true, manifest }, entry: rest };
      this.installed.set(key, hit);
    }
    return hit;
  }

  /** How an uploaded server part stands in this process: running, off (the package is not live), or failed (with the reason). */
  serverPartState(id: string, version: string): { state: 'running' | 'off' | 'failed'; error?: string } | null {
    if (!this.uploadMeta(id, version).server) return null;
    if (this.running.get(id) === version) return { state: 'running' };
    const error = this.serverErrors.get(`${id}@${version}`);
    return error ? { state: 'failed', error } : { state: 'off' };
  }

  uploadMeta(id: string, version: string): { logo: string | null; server: string | null; keyId: string | null } {
    const file = join(this.packageDir(id, version), 'upload.json');
    const meta = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
    return { logo: meta.logo ?? null, server: meta.server ?? null, keyId: meta.keyId ?? null };
  }

  /** The plugins that are on right now, built-in and uploaded, with their manifests. */
  livePlugins(): DeployedPlugin[] {
    const out: DeployedPlugin[] = [];
    for (const row of this.rows.values()) {
      if (!this.isLive(row)) continue;
      if (row.source === 'builtin') out.push(this.builtins.get(row.id)!);
      else out.push(this.installedVersion(row.id, row.current_version).plugin);
    }
    return out;
  }

  /** Brings the permission tree in line with the live plugins (new menus come unassigned). */
  async syncTree(): Promise<void> {
    const live = this.livePlugins();
    await syncPermissionTree(this.deps.db, live.map((p) => p.manifest), { titleOf: routeTitles(live), warn: (msg) => this.deps.logger.warn(msg) });
  }

  /** After a change: reload, sync the tree, tell every instance and every console. */
  async changed(reason: string, pluginId: string): Promise<void> {
    await this.reload();
    await this.syncTree();
    await this.deps.bus.publish({ type: REGISTRY_CHANGED, payload: { reason, pluginId } });
  }

  /** `GET /api/plugins/registry`: the build's registry plus live packages, cut to what the caller reaches. */
  async registryFor(caller: Caller): Promise<Registry> {
    const built: Registry = JSON.parse(await readFile(join(this.deps.distDir, 'registry.json'), 'utf8'));
    const all = new Map<string, RegistryPlugin>();
    for (const p of Object.values(built.plugins)) if (this.builtins.get(p.id)?.enabled && this.isEnabled(p.id)) all.set(p.id, p);
    for (const row of this.rows.values()) {
      if (row.source !== 'package' || !this.isLive(row) || row.type !== 'console') continue;
      all.set(row.id, this.installedVersion(row.id, row.current_version).entry);
    }
    const reached = [...all.values()].filter((p) => caller.isSuperAdmin || p.routes.some((r) => r.menu && caller.permissions.has(menuKey(r.path))));
    const routes: Registry['routes'] = {};
    for (const p of reached) {
      for (const r of p.routes) routes[r.path] = registryRouteOf(p.id, r);
    }
    // A plugin without menu routes has nothing to be reached by: its slot contributions count on their own permission.
    const menuless = [...all.values()].filter((p) => !reached.includes(p) && !p.routes.some((r) => r.menu) && p.slots?.length);
    const may = (key?: string) => !key || caller.isSuperAdmin || caller.permissions.has(key);
    const contributing = [...reached, ...menuless].map((p) => ({ id: p.id, slots: (p.slots ?? []).filter((c) => may(c.permission)) }));
    const plugins = [...reached, ...menuless.filter((p) => contributing.some((c) => c.id === p.id && c.slots.length))];
    return {
      sdkVersion: built.sdkVersion,
      plugins: Object.fromEntries(plugins.map((p) => [p.id, p])),
      routes,
      paths: [...new Set([...all.values()].flatMap((p) => p.routes.map((r) => r.path)))].sort(),
      slots: slotTable(contributing),
    };
  }
}
