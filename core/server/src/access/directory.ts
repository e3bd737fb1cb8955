import { sql, type Kysely } from 'kysely';
import type { UserDirectory, UserName } from '@linguaport/sdk/server';
import type { KernelTables } from '../db/schema.js';

/**
 * `ctx.users`: the kernel's user records as areas need them (departments for department sharing,
 * names for lists, the file priority), so no plugin reads `users`, `roles` or
 * `user_department_roles` itself and the kernel may change those tables.
 */
export function createUserDirectory(db: Kysely<KernelTables>): UserDirectory {
  const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return {
    async membership(userId) {
      const user = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
      if (!user) return null;
      const rows = await sql<{ department_id: number; is_super: boolean }>`
        select udr.department_id, coalesce(bool_or(r.is_super), false) as is_super
        from user_department_roles udr join roles r on r.id = udr.role_id
        where udr.user_id = ${userId}
        group by udr.department_id order by udr.department_id`.execute(db);
      return { userId, departmentIds: rows.rows.map((r) => Number(r.department_id)), isSuperAdmin: rows.rows.some((r) => r.is_super) };
    },
    async names(userIds) {
      const ids = [...new Set(userIds)].filter((id) => Number.isInteger(id));
      const out = new Map<number, UserName>();
      if (!ids.length) return out;
      const rows = await db.selectFrom('users').select(['id', 'username', 'real_name']).where('id', 'in', ids).execute();
      for (const r of rows) out.set(r.id, { id: r.id, username: r.username, realName: r.real_name ?? null });
      return out;
    },
    async find(text, limit = 20) {
      const pattern = escapeLike(text.trim());
      const rows = await sql<{ id: number; username: string; real_name: string | null }>`
        select id, username, real_name from users
        where enabled and (username ilike ${pattern} or coalesce(real_name, '') ilike ${pattern})
        order by username limit ${Math.max(1, Math.min(limit, 200))}`.execute(db);
      return rows.rows.map((r) => ({ id: r.id, username: r.username, realName: r.real_name }));
    },
    async list({ text, offset, limit }) {
      const where = text?.trim() ? sql`(username ilike ${escapeLike(text.trim())} or coalesce(real_name, '') ilike ${escapeLike(text.trim())})` : sql`true`;
      const [count, rows] = await Promise.all([
        sql<{ n: string }>`select count(*) as n from users where ${where}`.execute(db),
        sql<{ id: number; username: string; real_name: string | null }>`
          select id, username, real_name from users where ${where} order by id limit ${Math.max(1, Math.min(limit, 500))} offset ${Math.max(0, offset)}`.execute(db),
      ]);
      return { total: Number(count.rows[0]?.n ?? 0), users: rows.rows.map((r) => ({ id: r.id, username: r.username, realName: r.real_name })) };
    },
    async apiKeys({ text, hasKey, offset, limit }) {
      let q = db.selectFrom('users');
      if (text?.trim()) q = q.where((eb) => eb.or([eb('username', 'ilike', escapeLike(text.trim())), eb('real_name', 'ilike', escapeLike(text.trim()))]));
      if (hasKey !== undefined) q = q.where('api_key_hash', hasKey ? 'is not' : 'is', null);
      const [count, rows] = await Promise.all([
        q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst(),
        q.select(['id', 'username', 'real_name', 'api_key_hash', 'api_key_updated_at', 'api_key_last_used_at']).orderBy('id').limit(Math.max(1, Math.min(limit, 500))).offset(Math.max(0, offset)).execute(),
      ]);
      return {
        total: Number(count?.n ?? 0),
        users: rows.map((r) => ({
          id: r.id,
          username: r.username,
          realName: r.real_name,
          hasKey: r.api_key_hash !== null,
          updatedAt: r.api_key_updated_at ? new Date(r.api_key_updated_at) : null,
          lastUsedAt: r.api_key_last_used_at ? new Date(r.api_key_last_used_at) : null,
        })),
      };
    },
    async priority(userId) {
      const row = await db.selectFrom('users').select('priority').where('id', '=', userId).executeTakeFirst();
      return row ? Number(row.priority) : null;
    },
  };
}
