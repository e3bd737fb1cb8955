import type { i18n as I18n } from 'i18next';
import type { ConsolePlugin } from '@linguaport/sdk/console';
import type { Locale, Registry, RegistryPlugin } from '@linguaport/sdk/shared';
import { satisfies } from '../../../../plugin-sdk/src/shared/semver.js';
import { SDK_VERSION } from '../../../../plugin-sdk/src/shared/version.js';
import { PluginLoadError } from './errors.js';
import type { SystemLoader } from './system.js';

export interface LoadedPlugin {
  manifest: RegistryPlugin;
  module: ConsolePlugin;
}

export interface PluginLoaderOptions {
  registry: () => Registry;
  i18n: I18n;
  system?: SystemLoader;
  fetch?: typeof fetch;
  /** Milliseconds before a load is abandoned as `timeout`. */
  timeoutMs?: number;
  sdkVersion?: string;
  /** Where plugin stylesheets go; none in environments without a document. */
  document?: Document;
}

export const LOAD_TIMEOUT_MS = 15_000;

/**
 * Loads a plugin on first use: SDK range check, locale resources, bundle with integrity,
 * evaluation through SystemJS, module shape check. One promise per plugin id; a failed load is
 * forgotten so a retry fetches again.
 */
export class PluginLoader {
  private readonly cache = new Map<string, Promise<LoadedPlugin>>();
  private readonly settled = new Map<string, LoadedPlugin>();
  private readonly verified = new Map<string, string>();
  private readonly localesLoaded = new Map<string, Set<Locale>>();
  private readonly system: SystemLoader;
  private readonly fetchFn: typeof fetch;
  private readonly timeoutMs: number;
  private readonly sdkVersion: string;
  private hooked = false;

  constructor(private readonly options: PluginLoaderOptions) {
    this.system = options.system ?? globalThis.System;
    this.fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? LOAD_TIMEOUT_MS;
    this.sdkVersion = options.sdkVersion ?? SDK_VERSION;
  }

  load(pluginId: string): Promise<LoadedPlugin> {
    let pending = this.cache.get(pluginId);
    if (!pending) {
      pending = this.loadFresh(pluginId);
      this.cache.set(pluginId, pending);
      pending.then(
        (loaded) => this.settled.set(pluginId, loaded),
        () => this.forget(pluginId),
      );
    }
    return pending;
  }

  /** The plugin, synchronously, once it has loaded; undefined before. */
  loaded(pluginId: string): LoadedPlugin | undefined {
    return this.settled.get(pluginId);
  }

  /** The settled module if the plugin is already loaded (no fetch). */
  isLoaded(pluginId: string): boolean {
    return this.cache.has(pluginId);
  }

  forget(pluginId: string): void {
    this.cache.delete(pluginId);
    this.settled.delete(pluginId);
  }

  /** Before a locale switch: fetch that locale's resources for every plugin loaded so far. */
  async loadLocaleForAll(locale: Locale): Promise<void> {
    const registry = this.options.registry();
    await Promise.all(
      [...this.localesLoaded.keys()].map(async (id) => {
        const plugin = registry.plugins[id];
        if (plugin) await this.loadLocale(plugin, locale).catch(() => undefined);
      }),
    );
  }

