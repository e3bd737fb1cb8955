import type { EngineCapabilityDefinition, EngineCapabilityInfo } from '@linguaport/sdk/server';

/**
 * The engine capabilities plugins declared (`ctx.engines.registerCapability`, or an adapter
 * definition naming a declaration), by id. The kernel knows none by name: node start checks an
 * adapter against its capability's contract, health checks and routing read `routing`, and the
 * engines page lists what is here. Several plugins may declare one id (every speech engine plugin
 * brings `speech`): the first declaration is kept, and the id goes with its last declarer.
 */

export interface CapabilityRegistry {
  register(definition: EngineCapabilityDefinition<any>, owner: string): () => void;
  get(id: string): EngineCapabilityDefinition<any> | undefined;
  list(): EngineCapabilityInfo[];
  dropOwner(owner: string): void;
}

const ID = /^[a-z][a-z0-9-]{1,39}$/;

function check(def: EngineCapabilityDefinition<any>, owner: string): void {
  const where = `plugin ${owner}: engine capability ${String(def?.id)}`;
  const localized = (l: unknown) => typeof (l as Record<string, unknown>)?.['zh-CN'] === 'string' && typeof (l as Record<string, unknown>)?.['en-US'] === 'string';
  if (!def || typeof def.id !== 'string' || !ID.test(def.id)) throw new Error(`${where}: id must be 2-40 lower-case letters, digits and dashes`);
  if (!localized(def.name) || !localized(def.node)) throw new Error(`${where}: name and node need zh-CN and en-US`);
  if (def.routing !== 'pairs' && def.routing !== 'language') throw new Error(`${where}: routing must be pairs or language`);
  if (typeof def.isAdapter !== 'function') throw new Error(`${where}: isAdapter must be a function`);
}

export function createCapabilityRegistry(): CapabilityRegistry {
  const byId = new Map<string, { definition: EngineCapabilityDefinition<any>; owners: string[] }>();
  const release = (id: string, owner: string) => {
    const entry = byId.get(id);
    if (!entry) return;
    const at = entry.owners.indexOf(owner);
    if (at >= 0) entry.owners.splice(at, 1);
    if (!entry.owners.length) byId.delete(id);
  };
  return {
    register(definition, owner) {
      check(definition, owner);
      const entry = byId.get(definition.id);
      // Another copy of the same declaration (an uploaded part's own SDK) is the same capability; a different routing is not.
      if (entry && entry.definition.routing !== definition.routing) {
        throw new Error(`plugin ${owner}: engine capability ${definition.id} is already registered by ${entry.owners[0]} with routing ${entry.definition.routing}`);
      }
      if (entry) entry.owners.push(owner);
      else byId.set(definition.id, { definition, owners: [owner] });
      let done = false;
      return () => {
        if (!done) release(definition.id, owner);
        done = true;
      };
    },
    get: (id) => byId.get(id)?.definition,
    list() {
      return [...byId.values()]
        .sort((a, b) => a.definition.id.localeCompare(b.definition.id))
        .map(({ definition: d, owners }) => ({
          id: d.id,
          name: d.name,
          node: d.node,
          routing: d.routing,
          plugins: [...new Set(owners)],
          console: { ...d.console, title: d.console?.title ?? d.name },
        }));
    },
    dropOwner(owner) {
      for (const id of [...byId.keys()]) while (byId.get(id)?.owners.includes(owner)) release(id, owner);
    },
  };
}
