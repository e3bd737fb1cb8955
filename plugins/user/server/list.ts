import { sql, type Kysely, type RawBuilder } from 'kysely';
import { like, pageOf, pageOffset, pageQuery } from '@linguaport/sdk/server';
import { idSchema, seededName, z, type Locale } from '@linguaport/sdk/shared';
import type { UserRow } from '../shared/schemas.js';

/** `GET /user/getAllUserByPage` query: paging, filters, one sort column. */
export const listQuerySchema = z.object({
  ...pageQuery,
  username: z.string().trim().max(255).optional(),
  realName: z.string().trim().max(255).optional(),
  departmentId: idSchema.optional(),
  roleId: idSchema.optional(),
  status: z.enum(['checked', 'unchecked']).optional(),
  isUse: z.enum(['0', '1', 'true', 'false']).optional(),
  sortBy: z.enum(['username', 'realName', 'createdAt', 'priority', 'expiresAt', 'lastLoginAt']).optional(),
  sortOrder: z.enum(['asc', 'desc']).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

// Whitelisted sort columns: the name reaches SQL only through this map.
const SORT_COLUMNS: Record<NonNullable<ListQuery['sortBy']>, string> = {
  username: 'u.username',
  realName: 'u.real_name',
  createdAt: 'u.created_at',
  priority: 'u.priority',
  expiresAt: 'u.expires_at',
  lastLoginAt: 'u.last_login_at',
};

function whereClause(q: ListQuery): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`true`];
  if (q.username) parts.push(sql`u.username ilike ${like(q.username)}`);
  if (q.realName) parts.push(sql`u.real_name ilike ${like(q.realName)}`);
  if (q.status) parts.push(sql`u.status = ${q.status}`);
  if (q.isUse !== undefined) parts.push(sql`u.enabled = ${q.isUse === '1' || q.isUse === 'true'}`);
  if (q.departmentId) parts.push(sql`exists (select 1 from user_department_roles m where m.user_id = u.id and m.department_id = ${q.departmentId})`);
  if (q.roleId) parts.push(sql`exists (select 1 from user_department_roles m where m.user_id = u.id and m.role_id = ${q.roleId})`);
  return sql.join(parts, sql` and `);
}

const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);

/**
 * One page of users. The count and the page are two indexed queries; memberships are read for
 * the page's ids only, so the cost does not grow with the table beyond the count.
 */
export async function listUsers(db: Kysely<any>, q: ListQuery, locale: Locale = 'zh-CN'): Promise<{ records: UserRow[]; total: number; pageNum: number; pageSize: number }> {
  const where = whereClause(q);
  // Postgres' default null placement (last ascending, first descending) and the id tie-break in
  // the same direction let a backward or forward scan of the (column, id) indexes serve the sort.
  const dir = q.sortOrder === 'desc' ? 'desc' : 'asc';
  const order = q.sortBy ? sql.raw(`${SORT_COLUMNS[q.sortBy]} ${dir}, u.id ${dir}`) : sql.raw('u.id desc');
  // Substring search: the planner would walk an ordered index and test every row until a page is
  // full (hundreds of ms when the matches sit far down the order); materializing the matches
  // first lets the trigram indexes find them, and the page is sorted among the matches only.
  const searching = Boolean(q.username || q.realName);
  const sortColumn = sql.raw(q.sortBy ? SORT_COLUMNS[q.sortBy] : 'u.id');
  const hitOrder = sql.raw(q.sortBy ? `k ${dir}, id ${dir}` : 'id desc');
  const offset = pageOffset(q);
  const pageIds = searching
    ? sql`hits as materialized (select u.id, ${sortColumn} as k from users u where ${where}),
          page as (select id from hits order by ${hitOrder} limit ${q.pageSize} offset ${offset})`
    : sql`page as (select u.id from users u where ${where} order by ${order} limit ${q.pageSize} offset ${offset})`;
  // Deferred join: the offset walks ids only; the full rows and the creator join are read for the page's rows.
  const [count, page] = await Promise.all([
    sql<{ total: string }>`select count(*) as total from users u where ${where}`.execute(db),
    sql<Record<string, unknown>>`
      with ${pageIds}
      select u.id, u.username, u.real_name, u.email, u.phone, u.employee_no, u.status, u.enabled, u.user_type,
             u.priority, u.memo, u.expires_at, u.created_at, u.last_login_at, c.username as creator_name
      from page p join users u on u.id = p.id left join users c on c.id = u.created_by
      order by ${order}`.execute(db),
  ]);
  const ids = page.rows.map((r) => Number(r.id));
  const memberships = ids.length
    ? (
        await sql<{ user_id: number; department_id: number; department_name: string; role_id: number; role_name: string }>`
          select m.user_id, m.department_id, d.name as department_name, m.role_id, r.name as role_name
          from user_department_roles m join departments d on d.id = m.department_id join roles r on r.id = m.role_id
          where m.user_id in (${sql.join(ids)})
          order by d.id, r.id`.execute(db)
      ).rows
    : [];
  const records: UserRow[] = page.rows.map((r) => {
    const mine = memberships.filter((m) => m.user_id === r.id);
    const departments = new Map(mine.map((m) => [m.department_id, { id: m.department_id, name: seededName(m.department_name, locale) }]));
    const roles = new Map(mine.map((m) => [m.role_id, { id: m.role_id, name: seededName(m.role_name, locale) }]));
    return {
      id: Number(r.id),
      username: String(r.username),
      realName: seededName((r.real_name as string | null) ?? null, locale),
      email: (r.email as string | null) ?? null,
      phone: (r.phone as string | null) ?? null,
      employeeNo: (r.employee_no as string | null) ?? null,
      status: r.status as UserRow['status'],
      isUse: Boolean(r.enabled),
      userType: Number(r.user_type),
      priority: Number(r.priority),
      memo: (r.memo as string | null) ?? null,
      expiresAt: iso(r.expires_at),
      createdAt: iso(r.created_at)!,
      lastLoginAt: iso(r.last_login_at),
      creatorName: (r.creator_name as string | null) ?? null,
      departments: [...departments.values()],
      roles: [...roles.values()],
    };
  });
  return pageOf(q, records, count.rows[0]?.total);
}
