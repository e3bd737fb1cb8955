import { sql, type Kysely, type RawBuilder } from 'kysely';
import { like, type NewUser, type UserAdmin, type UserPageQuery, type UserRecord, type UserSortColumn } from '@linguaport/sdk/server';
import type { KernelTables } from '../db/schema.js';

/**
 * `ctx.organisation.users`: the kernel's accounts for the user area, so that area needs neither
 * `users` nor `user_department_roles`. The indexes the page needs are the kernel's (access
 * migration 004). The routes keep their permission keys; the kernel checks them and logs the calls.
 */

// Whitelisted sort columns: the name reaches SQL only through this map.
const SORT_COLUMNS: Record<UserSortColumn, string> = {
  username: 'u.username',
  realName: 'u.real_name',
  createdAt: 'u.created_at',
  priority: 'u.priority',
  expiresAt: 'u.expires_at',
  lastLoginAt: 'u.last_login_at',
};

function whereClause(q: UserPageQuery): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`true`];
  if (q.username) parts.push(sql`u.username ilike ${like(q.username)}`);
  if (q.realName) parts.push(sql`u.real_name ilike ${like(q.realName)}`);
  if (q.status) parts.push(sql`u.status = ${q.status}`);
  if (q.enabled !== undefined) parts.push(sql`u.enabled = ${q.enabled}`);
  if (q.departmentId) parts.push(sql`exists (select 1 from user_department_roles m where m.user_id = u.id and m.department_id = ${q.departmentId})`);
  if (q.roleId) parts.push(sql`exists (select 1 from user_department_roles m where m.user_id = u.id and m.role_id = ${q.roleId})`);
  return sql.join(parts, sql` and `);
}

const dateOrNull = (v: unknown) => (v ? new Date(v as string) : null);

/**
 * One page of users. The count and the page are two indexed queries; memberships are read for
 * the page's ids only, so the cost does not grow with the table beyond the count.
 */
async function page(db: Kysely<KernelTables>, q: UserPageQuery): Promise<{ total: number; users: UserRecord[] }> {
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
  const limit = Math.max(1, Math.min(q.limit, 500));
  const offset = Math.max(0, q.offset);
  const pageIds = searching
    ? sql`hits as materialized (select u.id, ${sortColumn} as k from users u where ${where}),
          page as (select id from hits order by ${hitOrder} limit ${limit} offset ${offset})`
    : sql`page as (select u.id from users u where ${where} order by ${order} limit ${limit} offset ${offset})`;
  // Deferred join: the offset walks ids only; the full rows and the creator join are read for the page's rows.
  type Row = { id: number; username: string; real_name: string | null; email: string | null; phone: string | null; employee_no: string | null; status: string; enabled: boolean; user_type: number; priority: number; memo: string | null; expires_at: Date | null; created_at: Date; last_login_at: Date | null; creator_name: string | null };
  const [count, rows] = await Promise.all([
    sql<{ total: string }>`select count(*) as total from users u where ${where}`.execute(db),
    sql<Row>`
      with ${pageIds}
      select u.id, u.username, u.real_name, u.email, u.phone, u.employee_no, u.status, u.enabled, u.user_type,
             u.priority, u.memo, u.expires_at, u.created_at, u.last_login_at, c.username as creator_name
      from page p join users u on u.id = p.id left join users c on c.id = u.created_by
      order by ${order}`.execute(db),
  ]);
  const ids = rows.rows.map((r) => Number(r.id));
  const memberships = ids.length
    ? await db
        .selectFrom('user_department_roles as m')
        .innerJoin('departments as d', 'd.id', 'm.department_id')
        .innerJoin('roles as r', 'r.id', 'm.role_id')
        .select(['m.user_id', 'm.department_id', 'd.name as department_name', 'm.role_id', 'r.name as role_name'])
        .where('m.user_id', 'in', ids)
        .orderBy('d.id')
        .orderBy('r.id')
        .execute()
    : [];
  // Grouped once, not filtered again for every row of the page.
  const byUser = new Map<number, typeof memberships>();
  for (const m of memberships) {
    const list = byUser.get(Number(m.user_id)) ?? [];
    list.push(m);
    byUser.set(Number(m.user_id), list);
  }
  const users = rows.rows.map((r): UserRecord => {
    const mine = byUser.get(Number(r.id)) ?? [];
    return {
      id: Number(r.id),
      username: r.username,
      realName: r.real_name,
      email: r.email,
      phone: r.phone,
      employeeNo: r.employee_no,
      status: r.status === 'unchecked' ? 'unchecked' : 'checked',
      enabled: Boolean(r.enabled),
      userType: Number(r.user_type),
      priority: Number(r.priority),
      memo: r.memo,
      expiresAt: dateOrNull(r.expires_at),
      createdAt: new Date(r.created_at),
      lastLoginAt: dateOrNull(r.last_login_at),
      creatorName: r.creator_name,
      departments: [...new Map(mine.map((m) => [m.department_id, { id: m.department_id, name: m.department_name }])).values()],
      roles: [...new Map(mine.map((m) => [m.role_id, { id: m.role_id, name: m.role_name }])).values()],
    };
  });
  return { total: Number(count.rows[0]?.total ?? 0), users };
}

/** A user holds each chosen role in each chosen department (the kernel's membership model). */
async function setMemberships(tx: Kysely<KernelTables>, userId: number, departmentIds: readonly number[], roleIds: readonly number[]) {
  await tx.deleteFrom('user_department_roles').where('user_id', '=', userId).execute();
  const rows = [...new Set(departmentIds)].flatMap((d) => [...new Set(roleIds)].map((r) => ({ user_id: userId, department_id: d, role_id: r })));
  if (rows.length) await tx.insertInto('user_department_roles').values(rows).execute();
}

