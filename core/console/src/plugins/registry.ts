import type { Registry, RegistryRoute, RegistrySlot } from '@linguaport/sdk/shared';
import { SDK_VERSION } from '../../../../plugin-sdk/src/shared/version.js';

const EMPTY: Registry = { sdkVersion: SDK_VERSION, plugins: {}, routes: {}, paths: [], slots: {} };

/** The registry the server filtered for this user (GET /api/plugins/registry). */
export class RegistryStore {
  private current: Registry = EMPTY;
  private paths: ReadonlySet<string> = new Set();
  /** Every route path any registry of this page's life listed: a page that existed a moment ago is not "unknown". */
  private readonly seen = new Set<string>();

  get(): Registry {
    return this.current;
  }

  set(registry: Registry): void {
    this.current = {
      sdkVersion: registry.sdkVersion,
      plugins: registry.plugins ?? {},
      routes: registry.routes ?? {},
      paths: registry.paths ?? [],
      slots: registry.slots ?? {},
    };
    this.paths = new Set(this.current.paths);
    for (const path of Object.keys(this.current.routes)) this.seen.add(path);
  }

  clear(): void {
    this.current = EMPTY;
    this.paths = new Set();
  }

  /** A route of an enabled plugin, whether this user reaches it or not (the manifests' paths). */
  exists(path: string): boolean {
    return this.paths.has(path);
  }

  /** The contributions to a slot from plugins in this registry, in order (the server already dropped what the user may not see). */
  slot(name: string): readonly RegistrySlot[] {
    const list = Object.prototype.hasOwnProperty.call(this.current.slots, name) ? this.current.slots![name]! : [];
    return list.filter((c) => Object.prototype.hasOwnProperty.call(this.current.plugins, c.plugin));
  }

  route(path: string): RegistryRoute | undefined {
    return Object.prototype.hasOwnProperty.call(this.current.routes, path) ? this.current.routes[path] : undefined;
  }

  wasKnown(path: string): boolean {
    return this.seen.has(path);
  }

  /** Detail route -> parent menu path (spec 01 2.4 as manifest data). */
  detailParents(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [path, r] of Object.entries(this.current.routes)) if (r.parent) out[path] = r.parent;
    return out;
  }
}
