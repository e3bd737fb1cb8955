import { ApiError, Codes, defineServerPlugin, idList, pageSchema, type Organisation, type ServerPluginContext, requestLocale, say, uploadedFileSchema, type UserAdmin, type UserFields } from '@linguaport/sdk/server';
import { idSchema, z } from '@linguaport/sdk/shared';
import {
  PRIORITY_MIN,
  addUserSchema,
  priorityByDepartmentsSchema,
  priorityByUsersSchema,
  updateUserSchema,
  type ImportReport,
  importReportSchema,
  userRowSchema,
} from '../shared/schemas.js';
import { checkRows, importTemplate, readImportFile, reportRows } from './import.js';
import { listQuerySchema, listUsers } from './list.js';


/** Default password of imported users when the system configuration has none (forced change at first sign-in). */
const FALLBACK_IMPORT_PASSWORD = 'Linguaport@123';

type Headers = Record<string, string | string[] | undefined>;

async function assertNameFree(users: UserAdmin, username: string, exceptId: number | null, headers: Headers) {
  if (await users.nameTaken(username, exceptId)) throw new ApiError(Codes.BAD_REQUEST, `username: ${say(headers, '用户名已存在', 'This user name is already taken')}`);
}

/** Every department and role id must exist; the form's pickers cannot be trusted. */
async function assertMemberships(organisation: Organisation, departmentIds: number[], roleIds: number[], headers: Headers) {
  const deps = await organisation.departments.byIds([...new Set(departmentIds)]);
  if (deps.length !== new Set(departmentIds).size) throw new ApiError(Codes.BAD_REQUEST, `departmentIds: ${say(headers, '部门不存在', 'A department does not exist')}`);
  const roles = await organisation.roles.byIds([...new Set(roleIds)]);
  if (roles.length !== new Set(roleIds).size) throw new ApiError(Codes.BAD_REQUEST, `roleIds: ${say(headers, '角色不存在', 'A role does not exist')}`);
}

const blankToNull = (v: string | null | undefined) => (v === undefined || v === null || v.trim() === '' ? null : v.trim());
const dateOrNull = (v: string | null | undefined) => (v ? new Date(v) : null);

