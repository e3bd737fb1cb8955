import { sql, type Kysely } from 'kysely';
import { like, type DepartmentAdmin, type DepartmentRecord, type Organisation, type RoleRecord } from '@linguaport/sdk/server';
import type { KernelTables } from '../db/schema.js';
import { createUserAdmin } from './user-admin.js';

/**
 * `ctx.organisation`: the kernel's users (user-admin.ts), roles and departments for the areas that administer them, so
 * those areas need neither `roles`, `departments` nor `user_department_roles`. The routes keep their permission keys (the kernel
 * checks them) and are written to the operation log as every mutating call is.
 */
export function createOrganisation(db: Kysely<KernelTables>): Organisation {
  const roleRows = () =>
    db
      .selectFrom('roles as r')
      .leftJoin('users as c', 'c.id', 'r.created_by')
      .select((eb) => [
        'r.id',
        'r.name',
        'r.description',
        'r.created_at',
        'r.is_super',
        'r.is_default',
        'r.builtin',
        'c.username as creator_name',
        eb.selectFrom('user_department_roles as m').select((m) => m.fn.count<string>('m.user_id').distinct().as('n')).whereRef('m.role_id', '=', 'r.id').as('user_count'),
      ]);
  type Row = Awaited<ReturnType<ReturnType<typeof roleRows>['execute']>>[number];
  const toRole = (r: Row): RoleRecord => ({
    id: r.id,
    name: r.name,
    description: r.description,
    creatorName: r.creator_name,
    createdAt: new Date(r.created_at),
    userCount: Number(r.user_count ?? 0),
    isSuper: r.is_super,
    isDefault: r.is_default,
    builtin: r.builtin,
  });
  const nameLike = (name?: string) => (name ? sql<boolean>`r.name ilike ${like(name)}` : sql<boolean>`true`);
  return {
    users: createUserAdmin(db),
    departments: createDepartmentAdmin(db),
    roles: {
      async all() {
        return (await roleRows().orderBy('r.id').execute()).map(toRole);
      },
      async page({ name, offset, limit }) {
        const [count, rows] = await Promise.all([
          db.selectFrom('roles as r').select((eb) => eb.fn.countAll<string>().as('n')).where(nameLike(name)).executeTakeFirst(),
          roleRows().where(nameLike(name)).orderBy('r.id').limit(limit).offset(offset).execute(),
        ]);
        return { total: Number(count?.n ?? 0), roles: rows.map(toRole) };
      },
      async byIds(ids) {
        if (!ids.length) return [];
        return (await roleRows().where('r.id', 'in', [...ids]).orderBy('r.id').execute()).map(toRole);
      },
      async nameTaken(name, exceptId) {
        let q = db.selectFrom('roles').select('id').where((eb) => eb(eb.fn('lower', [eb.ref('name')]), '=', name.toLowerCase()));
        if (exceptId != null) q = q.where('id', '<>', exceptId);
        return (await q.executeTakeFirst()) !== undefined;
      },
      async create({ name, description, createdBy }) {
        const row = await db.insertInto('roles').values({ name, description, created_by: createdBy }).returning('id').executeTakeFirstOrThrow();
        return row.id;
      },
      async update(id, { name, description }) {
        const res = await db.updateTable('roles').set({ name, description }).where('id', '=', id).executeTakeFirst();
        return Number(res.numUpdatedRows) > 0;
      },
      async holders(ids) {
        if (!ids.length) return [];
        const rows = await db
          .selectFrom('user_department_roles as m')
          .innerJoin('roles as x', 'x.id', 'm.role_id')
          .select(['x.name', (eb) => eb.fn.count<string>('m.user_id').distinct().as('users')])
          .where('m.role_id', 'in', [...ids])
          .groupBy('x.name')
          .execute();
        return rows.map((r) => ({ name: r.name, users: Number(r.users) }));
      },
      async remove(ids) {
        if (!ids.length) return 0;
        const res = await db
          .deleteFrom('roles')
          .where('id', 'in', [...ids])
          .where('is_super', '=', false)
          .where('is_default', '=', false)
          .where('builtin', 'is', null)
          .where(({ not, exists, selectFrom }) => not(exists(selectFrom('user_department_roles as m').select('m.user_id').whereRef('m.role_id', '=', 'roles.id'))))
          .executeTakeFirst();
        return Number(res.numDeletedRows);
      },
    },
  };
}

