import type { PluginServices, ServiceToken } from '@linguaport/sdk/server';
import type { DeployedPlugin } from './deployment.js';

/**
 * Services between plugins, by name, checked against the manifests: a plugin provides only what its
 * `provides` declares and uses only what its `consumes` declares. A stopped plugin's services go.
 */
export function createServiceRegistry() {
  const provided = new Map<string, { owner: string; implementation: unknown }>();
  return {
    forPlugin(plugin: DeployedPlugin): PluginServices {
      const consumed = (name: string) => plugin.manifest.consumes.find((c) => c.service === name);
      const lookup = (token: ServiceToken<unknown>) => {
        if (!consumed(token.name)) throw new Error(`plugin ${plugin.id} uses service ${token.name}, which its manifest does not list under consumes`);
        return provided.get(token.name)?.implementation ?? null;
      };
      return {
        provide(token, implementation) {
          if (!plugin.manifest.provides.includes(token.name)) throw new Error(`plugin ${plugin.id} provides service ${token.name}, which its manifest does not list under provides`);
          const held = provided.get(token.name);
          if (held && held.owner !== plugin.id) throw new Error(`service ${token.name} is already provided by plugin ${held.owner}`);
          provided.set(token.name, { owner: plugin.id, implementation });
        },
        use<T>(token: ServiceToken<T>): T {
          const found = lookup(token);
          if (found === null) throw new Error(`plugin ${plugin.id} needs service ${token.name}, which no running plugin provides`);
          return found as T;
        },
        find<T>(token: ServiceToken<T>): T | null {
          return lookup(token) as T | null;
        },
      };
    },
    /** The kernel's own use (it has no manifest): the service a running plugin provides now, or null. */
    provided<T>(token: ServiceToken<T>): T | null {
      return (provided.get(token.name)?.implementation as T | undefined) ?? null;
    },
    dropOwner(pluginId: string) {
      for (const [name, entry] of [...provided]) if (entry.owner === pluginId) provided.delete(name);
    },
  };
}
