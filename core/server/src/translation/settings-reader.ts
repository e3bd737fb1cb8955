import type { Kysely } from 'kysely';

/**
 * Reads the translation settings (caps) from the system configuration table, cached for a few
 * seconds: every translate call needs them, and a changed cap may take that long to apply.
 */
export function systemConfigReader(db: Kysely<any>, ttlMs = 5000): (key: string) => Promise<string | null> {
  const cache = new Map<string, { at: number; value: string | null }>();
  return async (key) => {
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < ttlMs) return hit.value;
    const row = await db.selectFrom('system_config').select('config_value').where('config_key', '=', key).executeTakeFirst();
    const value = (row?.config_value as string | null | undefined) ?? null;
    cache.set(key, { at: Date.now(), value });
    return value;
  };
}
