import type { Kysely } from 'kysely';
import type { DomainUsage } from '@linguaport/sdk/server';
import type { KernelTables } from '../db/schema.js';

type Counter = { owner: string; records: string; count: (code: string) => Promise<number> };

/**
 * `ctx.domains`: the areas that store domain codes declare a counter each (the kernel its engines),
 * and the domain area asks them all whether a code is in use. A stopped plugin's counters go.
 */
export function createDomainUsage(db: Kysely<KernelTables>) {
  const counters: Counter[] = [
    {
      owner: 'core',
      records: 'engines',
      count: async (code) => Number((await db.selectFrom('engines').select((eb) => eb.fn.countAll<string>().as('n')).where('domain', '=', code).executeTakeFirst())?.n ?? 0),
    },
  ];
  const of: DomainUsage['of'] = async (code) => {
    const found = await Promise.all(counters.map(async (c) => ({ table: c.records, rows: await c.count(code) })));
    return found.filter((f) => f.rows > 0).sort((a, b) => a.table.localeCompare(b.table));
  };
  return {
    forPlugin(pluginId: string): DomainUsage {
      return {
        register(records, count) {
          counters.push({ owner: pluginId, records, count });
        },
        of,
      };
    },
    dropOwner(pluginId: string) {
      for (let i = counters.length - 1; i >= 0; i--) if (counters[i]!.owner === pluginId) counters.splice(i, 1);
    },
  };
}
