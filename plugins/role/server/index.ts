import { sql } from 'kysely';
import { seededDescription, seededName } from '@linguaport/sdk/shared';
import { ApiError, Codes, defineServerPlugin, holdersByName, idList, iso, like, pageOf, pageOffset, pageQuery, pageSchema, requestLocale, say, takenIgnoringCase } from '@linguaport/sdk/server';
import { z } from '@linguaport/sdk/shared';
import { roleRowSchema, roleSchema, updateRoleSchema, type RoleRow } from '../shared/schemas.js';

/** Roles (spec 02 section 3). Grants are the kernel's `GET/PUT /role/permissions/{roleId}` (key role:grant). */
export default defineServerPlugin({
  setup(ctx) {
    const { db } = ctx;
    type Headers = Record<string, string | string[] | undefined>;

    async function assertNameFree(name: string, exceptId: number | null, headers: Headers) {
      if (await takenIgnoringCase(db, 'roles', 'name', name, exceptId)) throw new ApiError(Codes.BAD_REQUEST, `name: ${say(headers, '角色名称已存在', 'A role with this name exists')}`);
    }

    // Pickers (user form, department form): every role, names only.
    ctx.route({
      method: 'GET',
      url: '/role/list',
      access: 'signed-in',
      summary: 'List all roles',
      response: { data: z.array(z.object({ id: z.number().int(), name: z.string(), isSuper: z.boolean(), isDefault: z.boolean(), builtIn: z.boolean() })) },
      async handler({ headers }) {
        const rows = await db.selectFrom('roles').select(['id', 'name', 'is_super', 'is_default', 'builtin']).orderBy('id').execute();
        const locale = requestLocale(headers);
        return rows.map((r) => ({ id: r.id, name: seededName(r.name, locale), isSuper: r.is_super, isDefault: r.is_default, builtIn: r.builtin !== null }));
      },
    });

    ctx.route({
      method: 'GET',
      url: '/role/getRoleByPage',
      access: { permission: 'role:list' },
      summary: 'List roles by page',
      schema: { query: z.object({ ...pageQuery, name: z.string().trim().max(64).optional() }) },
      response: { data: pageSchema(roleRowSchema) },
      async handler({ query, headers }) {
        const locale = requestLocale(headers);
        const where = query.name ? sql`r.name ilike ${like(query.name)}` : sql`true`;
        const [count, page] = await Promise.all([
          sql<{ n: string }>`select count(*) as n from roles r where ${where}`.execute(db),
          sql<Record<string, unknown>>`
            select r.id, r.name, r.description, r.created_at, r.is_super, r.is_default, r.builtin, c.username as creator_name,
                   (select count(distinct m.user_id) from user_department_roles m where m.role_id = r.id) as user_count
            from roles r left join users c on c.id = r.created_by
            where ${where} order by r.id
            limit ${query.pageSize} offset ${pageOffset(query)}`.execute(db),
        ]);
        const records: RoleRow[] = page.rows.map((r) => ({
          id: Number(r.id),
          name: seededName(String(r.name), locale),
          description: seededDescription((r.description as string | null) ?? null, locale),
          creatorName: (r.creator_name as string | null) ?? null,
          createdAt: iso(r.created_at)!,
          userCount: Number(r.user_count),
          isSuper: Boolean(r.is_super),
          isDefault: Boolean(r.is_default),
          builtIn: r.builtin !== null,
        }));
        return pageOf(query, records, count.rows[0]?.n);
      },
    });

    ctx.route({
      method: 'POST',
      url: '/role/add',
      access: { permission: 'role:add' },
      summary: 'Add role',
      schema: { body: roleSchema },
      response: { data: z.object({ id: z.number().int() }) },
      async handler({ body, caller, headers }) {
        await assertNameFree(body.name, null, headers);
        const row = await db
          .insertInto('roles')
          .values({ name: body.name, description: body.description || null, created_by: caller?.userId ?? null })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { id: row.id };
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/role/update',
      access: { permission: 'role:edit' },
      summary: 'Edit role',
      schema: { body: updateRoleSchema },
      response: { data: z.null(), errors: [404] },
      async handler({ body, headers }) {
        const res = await db.selectFrom('roles').select('id').where('id', '=', body.id).executeTakeFirst();
        if (!res) throw new ApiError(Codes.NOT_FOUND, say(headers, '角色不存在', 'The role does not exist'));
        await assertNameFree(body.name, body.id, headers);
        await db.updateTable('roles').set({ name: body.name, description: body.description || null }).where('id', '=', body.id).execute();
        return null;
      },
    });

    // Refused while any user holds the role, and for the built-in ones (super administrator, normal user, the team roles).
    ctx.route({
      method: 'DELETE',
      url: '/role/delete',
      access: { permission: 'role:delete' },
      summary: 'Delete roles',
      schema: { query: z.object({ ids: idList }) },
      response: { data: z.object({ deleted: z.number().int() }) },
      async handler({ query, headers }) {
        const roles = await db.selectFrom('roles').select(['id', 'name', 'is_super', 'is_default', 'builtin']).where('id', 'in', query.ids).execute();
        const builtIn = roles.filter((r) => r.is_super || r.is_default || r.builtin !== null);
        if (builtIn.length) throw new ApiError(Codes.BAD_REQUEST, say(headers, `内置角色不能删除：${builtIn.map((r) => seededName(r.name, 'zh-CN')).join('、')}`, `Built-in roles cannot be deleted: ${builtIn.map((r) => seededName(r.name, 'en-US')).join(', ')}`));
        const held = await holdersByName(db, 'roles', query.ids);
        if (held.length) {
          const list = held.map((h) => `${h.name} (${h.users})`);
          throw new ApiError(Codes.BAD_REQUEST, say(headers, `以下角色仍有用户持有，不能删除：${list.join('、')}`, `These roles are still held by users and cannot be deleted: ${list.join(', ')}`));
        }
        const res = await db.deleteFrom('roles').where('id', 'in', query.ids).executeTakeFirst();
        return { deleted: Number(res.numDeletedRows) };
      },
    });
  },
});
