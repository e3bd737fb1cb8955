import type { Registry, RegistryRoute } from '@linguaport/sdk/shared';
import { SDK_VERSION } from '../../../../plugin-sdk/src/shared/version.js';

/** The registry the server filtered for this user (GET /api/plugins/registry). */
export class RegistryStore {
  private current: Registry = { sdkVersion: SDK_VERSION, plugins: {}, routes: {} };
  /** Every route path any registry of this page's life listed: a page that existed a moment ago is not "unknown". */
  private readonly seen = new Set<string>();

  get(): Registry {
    return this.current;
  }

  set(registry: Registry): void {
    this.current = { sdkVersion: registry.sdkVersion, plugins: registry.plugins ?? {}, routes: registry.routes ?? {} };
    for (const path of Object.keys(this.current.routes)) this.seen.add(path);
  }

  clear(): void {
    this.current = { sdkVersion: SDK_VERSION, plugins: {}, routes: {} };
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