/** The lowest translation priority: new accounts start there unless given one. */
const PRIORITY_MIN = 0;

const newUserRow = (u: NewUser) => ({
  username: u.username,
  real_name: u.realName,
  password_hash: u.passwordHash,
  email: u.email,
  phone: u.phone,
  employee_no: u.employeeNo,
  expires_at: u.expiresAt,
  priority: u.priority ?? PRIORITY_MIN,
  memo: u.memo,
  need_password_change: u.needPasswordChange ?? false,
  status: 'checked',
  created_by: u.createdBy,
});

export function createUserAdmin(db: Kysely<KernelTables>): UserAdmin {
  const exists = async (id: number) => (await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  return {
    page: (q) => page(db, q),
    async enabled(filter = {}) {
      let q = db.selectFrom('users as u').select(['u.id', 'u.username', 'u.real_name']).where('u.enabled', '=', true);
      if (filter.checked) q = q.where('u.status', '=', 'checked');
      if (filter.superAdmins) {
        q = q.where(({ exists, selectFrom }) =>
          exists(selectFrom('user_department_roles as m').innerJoin('roles as r', 'r.id', 'm.role_id').select('m.user_id').whereRef('m.user_id', '=', 'u.id').where('r.is_super', '=', true)),
        );
      }
      const rows = await q.orderBy('u.username').execute();
      return rows.map((r) => ({ id: r.id, username: r.username, realName: r.real_name }));
    },
    async contacts(departmentId) {
      const rows = await sql<{ id: number; username: string; real_name: string | null; email: string | null; phone: string | null; kind: 'super' | 'head' }>`
        select distinct u.id, u.username, u.real_name, u.email, u.phone, 'super' as kind
        from users u join user_department_roles m on m.user_id = u.id join roles r on r.id = m.role_id
        where r.is_super and u.enabled
        union
        select u.id, u.username, u.real_name, u.email, u.phone, 'head' as kind
        from users u join departments d on d.head_user_id = u.id
        where d.id = ${departmentId} and u.enabled
        order by 2`.execute(db);
      return rows.rows.map((r) => ({ id: r.id, username: r.username, realName: r.real_name, email: r.email, phone: r.phone, kind: r.kind }));
    },
    exists,
    async nameTaken(username, exceptId) {
      let q = db.selectFrom('users').select('id').where((eb) => eb(eb.fn('lower', [eb.ref('username')]), '=', username.toLowerCase()));
      if (exceptId != null) q = q.where('id', '<>', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },
    async takenNames(usernames) {
      if (!usernames.length) return new Set();
      const lower = sql<string>`lower(username)`;
      const rows = await db.selectFrom('users').select(lower.as('name')).where(lower, 'in', usernames.map((n) => n.toLowerCase())).execute();
      return new Set(rows.map((r) => r.name));
    },
    async superAdmins(ids) {
      if (!ids.length) return [];
      const rows = await db
        .selectFrom('user_department_roles as m')
        .innerJoin('roles as r', 'r.id', 'm.role_id')
        .select('m.user_id')
        .distinct()
        .where('r.is_super', '=', true)
        .where('m.user_id', 'in', [...ids])
        .execute();
      return rows.map((r) => Number(r.user_id));
    },
    async create(user, m) {
      return db.transaction().execute(async (tx) => {
        const row = await tx.insertInto('users').values(newUserRow(user)).returning('id').executeTakeFirstOrThrow();
        await setMemberships(tx, row.id, m.departmentIds, m.roleIds);
        return row.id;
      });
    },
    async createMany(users, m) {
      if (!users.length) return 0;
      return db.transaction().execute(async (tx) => {
        const inserted = await tx.insertInto('users').values(users.map(newUserRow)).returning('id').execute();
        await tx.insertInto('user_department_roles').values(inserted.map((u) => ({ user_id: u.id, department_id: m.departmentId, role_id: m.roleId }))).execute();
        return inserted.length;
      });
    },
    async update(id, user, m) {
      return db.transaction().execute(async (tx) => {
        const res = await tx
          .updateTable('users')
          .set({
            username: user.username,
            real_name: user.realName,
            email: user.email,
            phone: user.phone,
            employee_no: user.employeeNo,
            expires_at: user.expiresAt,
            ...(user.priority === undefined ? {} : { priority: user.priority }),
            memo: user.memo,
          })
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) === 0) return false;
        await setMemberships(tx, id, m.departmentIds, m.roleIds);
        return true;
      });
    },
    async setEnabled(ids, enabled) {
      if (!ids.length) return 0;
      const res = await db.updateTable('users').set({ enabled }).where('id', 'in', [...ids]).executeTakeFirst();
      return Number(res.numUpdatedRows);
    },
    async approve(id) {
      const res = await db.updateTable('users').set({ status: 'checked' }).where('id', '=', id).where('status', '=', 'unchecked').executeTakeFirst();
      if (Number(res.numUpdatedRows) > 0) return 'approved';
      return (await exists(id)) ? 'already' : 'unknown';
    },
    async setPriority(target, priority) {
      let q = db.updateTable('users').set({ priority });
      if ('userIds' in target) {
        if (!target.userIds.length) return 0;
        q = q.where('id', 'in', [...target.userIds]);
      } else {
        if (!target.departmentIds.length) return 0;
        q = q.where('id', 'in', db.selectFrom('user_department_roles').select('user_id').where('department_id', 'in', [...target.departmentIds]));
      }
      return Number((await q.executeTakeFirst()).numUpdatedRows);
    },
    async remove(ids) {
      if (!ids.length) return 0;
      const res = await db.deleteFrom('users').where('id', 'in', [...ids]).executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}