  private async loadFresh(pluginId: string): Promise<LoadedPlugin> {
    const plugin = this.options.registry().plugins[pluginId];
    if (!plugin) throw new PluginLoadError('unregistered', pluginId, `plugin ${pluginId} is not in the registry`);
    // The SDK range is checked before any of the plugin's code or resources are fetched.
    if (!satisfies(this.sdkVersion, plugin.sdk)) {
      throw new PluginLoadError('sdk-incompatible', pluginId, `plugin ${pluginId} needs SDK ${plugin.sdk}, the console has ${this.sdkVersion}`, {
        range: plugin.sdk,
        sdk: this.sdkVersion,
      });
    }
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new PluginLoadError('timeout', pluginId, `plugin ${pluginId} did not load within ${this.timeoutMs} ms`, { seconds: this.timeoutMs / 1000 }));
      }, this.timeoutMs);
    });
    try {
      return await Promise.race([this.fetchAndEvaluate(plugin, abort.signal), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async fetchAndEvaluate(plugin: RegistryPlugin, signal: AbortSignal): Promise<LoadedPlugin> {
    const locale = (this.options.i18n.language as Locale) || 'zh-CN';
    // Resources first: the module may call t() while it is evaluated.
    await this.loadLocale(plugin, locale, signal);
    const source = await this.fetchVerified(plugin, signal);
    if (plugin.css) void this.attachStylesheet(plugin);
    const ns = await this.evaluate(plugin, source);
    return { manifest: plugin, module: this.checkModule(plugin, ns) };
  }

  private async loadLocale(plugin: RegistryPlugin, locale: Locale, signal?: AbortSignal): Promise<void> {
    const done = this.localesLoaded.get(plugin.id) ?? new Set<Locale>();
    this.localesLoaded.set(plugin.id, done);
    if (done.has(locale)) return;
    const url = plugin.locales[locale];
    if (!url) return;
    const res = await this.get(plugin.id, url, signal);
    let body: unknown;
    try {
      body = await res.json();
    } catch (error) {
      throw new PluginLoadError('invalid-module', plugin.id, `locale ${locale} of ${plugin.id} is not JSON`, {}, { cause: error });
    }
    for (const [namespace, resources] of Object.entries(body as Record<string, Record<string, unknown>>)) {
      this.options.i18n.addResourceBundle(locale, namespace, resources, true, true);
    }
    done.add(locale);
  }

  private async get(pluginId: string, url: string, signal?: AbortSignal): Promise<Response> {
    let res: Response;
    try {
      res = await this.fetchFn(url, { signal, credentials: 'same-origin' });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new PluginLoadError('network', pluginId, `fetching ${url} failed: ${(error as Error).message}`, {}, { cause: error });
    }
    if (!res.ok) throw new PluginLoadError('http', pluginId, `fetching ${url} answered HTTP ${res.status}`, { status: res.status });
    return res;
  }

  private async fetchVerified(plugin: RegistryPlugin, signal: AbortSignal): Promise<string> {
    const res = await this.get(plugin.id, plugin.bundle, signal);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const actual = await sha384(bytes);
    if (`sha384-${actual}` !== plugin.integrity.trim()) {
      throw new PluginLoadError('integrity', plugin.id, `bundle of ${plugin.id} does not match ${plugin.integrity}`);
    }
    return new TextDecoder().decode(bytes);
  }

  /**
   * Evaluate the verified source through SystemJS without a second download: its fetch hook is
   * answered from the bytes that passed the integrity check.
   */
  private async evaluate(plugin: RegistryPlugin, source: string): Promise<Record<string, unknown>> {
    this.hookSystemFetch();
    const url = new URL(plugin.bundle, globalThis.location?.href ?? 'http://localhost/').href;
    this.verified.set(url, source);
    try {
      return await this.system.import(url);
    } catch (error) {
      if (error instanceof PluginLoadError) throw error;
      throw new PluginLoadError('evaluation', plugin.id, `evaluating ${plugin.id} failed: ${(error as Error).message}`, {}, { cause: error });
    } finally {
      this.verified.delete(url);
    }
  }

  private hookSystemFetch(): void {
    if (this.hooked) return;
    this.hooked = true;
    const system = this.system;
    const shouldFetch = system.shouldFetch.bind(system);
    const fetchHook = system.fetch.bind(system);
    system.shouldFetch = (url, parent, meta) => this.verified.has(url) || shouldFetch(url, parent, meta);
    system.fetch = (url, init) => {
      const source = this.verified.get(url);
      if (source === undefined) return fetchHook(url, init);
      return Promise.resolve(new Response(source, { headers: { 'content-type': 'application/javascript' } }));
    };
  }

  private checkModule(plugin: RegistryPlugin, ns: Record<string, unknown>): ConsolePlugin {
    const mod = ns.default as Partial<ConsolePlugin> | undefined;
    if (!mod || typeof mod !== 'object' || typeof mod.views !== 'object' || mod.views === null) {
      throw new PluginLoadError('invalid-module', plugin.id, `${plugin.id} has no default export made by definePlugin()`);
    }
    if (mod.id !== plugin.id) {
      throw new PluginLoadError('invalid-module', plugin.id, `${plugin.id}'s module declares id ${String(mod.id)}`);
    }
    for (const route of plugin.routes) {
      const view = mod.views[route.view];
      if (typeof view !== 'function' && (typeof view !== 'object' || view === null)) {
        throw new PluginLoadError('invalid-module', plugin.id, `${plugin.id} has no view ${route.view} for ${route.path}`);
      }
    }
    for (const name of plugin.views ?? []) {
      const view = mod.views[name];
      if (typeof view !== 'function' && (typeof view !== 'object' || view === null)) {
        throw new PluginLoadError('invalid-module', plugin.id, `${plugin.id} has no view ${name} (declared in views)`);
      }
    }
    return mod as ConsolePlugin;
  }

  private attachStylesheet(plugin: RegistryPlugin): Promise<void> {
    const doc = this.options.document ?? globalThis.document;
    if (!doc || !plugin.css || doc.querySelector(`link[data-plugin="${plugin.id}"]`)) return Promise.resolve();
    const link = doc.createElement('link');
    link.rel = 'stylesheet';
    link.href = plugin.css;
    link.dataset.plugin = plugin.id;
    if (plugin.cssIntegrity) {
      link.integrity = plugin.cssIntegrity;
      link.crossOrigin = 'anonymous';
    }
    // A stylesheet that fails (network or integrity) leaves the view unstyled but usable.
    return new Promise((resolve) => {
      link.onload = () => resolve();
      link.onerror = () => {
        console.warn(`[plugins] stylesheet of ${plugin.id} failed to load`);
        resolve();
      };
      doc.head.appendChild(link);
    });
  }
}

export async function sha384(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', bytes));
  let binary = '';
  for (const b of digest) binary += String.fromCharCode(b);
  return btoa(binary);
}
