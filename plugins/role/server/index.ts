import { seededDescription, seededName } from '@linguaport/sdk/shared';
import { ApiError, Codes, defineServerPlugin, idList, pageOf, pageOffset, pageQuery, pageSchema, requestLocale, say } from '@linguaport/sdk/server';
import { z } from '@linguaport/sdk/shared';
import { roleRowSchema, roleSchema, updateRoleSchema, type RoleRow } from '../shared/schemas.js';

/** Roles (spec 02 section 3), kept by the kernel (`ctx.organisation.roles`). Grants are the kernel's `GET/PUT /role/permissions/{roleId}` (key role:grant). */
export default defineServerPlugin({
  setup(ctx) {
    const { roles } = ctx.organisation;
    type Headers = Record<string, string | string[] | undefined>;

    async function assertNameFree(name: string, exceptId: number | null, headers: Headers) {
      if (await roles.nameTaken(name, exceptId)) throw new ApiError(Codes.BAD_REQUEST, `name: ${say(headers, '角色名称已存在', 'A role with this name exists')}`);
    }

    // Pickers (user form, department form): every role, names only.
    ctx.route({
      method: 'GET',
      url: '/role/list',
      access: 'signed-in',
      summary: 'List all roles',
      response: { data: z.array(z.object({ id: z.number().int(), name: z.string(), isSuper: z.boolean(), isDefault: z.boolean(), builtIn: z.boolean() })) },
      async handler({ headers }) {
        const locale = requestLocale(headers);
        return (await roles.all()).map((r) => ({ id: r.id, name: seededName(r.name, locale), isSuper: r.isSuper, isDefault: r.isDefault, builtIn: r.builtin !== null }));
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
        const page = await roles.page({ name: query.name || undefined, offset: pageOffset(query), limit: query.pageSize });
        const records: RoleRow[] = page.roles.map((r) => ({
          id: r.id,
          name: seededName(r.name, locale),
          description: seededDescription(r.description, locale),
          creatorName: r.creatorName,
          createdAt: r.createdAt.toISOString(),
          userCount: r.userCount,
          isSuper: r.isSuper,
          isDefault: r.isDefault,
          builtIn: r.builtin !== null,
        }));
        return pageOf(query, records, page.total);
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
        return { id: await roles.create({ name: body.name, description: body.description || null, createdBy: caller?.userId ?? null }) };
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
        const [res] = await roles.byIds([body.id]);
        if (!res) throw new ApiError(Codes.NOT_FOUND, say(headers, '角色不存在', 'The role does not exist'));
        await assertNameFree(body.name, body.id, headers);
        await roles.update(body.id, { name: body.name, description: body.description || null });
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
        const builtIn = (await roles.byIds(query.ids)).filter((r) => r.isSuper || r.isDefault || r.builtin !== null);
        if (builtIn.length) throw new ApiError(Codes.BAD_REQUEST, say(headers, `内置角色不能删除：${builtIn.map((r) => seededName(r.name, 'zh-CN')).join('、')}`, `Built-in roles cannot be deleted: ${builtIn.map((r) => seededName(r.name, 'en-US')).join(', ')}`));
        const held = await roles.holders(query.ids);
        if (held.length) {
          const list = held.map((h) => `${h.name} (${h.users})`);
          throw new ApiError(Codes.BAD_REQUEST, say(headers, `以下角色仍有用户持有，不能删除：${list.join('、')}`, `These roles are still held by users and cannot be deleted: ${list.join(', ')}`));
        }
        return { deleted: await roles.remove(query.ids) };
      },
    });
  },
});
