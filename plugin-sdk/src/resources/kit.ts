import type { z } from 'zod';
import type { ServerPluginContext } from '../server/index.js';
import { entryRoutes, type EntryKind } from './entries.js';
import { LibraryAccess, libraryRoutes, type LibraryNoun, type LibraryUsageCheck } from './libraries.js';

export interface LibraryKitOptions<F extends z.ZodRawShape> {
  ctx: ServerPluginContext;
  /** The tables' namespace: `tm` reads `tm_libraries`, `tm_entries`... */
  prefix: string;
  /** The area's route prefix (`/TM`, `/term`) and its history route (`/TMHistory`, `/termHistory`). */
  routes: string;
  historyRoute: string;
  keys: { view: string; manage: string; add: string; edit: string; delete: string; review: string };
  noun: LibraryNoun;
  entries: EntryKind<F>;
  /** Entries of a library were added, changed, reviewed or deleted (an index to drop). */
  changed?: (libraryId: number) => void;
}

export interface LibraryKit {
  access: LibraryAccess;
  /** Checks other areas register to keep a library from being deleted. */
  usage: LibraryUsageCheck[];
}

/**
 * Libraries and their entries for an area, with their routes registered: `<routes>/library/list|add|
 * update|default|delete`, `<routes>/users`, `<routes>/entry/list|add|update|delete|review` and
 * `<historyRoute>/list`. The area adds its own routes (import, export, lookups) with `access`.
 */
export function createLibraryKit<F extends z.ZodRawShape>(o: LibraryKitOptions<F>): LibraryKit {
  const db = o.ctx.db;
  const access = new LibraryAccess(db, o.prefix, o.noun);
  const usage: LibraryUsageCheck[] = [];
  libraryRoutes({ ctx: o.ctx, db, access, usage, routes: o.routes, keys: o.keys });
  entryRoutes({ ctx: o.ctx, db, access, routes: o.routes, historyRoute: o.historyRoute, keys: o.keys, kind: o.entries, changed: o.changed ?? (() => {}) });
  return { access, usage };
}
