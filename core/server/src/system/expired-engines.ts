import { sql, type Kysely, type NotNull } from 'kysely';
import { z } from 'zod';
import { timestampSchema, type RouteDefinition } from '@linguaport/sdk/server';
import type { KernelTables } from '../db/schema.js';

/**
 * `GET /translServiceInfo/getExpiredEngine`: engines expired or expiring within 7 days. The
 * `engines` table belongs to the translation area; until it exists the list is empty.
 */

export const EXPIRY_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

async function engineColumns(db: Kysely<KernelTables>): Promise<Set<string>> {
  const { rows } = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_name = 'engines' and table_schema = current_schema()`.execute(db);
  return new Set(rows.map((r) => r.column_name));
}

export async function expiringEngines(db: Kysely<KernelTables>, now: Date): Promise<{ imagesAlias: string; daysBetween: number; expiresAt: string }[]> {
  const columns = await engineColumns(db);
  if (!columns.has('expires_at')) return [];
  const nameColumn = ['name', 'image_name'].filter((c) => columns.has(c));
  if (nameColumn.length === 0) return [];
  const horizon = new Date(now.getTime() + EXPIRY_WINDOW_DAYS * DAY_MS);
  const rows: { alias: string | null; expires_at: Date | string }[] = await db
    .selectFrom('engines')
    .select([sql<string>`coalesce(${sql.join(nameColumn.map((c) => sql.ref(c)))})`.as('alias'), 'expires_at'])
    .where('expires_at', 'is not', null)
    .$narrowType<{ expires_at: NotNull }>()
    .where('expires_at', '<=', horizon)
    .orderBy('expires_at')
    .execute();
  // daysBetween: whole days left (0 or less: expired), as the console labels an expired engine.
  return rows.map((r) => {
    const at = new Date(r.expires_at);
    return { imagesAlias: r.alias ?? '', daysBetween: Math.ceil((at.getTime() - now.getTime()) / DAY_MS), expiresAt: at.toISOString() };
  });
}

export function expiredEngineRoute(db: Kysely<KernelTables>, now: () => Date): RouteDefinition {
  return { method: 'GET', url: '/translServiceInfo/getExpiredEngine', access: 'signed-in', summary: 'List engines expired or expiring within 7 days', response: { data: z.array(z.object({ imagesAlias: z.string().describe("The engine's name"), daysBetween: z.number().int().describe('Days until it expires; 0 or less: expired'), expiresAt: timestampSchema })) }, handler: () => expiringEngines(db, now()) };
}
