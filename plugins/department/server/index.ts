import { sql, type Kysely } from 'kysely';
import { ApiError, Codes, defineServerPlugin, holdersByName, idList, iso, like, pageOf, pageOffset, pageQuery, pageSchema, requestLocale, say, takenIgnoringCase } from '@linguaport/sdk/server';
import { seededDescription, seededName, z } from '@linguaport/sdk/shared';
import { departmentRowSchema, departmentSchema, updateDepartmentSchema, type DepartmentRow } from '../shared/schemas.js';

type Headers = Record<string, string | string[] | undefined>;
const headOf = (v: number | '' | null | undefined) => (typeof v === 'number' ? v : null);

/** Departments (spec 02 section 3): name, unique code, description, head, assigned roles. */
export default defineServerPlugin({
  setup(ctx) {
    const { db } = ctx;

    async function assertCodeFree(code: string, exceptId: number | null, headers: Headers) {
      if (await takenIgnoringCase(db, 'departments', 'code', code, exceptId)) throw new ApiError(Codes.BAD_REQUEST, `code: ${say(headers, '部门编码已存在', 'A department with this code exists')}`);
    }

    async function assertRefs(head: number | null, roleIds: number[], headers: Headers) {
      if (head !== null && !(await db.selectFrom('users').select('id').where('id', '=', head).executeTakeFirst())) {
        throw new ApiError(Codes.BAD_REQUEST, `headUserId: ${say(headers, '负责人不存在', 'The head user does not exist')}`);
      }
      if (roleIds.length) {
        const found = await db.selectFrom('roles').select('id').where('id', 'in', roleIds).execute();
        if (found.length !== new Set(roleIds).size) throw new ApiError(Codes.BAD_REQUEST, `roleIds: ${say(headers, '角色不存在', 'A role does not exist')}`);
      }
    }

    async function setRoles(tx: Kysely<any>, departmentId: number, roleIds: number[]) {
      await tx.deleteFrom('department_roles').where('department_id', '=', departmentId).execute();
      const unique = [...new Set(roleIds)];
      if (unique.length) await tx.insertInto('department_roles').values(unique.map((r) => ({ department_id: departmentId, role_id: r }))).execute();
    }

    // Pickers (user form, registration): every department, names and codes only.
    ctx.route({
      method: 'GET',
      url: '/department/list',
      access: 'signed-in',
      summary: 'List all departments',
      response: { data: z.array(z.object({ id: z.number().int(), name: z.string(), code: z.string(), isDefault: z.boolean() })) },
      async handler({ headers }) {
        const rows = await db.selectFrom('departments').select(['id', 'name', 'code', 'is_default']).orderBy('id').execute();
        const locale = requestLocale(headers);
        return rows.map((r) => ({ id: r.id, name: seededName(r.name, locale), code: r.code, isDefault: r.is_default }));
      },
    });

    ctx.route({
      method: 'GET',
      url: '/department/getDepartmentByPage',
      access: { permission: 'department:list' },
      summary: 'List departments by page',
      schema: { query: z.object({ ...pageQuery, name: z.string().trim().max(128).optional(), code: z.string().trim().max(64).optional() }) },
      response: { data: pageSchema(departmentRowSchema) },
      async handler({ query, headers }) {
        const locale = requestLocale(headers);
        const parts = [sql`true`];
        if (query.name) parts.push(sql`d.name ilike ${like(query.name)}`);
        if (query.code) parts.push(sql`d.code ilike ${like(query.code)}`);
        const where = sql.join(parts, sql` and `);
        const [count, page] = await Promise.all([
          sql<{ n: string }>`select count(*) as n from departments d where ${where}`.execute(db),
          sql<Record<string, unknown>>`
            select d.id, d.name, d.code, d.description, d.head_user_id, d.created_at, d.is_default,
                   h.username as head_name, c.username as creator_name,
                   (select count(distinct m.user_id) from user_department_roles m where m.department_id = d.id) as user_count
            from departments d left join users h on h.id = d.head_user_id left join users c on c.id = d.created_by
            where ${where} order by d.id
            limit ${query.pageSize} offset ${pageOffset(query)}`.execute(db),
        ]);
        const ids = page.rows.map((r) => Number(r.id));
        const roles = ids.length
          ? await db.selectFrom('department_roles as dr').innerJoin('roles as r', 'r.id', 'dr.role_id').select(['dr.department_id', 'r.id', 'r.name']).where('dr.department_id', 'in', ids).orderBy('r.id').execute()
          : [];
        const records: DepartmentRow[] = page.rows.map((r) => ({
          id: Number(r.id),
          name: seededName(String(r.name), locale),
          code: String(r.code),
          description: seededDescription((r.description as string | null) ?? null, locale),
          headUserId: (r.head_user_id as number | null) ?? null,
          headName: (r.head_name as string | null) ?? null,
          creatorName: (r.creator_name as string | null) ?? null,
          createdAt: iso(r.created_at)!,
          isDefault: Boolean(r.is_default),
          userCount: Number(r.user_count),
          roles: roles.filter((x) => x.department_id === r.id).map((x) => ({ id: x.id, name: seededName(x.name, locale) })),
        }));
        return pageOf(query, records, count.rows[0]?.n);
      },
    });

    ctx.route({
      method: 'POST',
      url: '/department/add',
      access: { permission: 'department:add' },
      summary: 'Add department',
      schema: { body: departmentSchema },
      response: { data: z.object({ id: z.number().int() }) },
      async handler({ body, caller, headers }) {
        await assertCodeFree(body.code, null, headers);
        await assertRefs(headOf(body.headUserId), body.roleIds, headers);
        const id = await db.transaction().execute(async (tx) => {
          const row = await tx
            .insertInto('departments')
            .values({ name: body.name, code: body.code, description: body.description || null, head_user_id: headOf(body.headUserId), created_by: caller?.userId ?? null })
            .returning('id')
            .executeTakeFirstOrThrow();
          await setRoles(tx, row.id, body.roleIds);
          return row.id as number;
        });
        return { id };
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/department/update',
      access: { permission: 'department:edit' },
      summary: 'Edit department',
      schema: { body: updateDepartmentSchema },
      response: { data: z.null(), errors: [404] },
      async handler({ body, headers }) {
        if (!(await db.selectFrom('departments').select('id').where('id', '=', body.id).executeTakeFirst())) {
          throw new ApiError(Codes.NOT_FOUND, say(headers, '部门不存在', 'The department does not exist'));
        }
        await assertCodeFree(body.code, body.id, headers);
        await assertRefs(headOf(body.headUserId), body.roleIds, headers);
        await db.transaction().execute(async (tx) => {
          await tx
            .updateTable('departments')
            .set({ name: body.name, code: body.code, description: body.description || null, head_user_id: headOf(body.headUserId) })
            .where('id', '=', body.id)
            .execute();
          await setRoles(tx, body.id, body.roleIds);
        });
        return null;
      },
    });

    // Refused while users belong to it, and for the default department (imports and registration use it).
    ctx.route({
      method: 'DELETE',
      url: '/department/delete',
      access: { permission: 'department:delete' },
      summary: 'Delete departments',
      schema: { query: z.object({ ids: idList }) },
      response: { data: z.object({ deleted: z.number().int() }) },
      async handler({ query, headers }) {
        const rows = await db.selectFrom('departments').select(['id', 'name', 'is_default']).where('id', 'in', query.ids).execute();
        const builtIn = rows.filter((r) => r.is_default);
        if (builtIn.length) throw new ApiError(Codes.BAD_REQUEST, say(headers, `默认部门不能删除：${builtIn[0]!.name}`, `The default department cannot be deleted: ${builtIn[0]!.name}`));
        const used = await holdersByName(db, 'departments', query.ids);
        if (used.length) {
          const list = used.map((u) => `${u.name} (${u.users})`);
          throw new ApiError(Codes.BAD_REQUEST, say(headers, `以下部门仍有用户，不能删除：${list.join('、')}`, `These departments still have users and cannot be deleted: ${list.join(', ')}`));
        }
        const res = await db.deleteFrom('departments').where('id', 'in', query.ids).executeTakeFirst();
        return { deleted: Number(res.numDeletedRows) };
      },
    });
  },
});
