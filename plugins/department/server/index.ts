import { ApiError, Codes, defineServerPlugin, idList, pageOf, pageOffset, pageQuery, pageSchema, requestLocale, say } from '@linguaport/sdk/server';
import { seededDescription, seededName, z } from '@linguaport/sdk/shared';
import { departmentRowSchema, departmentSchema, updateDepartmentSchema, type DepartmentRow } from '../shared/schemas.js';

type Headers = Record<string, string | string[] | undefined>;
const headOf = (v: number | '' | null | undefined) => (typeof v === 'number' ? v : null);

/** Departments (spec 02 section 3): name, unique code, description, head, assigned roles; kept by the kernel (`ctx.organisation.departments`). */
export default defineServerPlugin({
  setup(ctx) {
    const { departments, roles } = ctx.organisation;

    async function assertCodeFree(code: string, exceptId: number | null, headers: Headers) {
      if (await departments.codeTaken(code, exceptId)) throw new ApiError(Codes.BAD_REQUEST, `code: ${say(headers, '部门编码已存在', 'A department with this code exists')}`);
    }

    async function assertRefs(head: number | null, roleIds: number[], headers: Headers) {
      if (head !== null && !(await ctx.users.names([head])).has(head)) {
        throw new ApiError(Codes.BAD_REQUEST, `headUserId: ${say(headers, '负责人不存在', 'The head user does not exist')}`);
      }
      if (roleIds.length) {
        const found = await roles.byIds([...new Set(roleIds)]);
        if (found.length !== new Set(roleIds).size) throw new ApiError(Codes.BAD_REQUEST, `roleIds: ${say(headers, '角色不存在', 'A role does not exist')}`);
      }
    }

    // Pickers (user form, registration): every department, names and codes only.
    ctx.route({
      method: 'GET',
      url: '/department/list',
      access: 'signed-in',
      summary: 'List all departments',
      response: { data: z.array(z.object({ id: z.number().int(), name: z.string(), code: z.string(), isDefault: z.boolean() })) },
      async handler({ headers }) {
        const locale = requestLocale(headers);
        return (await departments.all()).map((d) => ({ id: d.id, name: seededName(d.name, locale), code: d.code, isDefault: d.isDefault }));
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
        const page = await departments.page({ name: query.name || undefined, code: query.code || undefined, offset: pageOffset(query), limit: query.pageSize });
        const records: DepartmentRow[] = page.departments.map((d) => ({
          id: d.id,
          name: seededName(d.name, locale),
          code: d.code,
          description: seededDescription(d.description, locale),
          headUserId: d.headUserId,
          headName: d.headName,
          creatorName: d.creatorName,
          createdAt: d.createdAt.toISOString(),
          isDefault: d.isDefault,
          userCount: d.userCount,
          roles: d.roles.map((x) => ({ id: x.id, name: seededName(x.name, locale) })),
        }));
        return pageOf(query, records, page.total);
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
        const id = await departments.create({ name: body.name, code: body.code, description: body.description || null, headUserId: headOf(body.headUserId), roleIds: body.roleIds, createdBy: caller?.userId ?? null });
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
        const missing = () => new ApiError(Codes.NOT_FOUND, say(headers, '部门不存在', 'The department does not exist'));
        if (!(await departments.byIds([body.id])).length) throw missing();
        await assertCodeFree(body.code, body.id, headers);
        await assertRefs(headOf(body.headUserId), body.roleIds, headers);
        if (!(await departments.update(body.id, { name: body.name, code: body.code, description: body.description || null, headUserId: headOf(body.headUserId), roleIds: body.roleIds }))) throw missing();
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
        const builtIn = (await departments.byIds(query.ids)).filter((d) => d.isDefault);
        if (builtIn.length) throw new ApiError(Codes.BAD_REQUEST, say(headers, `默认部门不能删除：${builtIn[0]!.name}`, `The default department cannot be deleted: ${builtIn[0]!.name}`));
        const used = await departments.holders(query.ids);
        if (used.length) {
          const list = used.map((u) => `${u.name} (${u.users})`);
          throw new ApiError(Codes.BAD_REQUEST, say(headers, `以下部门仍有用户，不能删除：${list.join('、')}`, `These departments still have users and cannot be deleted: ${list.join(', ')}`));
        }
        return { deleted: await departments.remove(query.ids) };
      },
    });
  },
});
