import type { Kysely } from 'kysely';
import type { ZodObject, ZodRawShape, infer as Infer } from 'zod';
import type { ServerPluginContext } from './index.js';

/**
 * An area's own settings (upload limits, queue lengths...), kept as key/JSON rows in a table of its
 * own (`key text primary key, value jsonb`): a stored value wins over the plugin's configuration
 * (`DATA_DIR/config/<id>.json`), which wins over the built-in default. A stored value the schema no
 * longer accepts falls back (the whole stored set is checked with the schema, partially). Read
 * through a short cache so a busy route does not cost a query each time; `set` clears it.
 */
export interface AreaSettingsStore<T> {
  get(): Promise<T>;
  set(next: T): Promise<T>;
  readonly defaults: T;
}

export function createAreaSettings<S extends ZodRawShape>(
  ctx: Pick<ServerPluginContext, 'config'>,
  db: Kysely<any>,
  options: { table: string; schema: ZodObject<S>; defaults: Infer<ZodObject<S>>; cacheMs?: number },
): AreaSettingsStore<Infer<ZodObject<S>>> {
  type T = Infer<ZodObject<S>>;
  const partial = options.schema.partial();
  const configured = partial.safeParse(ctx.config);
  const defaults = { ...options.defaults, ...(configured.success ? configured.data : {}) } as T;
  const cacheMs = options.cacheMs ?? 2_000;
  let cached: { at: number; value: T } | null = null;

  async function get(): Promise<T> {
    if (cached && Date.now() - cached.at < cacheMs) return cached.value;
    const rows = (await db.selectFrom(options.table).select(['key', 'value']).execute()) as Array<{ key: string; value: unknown }>;
    const stored = Object.fromEntries(rows.map((r) => [r.key, typeof r.value === 'string' ? JSON.parse(r.value) : r.value]));
    const parsed = partial.safeParse(stored);
    const value = { ...defaults, ...(parsed.success ? parsed.data : {}) } as T;
    cached = { at: Date.now(), value };
    return value;
  }

  async function set(next: T): Promise<T> {
    await db.transaction().execute(async (trx) => {
      for (const [key, value] of Object.entries(next as object)) {
        await trx
          .insertInto(options.table)
          .values({ key, value: JSON.stringify(value) })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value) }))
          .execute();
      }
    });
    cached = null;
    return get();
  }

  return { get, set, defaults };
}
