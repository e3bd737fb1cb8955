import { z } from 'zod';
import type { AnyEngineAdapterDefinition as EngineAdapterDefinition, EngineAdapterKind, EngineCapabilityDefinition } from '@linguaport/sdk/server';
import { createCapabilityRegistry, type CapabilityRegistry } from './capabilities.js';

/**
 * The engine adapters plugins registered (`ctx.engines.registerAdapter`), by kind. The service
 * asks it for a node's adapter; a kind nobody registered (its plugin is off) leaves its nodes
 * unavailable with that reason, and routing simply has no such node to pick.
 */

export interface RegisteredAdapter {
  definition: EngineAdapterDefinition;
  /** The plugin that registered it (`core` for the kernel's own). */
  owner: string;
  /** Its capability's declaration, from the capability registry. */
  capability: EngineCapabilityDefinition<any>;
  /** Releases the capability the definition declared (when it brought one). */
  release(): void;
}

export interface AdapterRegistry {
  register(definition: EngineAdapterDefinition, owner: string): () => void;
  get(kind: string): RegisteredAdapter | undefined;
  kinds(): EngineAdapterKind[];
  /** Removes a stopped plugin's adapters. */
  dropOwner(owner: string): void;
  /** Told when a kind comes or goes. */
  onChange(fn: (kind: string, present: boolean) => void): void;
  /** The capabilities plugins declared (adapter definitions declare theirs when they register). */
  readonly capabilities: CapabilityRegistry;
}

const KIND = /^[a-z][a-z0-9-]{1,39}$/;

/** Why a node of `kind` cannot run: its adapter is missing. */
export function noAdapterReason(kind: string): string {
  return `No engine adapter of kind "${kind}" is registered: the plugin that brings it is not enabled`;
}

function check(def: EngineAdapterDefinition, owner: string): void {
  const where = `plugin ${owner}: engine adapter ${String(def?.kind)}`;
  if (!def || typeof def.kind !== 'string' || !KIND.test(def.kind)) throw new Error(`${where}: kind must be 2-40 lower-case letters, digits and dashes`);
  if (typeof def.name?.['zh-CN'] !== 'string' || typeof def.name?.['en-US'] !== 'string') throw new Error(`${where}: name needs zh-CN and en-US`);
  if (typeof def.capability !== 'string' && (typeof def.capability !== 'object' || !def.capability)) throw new Error(`${where}: capability must be a capability's declaration or id`);
  if (!def.config || typeof def.config.safeParse !== 'function' || typeof def.config.shape !== 'object') throw new Error(`${where}: config must be a zod object schema`);
  if (typeof def.create !== 'function') throw new Error(`${where}: create must be a function`);
  for (const s of def.secrets ?? []) if (!(s in def.config.shape)) throw new Error(`${where}: secret ${s} is not a field of its config`);
  if (def.supervise && (typeof def.supervise.start !== 'function' || !def.supervise.label)) throw new Error(`${where}: supervise needs a label and start()`);
}

/** The capability a definition names: its declaration, registered now, or the id of one registered before. */
function capabilityOf(def: EngineAdapterDefinition, owner: string, capabilities: CapabilityRegistry): { capability: EngineCapabilityDefinition<any>; release(): void } {
  if (typeof def.capability !== 'string') {
    const release = capabilities.register(def.capability, owner);
    return { capability: capabilities.get(def.capability.id)!, release };
  }
  const known = capabilities.get(def.capability);
  if (!known) throw new Error(`plugin ${owner}: engine adapter ${def.kind}: no capability ${def.capability} is registered (register its declaration first, or name the declaration)`);
  return { capability: known, release() {} };
}

export function createAdapterRegistry(capabilities: CapabilityRegistry = createCapabilityRegistry()): AdapterRegistry {
  const byKind = new Map<string, RegisteredAdapter>();
  const listeners: ((kind: string, present: boolean) => void)[] = [];
  const tell = (kind: string, present: boolean) => {
    for (const fn of listeners) fn(kind, present);
  };
  const remove = (entry: RegisteredAdapter) => {
    if (byKind.get(entry.definition.kind) !== entry) return;
    byKind.delete(entry.definition.kind);
    entry.release();
    tell(entry.definition.kind, false);
  };
  return {
    register(definition, owner) {
      check(definition, owner);
      const taken = byKind.get(definition.kind);
      if (taken) throw new Error(`plugin ${owner}: engine adapter kind ${definition.kind} is already registered by ${taken.owner}`);
      const entry = { definition, owner, ...capabilityOf(definition, owner, capabilities) };
      byKind.set(definition.kind, entry);
      tell(definition.kind, true);
      return () => remove(entry);
    },
    get: (kind) => byKind.get(kind),
    kinds() {
      return [...byKind.values()]
        .sort((a, b) => a.definition.kind.localeCompare(b.definition.kind))
        .map(({ definition: d, owner, capability }) => ({
          kind: d.kind,
          name: d.name,
          capability: capability.id,
          local: !!(d.local ?? d.supervise),
          plugin: owner,
          schema: z.toJSONSchema(d.config, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
          secrets: [...(d.secrets ?? [])],
          fields: d.fields ?? {},
        }));
    },
    dropOwner(owner) {
      for (const entry of [...byKind.values()]) if (entry.owner === owner) remove(entry);
      capabilities.dropOwner(owner);
    },
    onChange(fn) {
      listeners.push(fn);
    },
    capabilities,
  };
}
