import { z } from 'zod';
import type { AnyEngineAdapterDefinition as EngineAdapterDefinition, EngineAdapterKind } from '@linguaport/sdk/server';

/**
 * The engine adapters plugins registered (`ctx.engines.registerAdapter`), by kind. The service
 * asks it for a node's adapter; a kind nobody registered (its plugin is off) leaves its nodes
 * unavailable with that reason, and routing simply has no such node to pick.
 */

export interface RegisteredAdapter {
  definition: EngineAdapterDefinition;
  /** The plugin that registered it (`core` for the kernel's own). */
  owner: string;
}

export interface AdapterRegistry {
  register(definition: EngineAdapterDefinition, owner: string): () => void;
  get(kind: string): RegisteredAdapter | undefined;
  kinds(): EngineAdapterKind[];
  /** Removes a stopped plugin's adapters. */
  dropOwner(owner: string): void;
  /** Told when a kind comes or goes. */
  onChange(fn: (kind: string, present: boolean) => void): void;
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
  if (!['translate', 'ocr', 'speech', 'speaker'].includes(def.capability)) throw new Error(`${where}: capability must be translate, ocr, speech or speaker`);
  if (!def.config || typeof def.config.safeParse !== 'function' || typeof def.config.shape !== 'object') throw new Error(`${where}: config must be a zod object schema`);
  if (typeof def.create !== 'function') throw new Error(`${where}: create must be a function`);
  for (const s of def.secrets ?? []) if (!(s in def.config.shape)) throw new Error(`${where}: secret ${s} is not a field of its config`);
  if (def.supervise && (typeof def.supervise.start !== 'function' || !def.supervise.label)) throw new Error(`${where}: supervise needs a label and start()`);
}

export function createAdapterRegistry(): AdapterRegistry {
  const byKind = new Map<string, RegisteredAdapter>();
  const listeners: ((kind: string, present: boolean) => void)[] = [];
  const tell = (kind: string, present: boolean) => {
    for (const fn of listeners) fn(kind, present);
  };
  const remove = (entry: RegisteredAdapter) => {
    if (byKind.get(entry.definition.kind) !== entry) return;
    byKind.delete(entry.definition.kind);
    tell(entry.definition.kind, false);
  };
  return {
    register(definition, owner) {
      check(definition, owner);
      const taken = byKind.get(definition.kind);
      if (taken) throw new Error(`plugin ${owner}: engine adapter kind ${definition.kind} is already registered by ${taken.owner}`);
      const entry = { definition, owner };
      byKind.set(definition.kind, entry);
      tell(definition.kind, true);
      return () => remove(entry);
    },
    get: (kind) => byKind.get(kind),
    kinds() {
      return [...byKind.values()]
        .sort((a, b) => a.definition.kind.localeCompare(b.definition.kind))
        .map(({ definition: d, owner }) => ({
          kind: d.kind,
          name: d.name,
          capability: d.capability,
          local: !!(d.local ?? d.supervise),
          plugin: owner,
          schema: z.toJSONSchema(d.config, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
          secrets: [...(d.secrets ?? [])],
          fields: d.fields ?? {},
        }));
    },
    dropOwner(owner) {
      for (const entry of [...byKind.values()]) if (entry.owner === owner) remove(entry);
    },
    onChange(fn) {
      listeners.push(fn);
    },
  };
}