function createDepartmentAdmin(db: Kysely<KernelTables>): DepartmentAdmin {
  const rows = () =>
    db
      .selectFrom('departments as d')
      .leftJoin('users as h', 'h.id', 'd.head_user_id')
      .leftJoin('users as c', 'c.id', 'd.created_by')
      .select((eb) => [
        'd.id',
        'd.name',
        'd.code',
        'd.description',
        'd.head_user_id',
        'd.created_at',
        'd.is_default',
        'h.username as head_name',
        'c.username as creator_name',
        eb.selectFrom('user_department_roles as m').select((m) => m.fn.count<string>('m.user_id').distinct().as('n')).whereRef('m.department_id', '=', 'd.id').as('user_count'),
      ]);
  type Row = Awaited<ReturnType<ReturnType<typeof rows>['execute']>>[number];
  const withRoles = async (list: Row[]): Promise<DepartmentRecord[]> => {
    const ids = list.map((r) => r.id);
    const roles = ids.length
      ? await db.selectFrom('department_roles as dr').innerJoin('roles as r', 'r.id', 'dr.role_id').select(['dr.department_id', 'r.id', 'r.name']).where('dr.department_id', 'in', ids).orderBy('r.id').execute()
      : [];
    return list.map((r) => ({
      id: r.id,
      name: r.name,
      code: r.code,
      description: r.description,
      headUserId: r.head_user_id,
      headName: r.head_name,
      creatorName: r.creator_name,
      createdAt: new Date(r.created_at),
      isDefault: r.is_default,
      userCount: Number(r.user_count ?? 0),
      roles: roles.filter((x) => x.department_id === r.id).map((x) => ({ id: x.id, name: x.name })),
    }));
  };
  const filter = (q: { name?: string; code?: string }) => {
    const parts = [sql<boolean>`true`];
    if (q.name) parts.push(sql<boolean>`d.name ilike ${like(q.name)}`);
    if (q.code) parts.push(sql<boolean>`d.code ilike ${like(q.code)}`);
    return sql<boolean>`${sql.join(parts, sql` and `)}`;
  };
  const setRoles = async (tx: Kysely<KernelTables>, departmentId: number, roleIds: readonly number[]) => {
    await tx.deleteFrom('department_roles').where('department_id', '=', departmentId).execute();
    const unique = [...new Set(roleIds)];
    if (unique.length) await tx.insertInto('department_roles').values(unique.map((r) => ({ department_id: departmentId, role_id: r }))).execute();
  };
  return {
    async all() {
      return withRoles(await rows().orderBy('d.id').execute());
    },
    async page(q) {
      const [count, page] = await Promise.all([
        db.selectFrom('departments as d').select((eb) => eb.fn.countAll<string>().as('n')).where(filter(q)).executeTakeFirst(),
        rows().where(filter(q)).orderBy('d.id').limit(q.limit).offset(q.offset).execute(),
      ]);
      return { total: Number(count?.n ?? 0), departments: await withRoles(page) };
    },
    async byIds(ids) {
      if (!ids.length) return [];
      return withRoles(await rows().where('d.id', 'in', [...ids]).orderBy('d.id').execute());
    },
    async codeTaken(code, exceptId) {
      let q = db.selectFrom('departments').select('id').where((eb) => eb(eb.fn('lower', [eb.ref('code')]), '=', code.toLowerCase()));
      if (exceptId != null) q = q.where('id', '<>', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },
    async create(d) {
      return db.transaction().execute(async (tx) => {
        const row = await tx
          .insertInto('departments')
          .values({ name: d.name, code: d.code, description: d.description, head_user_id: d.headUserId, created_by: d.createdBy })
          .returning('id')
          .executeTakeFirstOrThrow();
        await setRoles(tx, row.id, d.roleIds);
        return row.id;
      });
    },
    async update(id, d) {
      return db.transaction().execute(async (tx) => {
        const res = await tx.updateTable('departments').set({ name: d.name, code: d.code, description: d.description, head_user_id: d.headUserId }).where('id', '=', id).executeTakeFirst();
        if (Number(res.numUpdatedRows) === 0) return false;
        await setRoles(tx, id, d.roleIds);
        return true;
      });
    },
    async holders(ids) {
      if (!ids.length) return [];
      const found = await db
        .selectFrom('user_department_roles as m')
        .innerJoin('departments as x', 'x.id', 'm.department_id')
        .select(['x.name', (eb) => eb.fn.count<string>('m.user_id').distinct().as('users')])
        .where('m.department_id', 'in', [...ids])
        .groupBy('x.name')
        .execute();
      return found.map((r) => ({ name: r.name, users: Number(r.users) }));
    },
    async remove(ids) {
      if (!ids.length) return 0;
      const res = await db
        .deleteFrom('departments')
        .where('id', 'in', [...ids])
        .where('is_default', '=', false)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('user_department_roles as m').select('m.user_id').whereRef('m.department_id', '=', 'departments.id'))))
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}