export default defineServerPlugin({
  // The list's indexes on the kernel's users table are the kernel's now (access migration
  // 004_user_list_indexes); these names stay because databases have them applied.
  migrations: [
    { name: '001_user_list_indexes', async up() {} },
    { name: '002_user_search_trigram_indexes', async up() {} },
    { name: '003_user_sort_indexes', async up() {} },
  ],

  setup(ctx: ServerPluginContext) {
    const users = ctx.organisation.users;
    const fieldsOf = (body: { username: string; realName: string; email?: string | null; phone?: string | null; employeeNo?: string | null; expiresAt?: string | null; priority?: number; memo?: string | null }): UserFields => ({
      username: body.username,
      realName: body.realName,
      email: blankToNull(body.email),
      phone: blankToNull(body.phone),
      employeeNo: blankToNull(body.employeeNo),
      expiresAt: dateOrNull(body.expiresAt),
      priority: body.priority,
      memo: blankToNull(body.memo),
    });
    /** A user as the pickers list them. */
    const userName = z.object({ id: z.number().int(), username: z.string(), realName: z.string().nullable() });
    const accessChanged = (userIds: number[]) => ctx.bus.publish({ type: 'access.changed', payload: { userIds }, audience: { userIds } });

    ctx.route({
      method: 'GET',
      url: '/user/getAllUserByPage',
      access: { permission: 'user:list' },
      summary: 'List users by page',
      schema: { query: listQuerySchema },
      response: { data: pageSchema(userRowSchema) },
      handler: ({ query, headers }) => listUsers(users, query, requestLocale(headers)),
    });

    // Pickers (library sharing, task assignment): every enabled user, names only. The user directory
    // is for members: the guest, a quick-access page and API keys see nothing about other users.
    ctx.route({
      method: 'GET',
      url: '/user/getAllUser',
      access: 'member',
      summary: 'List enabled users',
      response: { data: z.array(userName) },
      handler: () => users.enabled(),
    });

    ctx.route({
      method: 'GET',
      url: '/user/getAllUserOfAdmin',
      access: 'member',
      summary: 'List super administrators',
      response: { data: z.array(userName) },
      handler: () => users.enabled({ superAdmins: true }),
    });

    // Whom to ask about an account: the super administrators and the heads of the given department.
    ctx.route({
      method: 'OPTIONS',
      url: '/user/getAccountAdmin',
      access: 'member',
      summary: 'List whom to ask about an account',
      schema: { query: z.object({ departmentId: idSchema.optional() }) },
      response: { data: z.array(userName.extend({ email: z.string().nullable(), phone: z.string().nullable(), kind: z.enum(['super', 'head']) })) },
      async handler({ query, caller }) {
        const departmentId = query.departmentId ?? caller?.departmentId ?? null;
        return users.contacts(departmentId);
      },
    });

    // Who may be assigned incremental training: enabled, checked users.
    ctx.route({
      method: 'GET',
      url: '/user/getAllUserForIncrement',
      access: 'member',
      summary: 'List users who may be assigned incremental training',
      response: { data: z.array(userName) },
      handler: () => users.enabled({ checked: true }),
    });

    // Live uniqueness check of the add/edit form (public: the registration page uses it too).
    ctx.route({
      method: 'POST',
      url: '/user/checkUserName',
      access: 'public',
      summary: 'Check whether a user name is free',
      log: false,
      schema: { query: z.object({ username: z.string().trim().min(1, 'validation.required'), id: idSchema.optional() }) },
      response: { data: z.object({ available: z.boolean() }) },
      async handler({ query }) {
        return { available: !(await users.nameTaken(query.username, query.id)) };
      },
    });

    ctx.route({
      method: 'POST',
      url: '/user/add',
      access: { permission: 'user:add' },
      module: 'user',
      summary: 'Add user',
      schema: { body: addUserSchema },
      response: { data: z.object({ id: z.number().int() }) },
      async handler({ body, caller, headers }) {
        await assertNameFree(users, body.username, null, headers);
        await assertMemberships(ctx.organisation, body.departmentIds, body.roleIds, headers);
        await ctx.auth.assertMayGrant(caller, { roleIds: body.roleIds, departmentIds: body.departmentIds }, headers);
        const passwordHash = await ctx.auth.hashPassword(body.password);
        const id = await users.create({ ...fieldsOf(body), passwordHash, createdBy: caller?.userId ?? null }, body);
        return { id };
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/user/update',
      access: { permission: 'user:edit' },
      module: 'user',
      summary: 'Edit user',
      schema: { body: updateUserSchema },
      response: { data: z.null(), errors: [404] },
      async handler({ body, caller, headers, ip }) {
        if (!(await users.exists(body.id))) throw new ApiError(Codes.NOT_FOUND, say(headers, '用户不存在', 'The user does not exist'));
        await ctx.auth.assertMayManage(caller, [body.id], headers);
        await assertNameFree(users, body.username, body.id, headers);
        await assertMemberships(ctx.organisation, body.departmentIds, body.roleIds, headers);
        await ctx.auth.assertMayGrant(caller, { roleIds: body.roleIds, departmentIds: body.departmentIds }, headers);
        // Another user's password is its own permission (user:password), not part of editing the profile.
        if (body.password && body.id !== caller?.userId && !ctx.auth.can(caller, 'user:password')) {
          throw new ApiError(Codes.FORBIDDEN, say(headers, '修改他人密码需要权限 user:password', "Changing another user's password needs the permission user:password"));
        }
        await users.update(body.id, fieldsOf(body), body);
        // Recorded and the user's other sessions ended by the kernel.
        if (body.password) await ctx.auth.setPassword(caller!, body.id, body.password, { ip, method: 'PUT', url: '/api/user/update' });
        await accessChanged([body.id]);
        return null;
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/user/updateIsUse/:flag',
      access: { permission: 'user:enable' },
      module: 'user',
      summary: 'Enable or disable users',
      schema: { params: z.object({ flag: z.enum(['0', '1']) }), query: z.object({ ids: idList }) },
      response: { data: z.object({ updated: z.number().int() }) },
      async handler({ params, query, caller, headers }) {
        const enable = params.flag === '1';
        if (!enable && caller && query.ids.includes(caller.userId)) throw new ApiError(Codes.BAD_REQUEST, say(headers, '不能禁用自己', 'You cannot disable yourself'));
        await ctx.auth.assertMayManage(caller, query.ids, headers);
        const updated = await users.setEnabled(query.ids, enable);
        // A disabled account's open sessions end now, not at their expiry.
        if (!enable) await ctx.auth.endSessions(query.ids);
        return { updated };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/user/examineUser/:id',
      access: { permission: 'user:examine' },
      module: 'user',
      summary: 'Check (approve) user',
      log: true,
      schema: { params: z.object({ id: idSchema }) },
      response: { data: z.null(), errors: [404] },
      async handler({ params, headers }) {
        const outcome = await users.approve(params.id);
        if (outcome === 'unknown') throw new ApiError(Codes.NOT_FOUND, say(headers, '用户不存在', 'The user does not exist'));
        if (outcome === 'already') throw new ApiError(Codes.BAD_REQUEST, say(headers, '该用户已审核', 'The user is already checked'));
        return null;
      },
    });

    // Removes the accounts; their department/role memberships and sessions go with them (cascade).
    // Other areas' rows keep the id and learn of the removal through the `user.deleted` event.
    ctx.route({
      method: 'DELETE',
      url: '/userAndCat/delete',
      access: { permission: 'user:delete' },
      module: 'user',
      summary: 'Delete users',
      schema: { query: z.object({ ids: idList }) },
      response: { data: z.object({ deleted: z.number().int() }) },
      async handler({ query, caller, headers }) {
        if (caller && query.ids.includes(caller.userId)) throw new ApiError(Codes.BAD_REQUEST, say(headers, '不能删除自己', 'You cannot delete yourself'));
        const supers = await users.superAdmins(query.ids);
        if (supers.length) throw new ApiError(Codes.BAD_REQUEST, say(headers, '不能删除超级管理员', 'Super administrators cannot be deleted'));
        await ctx.auth.assertMayManage(caller, query.ids, headers);
        const deleted = await users.remove(query.ids);
        await ctx.bus.publish({ type: 'user.deleted', payload: { userIds: query.ids }, audience: { permission: 'user:list' } });
        return { deleted };
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/user/translationPriorityByUserIds',
      access: { permission: 'user:priority' },
      module: 'user',
      summary: 'Set translation priority of users',
      schema: { body: priorityByUsersSchema },
      response: { data: z.object({ updated: z.number().int() }) },
      async handler({ body }) {
        return { updated: await users.setPriority({ userIds: body.userIds }, body.priority) };
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/user/translationPriorityByDepartmentIds',
      access: { permission: 'user:priority' },
      module: 'user',
      summary: 'Set translation priority of departments',
      schema: { body: priorityByDepartmentsSchema },
      response: { data: z.object({ updated: z.number().int() }) },
      async handler({ body }) {
        return { updated: await users.setPriority({ departmentIds: body.departmentIds }, body.priority) };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/user/importTemplate',
      access: { permission: 'user:import' },
      summary: 'Download the user import template',
      response: { envelope: false, contentType: 'application/vnd.ms-excel' },
      handler: () => ({
        raw: true,
        contentType: 'application/vnd.ms-excel',
        body: importTemplate(),
        headers: { 'content-disposition': 'attachment; filename="user-import-template.xls"' },
      }),
    });

    ctx.route({
      method: 'POST',
      url: '/user/importUsers',
      access: { permission: 'user:import' },
      module: 'user',
      summary: 'Import users',
      upload: { maxBytes: 20 * 1024 * 1024 },
      schema: { body: z.object({ file: z.union([uploadedFileSchema, z.array(uploadedFileSchema)]) }) },
      response: { data: importReportSchema },
      async handler({ body, caller, headers }): Promise<ImportReport> {
        const locale = requestLocale(headers);
        if (Array.isArray(body.file)) throw new ApiError(Codes.BAD_REQUEST, say(headers, '一次只能导入一个文件', 'Import one file at a time'));
        const rows = readImportFile(body.file, locale);
        const refusals = checkRows(rows, await users.takenNames(rows.map((r) => r.username)), locale);
        const accepted = rows.filter((r) => !refusals.has(r.row));
        if (accepted.length) {
          const department = (await ctx.organisation.departments.all()).find((d) => d.isDefault);
          const role = (await ctx.organisation.roles.all()).find((r) => r.isDefault);
          if (!department || !role) throw new Error('the kernel has no default department or role');
          // Imported accounts get the default role in the default department: the caller must be able to grant them.
          await ctx.auth.assertMayGrant(caller, { roleIds: [role.id], departmentIds: [department.id] }, headers);
          // One hash for the batch: every imported account starts with the same default password and must change it.
          const passwordHash = await ctx.auth.hashPassword((await ctx.settings.get('DEFAULT_PASSWORD').catch(() => null)) || String(ctx.config.defaultPassword ?? FALLBACK_IMPORT_PASSWORD));
          await users.createMany(
            accepted.map((r) => ({
              username: r.username,
              realName: r.realName ?? r.username,
              email: r.email,
              phone: r.phone,
              employeeNo: r.employeeNo,
              expiresAt: null,
              memo: r.memo,
              priority: PRIORITY_MIN,
              passwordHash,
              needPasswordChange: true,
              createdBy: caller?.userId ?? null,
            })),
            { departmentId: department.id, roleId: role.id },
          );
        }
        return { imported: accepted.length, rejected: refusals.size, rows: reportRows(rows, refusals) };
      },
    });
  },
});
