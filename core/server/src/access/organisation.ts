import { sql, type Kysely } from 'kysely';
import { like, type Organisation, type RoleRecord } from '@linguaport/sdk/server';
import type { KernelTables } from '../db/schema.js';

/**
 * `ctx.organisation`: the kernel's roles for the area that administers them, so that area needs
 * neither `roles` nor `user_department_roles`. The routes keep their permission keys (the kernel
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
