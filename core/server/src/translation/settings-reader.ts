import type { Kysely } from 'kysely';
import type { KernelTables } from '../db/schema.js';
import type { EventBus } from '@linguaport/sdk/server';

/** Published by the system configuration when values change (`core/server/src/system/settings.ts`). */
const CONFIG_CHANGED = 'systemConfig.changed';

/**
 * Reads the translation settings (caps) from the system configuration table. Every translate
 * call needs them, so values are cached: dropped when the configuration publishes a change,
 * and re-read after `ttlMs` anyway (a change made straight in the database, or on another
 * instance without a shared bus).
 */
export function systemConfigReader(db: Kysely<KernelTables>, bus?: EventBus, ttlMs = 5000): (key: string) => Promise<string | null> {
  const cache = new Map<string, { at: number; value: string | null }>();
  bus?.events(CONFIG_CHANGED).subscribe(() => cache.clear());
  return async (key) => {
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < ttlMs) return hit.value;
    const row = await db.selectFrom('system_config').select('config_value').where('config_key', '=', key).executeTakeFirst();
    const value = (row?.config_value as string | null | undefined) ?? null;
    cache.set(key, { at: Date.now(), value });
    return value;
  };
}
