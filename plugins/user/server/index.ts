import { sql, type Kysely } from 'kysely';
import { ApiError, Codes, defineServerPlugin, idList, pageSchema, type ServerPluginContext, requestLocale, say, takenIgnoringCase, uploadedFileSchema } from '@linguaport/sdk/server';
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

async function superUserIds(db: Kysely<any>, ids: number[]): Promise<number[]> {
  const rows = await db
    .selectFrom('user_department_roles as m')
    .innerJoin('roles as r', 'r.id', 'm.role_id')
    .select('m.user_id')
    .distinct()
    .where('r.is_super', '=', true)
    .where('m.user_id', 'in', ids)
    .execute();
  return rows.map((r) => Number(r.user_id));
}

async function assertNameFree(db: Kysely<any>, username: string, exceptId: number | null, headers: Headers) {
  if (await takenIgnoringCase(db, 'users', 'username', username, exceptId)) throw new ApiError(Codes.BAD_REQUEST, `username: ${say(headers, '用户名已存在', 'This user name is already taken')}`);
}

/** Every department and role id must exist; the form's pickers cannot be trusted. */
async function assertMemberships(db: Kysely<any>, departmentIds: number[], roleIds: number[], headers: Headers) {
  const deps = await db.selectFrom('departments').select('id').where('id', 'in', departmentIds).execute();
  if (deps.length !== new Set(departmentIds).size) throw new ApiError(Codes.BAD_REQUEST, `departmentIds: ${say(headers, '部门不存在', 'A department does not exist')}`);
  const roles = await db.selectFrom('roles').select('id').where('id', 'in', roleIds).execute();
  if (roles.length !== new Set(roleIds).size) throw new ApiError(Codes.BAD_REQUEST, `roleIds: ${say(headers, '角色不存在', 'A role does not exist')}`);
}

/** A user holds each chosen role in each chosen department (the kernel's membership model). */
async function setMemberships(db: Kysely<any>, userId: number, departmentIds: number[], roleIds: number[]) {
  await db.deleteFrom('user_department_roles').where('user_id', '=', userId).execute();
  const rows = [...new Set(departmentIds)].flatMap((d) => [...new Set(roleIds)].map((r) => ({ user_id: userId, department_id: d, role_id: r })));
  await db.insertInto('user_department_roles').values(rows).execute();
}

const blankToNull = (v: string | null | undefined) => (v === undefined || v === null || v.trim() === '' ? null : v.trim());
const dateOrNull = (v: string | null | undefined) => (v ? new Date(v) : null);

export default defineServerPlugin({
  migrations: [
    {
      name: '001_user_list_indexes',
      // Indexes for the list's sortable columns (the kernel's users table; no column is changed).
      async up(db) {
        for (const statement of [
          'create index if not exists users_created_at_idx on users (created_at)',
          'create index if not exists users_real_name_idx on users (real_name)',
          'create index if not exists users_priority_idx on users (priority)',
          'create index if not exists users_lower_username_idx on users (lower(username))',
          'create index if not exists udr_department_idx on user_department_roles (department_id)',
          'create index if not exists udr_role_idx on user_department_roles (role_id)',
        ]) await sql.raw(statement).execute(db);
      },
    },
    {
      name: '002_user_search_trigram_indexes',
      // Substring search (ilike '%text%') by user name and real name through trigram indexes
      // (the kernel enables pg_trgm on PGlite and PostgreSQL): 100,000 users otherwise mean a full scan.
      async up(db) {
        await sql`create index if not exists users_username_trgm_idx on users using gin (username gin_trgm_ops)`.execute(db);
        await sql`create index if not exists users_real_name_trgm_idx on users using gin (real_name gin_trgm_ops)`.execute(db);
      },
    },
    {
      name: '003_user_sort_indexes',
      // (column, id) for every sortable column: the list sorts by the column then the id, so an
      // index scan serves any page without sorting the table (measured: 93 ms -> 7 ms at 100,000 users).
      async up(db) {
        for (const statement of [
          'drop index if exists users_created_at_idx',
          'drop index if exists users_real_name_idx',
          'drop index if exists users_priority_idx',
          'create index if not exists users_sort_username_idx on users (username, id)',
          'create index if not exists users_sort_real_name_idx on users (real_name, id)',
          'create index if not exists users_sort_created_at_idx on users (created_at, id)',
          'create index if not exists users_sort_priority_idx on users (priority, id)',
          'create index if not exists users_sort_expires_at_idx on users (expires_at, id)',
          'create index if not exists users_sort_last_login_idx on users (last_login_at, id)',
          // Few users wait for a check: the status filter reads them through this index.
          'create index if not exists users_status_idx on users (status)',
        ]) await sql.raw(statement).execute(db);
      },
    },
  ],

  setup(ctx: ServerPluginContext) {
    const { db } = ctx;
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
      handler: ({ query, headers }) => listUsers(db, query, requestLocale(headers)),
    });

    // Pickers (library sharing, task assignment): every enabled user, names only. The user directory
    // is for members: the guest, a quick-access page and API keys see nothing about other users.
    ctx.route({
      method: 'GET',
      url: '/user/getAllUser',
      access: 'member',
      summary: 'List enabled users',
      response: { data: z.array(userName) },
      async handler() {
        const rows = await db.selectFrom('users').select(['id', 'username', 'real_name']).where('enabled', '=', true).orderBy('username').execute();
        return rows.map((r) => ({ id: r.id, username: r.username, realName: r.real_name }));
      },
    });

    ctx.route({
      method: 'GET',
      url: '/user/getAllUserOfAdmin',
      access: 'member',
      summary: 'List super administrators',
      response: { data: z.array(userName) },
      async handler() {
        const rows = await db
          .selectFrom('users as u')
          .innerJoin('user_department_roles as m', 'm.user_id', 'u.id')
          .innerJoin('roles as r', 'r.id', 'm.role_id')
          .select(['u.id', 'u.username', 'u.real_name'])
          .distinct()
          .where('r.is_super', '=', true)
          .where('u.enabled', '=', true)
          .orderBy('u.username')
          .execute();
        return rows.map((r) => ({ id: r.id, username: r.username, realName: r.real_name }));
      },
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
        const rows = await sql<{ id: number; username: string; real_name: string | null; email: string | null; phone: string | null; kind: string }>`
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
    });

    // Who may be assigned incremental training: enabled, checked users.
    ctx.route({
      method: 'GET',
      url: '/user/getAllUserForIncrement',
      access: 'member',
      summary: 'List users who may be assigned incremental training',
      response: { data: z.array(userName) },
      async handler() {
        const rows = await db.selectFrom('users').select(['id', 'username', 'real_name']).where('enabled', '=', true).where('status', '=', 'checked').orderBy('username').execute();
        return rows.map((r) => ({ id: r.id, username: r.username, realName: r.real_name }));
      },
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
        return { available: !(await takenIgnoringCase(db, 'users', 'username', query.username, query.id)) };
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
        await assertNameFree(db, body.username, null, headers);
        await assertMemberships(db, body.departmentIds, body.roleIds, headers);
        await ctx.auth.assertMayGrant(caller, { roleIds: body.roleIds, departmentIds: body.departmentIds }, headers);
        const passwordHash = await ctx.auth.hashPassword(body.password);
        const id = await db.transaction().execute(async (tx) => {
          const row = await tx
            .insertInto('users')
            .values({
              username: body.username,
              real_name: body.realName,
              password_hash: passwordHash,
              email: blankToNull(body.email),
              phone: blankToNull(body.phone),
              employee_no: blankToNull(body.employeeNo),
              expires_at: dateOrNull(body.expiresAt),
              priority: body.priority ?? PRIORITY_MIN,
              memo: blankToNull(body.memo),
              status: 'checked',
              created_by: caller?.userId ?? null,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await setMemberships(tx, Number(row.id), body.departmentIds, body.roleIds);
          return Number(row.id);
        });
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
        const existing = await db.selectFrom('users').select('id').where('id', '=', body.id).executeTakeFirst();
        if (!existing) throw new ApiError(Codes.NOT_FOUND, say(headers, '用户不存在', 'The user does not exist'));
        await ctx.auth.assertMayManage(caller, [body.id], headers);
        await assertNameFree(db, body.username, body.id, headers);
        await assertMemberships(db, body.departmentIds, body.roleIds, headers);
        await ctx.auth.assertMayGrant(caller, { roleIds: body.roleIds, departmentIds: body.departmentIds }, headers);
        // Another user's password is its own permission (user:password), not part of editing the profile.
        if (body.password && body.id !== caller?.userId && !ctx.auth.can(caller, 'user:password')) {
          throw new ApiError(Codes.FORBIDDEN, say(headers, '修改他人密码需要权限 user:password', "Changing another user's password needs the permission user:password"));
        }
        await db.transaction().execute(async (tx) => {
          await tx
            .updateTable('users')
            .set({
              username: body.username,
              real_name: body.realName,
              email: blankToNull(body.email),
              phone: blankToNull(body.phone),
              employee_no: blankToNull(body.employeeNo),
              expires_at: dateOrNull(body.expiresAt),
              ...(body.priority === undefined ? {} : { priority: body.priority }),
              memo: blankToNull(body.memo),
            })
            .where('id', '=', body.id)
            .execute();
          await setMemberships(tx, body.id, body.departmentIds, body.roleIds);
        });
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
        const res = await db.updateTable('users').set({ enabled: enable }).where('id', 'in', query.ids).executeTakeFirst();
        // A disabled account's open sessions end now, not at their expiry.
        if (!enable) await ctx.auth.endSessions(query.ids);
        return { updated: Number(res.numUpdatedRows) };
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
        const user = await db.selectFrom('users').select(['status']).where('id', '=', params.id).executeTakeFirst();
        if (!user) throw new ApiError(Codes.NOT_FOUND, say(headers, '用户不存在', 'The user does not exist'));
        if (user.status !== 'unchecked') throw new ApiError(Codes.BAD_REQUEST, say(headers, '该用户已审核', 'The user is already checked'));
        await db.updateTable('users').set({ status: 'checked' }).where('id', '=', params.id).execute();
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
        const supers = await superUserIds(db, query.ids);
        if (supers.length) throw new ApiError(Codes.BAD_REQUEST, say(headers, '不能删除超级管理员', 'Super administrators cannot be deleted'));
        await ctx.auth.assertMayManage(caller, query.ids, headers);
        const res = await db.deleteFrom('users').where('id', 'in', query.ids).executeTakeFirst();
        await ctx.bus.publish({ type: 'user.deleted', payload: { userIds: query.ids }, audience: { permission: 'user:list' } });
        return { deleted: Number(res.numDeletedRows) };
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
        const res = await db.updateTable('users').set({ priority: body.priority }).where('id', 'in', body.userIds).executeTakeFirst();
        return { updated: Number(res.numUpdatedRows) };
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
        const res = await db
          .updateTable('users')
          .set({ priority: body.priority })
          .where(sql<boolean>`id in (select user_id from user_department_roles where department_id in (${sql.join(body.departmentIds)}))`)
          .executeTakeFirst();
        return { updated: Number(res.numUpdatedRows) };
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
        const existing = await db.selectFrom('users').select(sql<string>`lower(username)`.as('name')).where(sql`lower(username)`, 'in', rows.map((r) => r.username.toLowerCase())).execute();
        const refusals = checkRows(rows, new Set(existing.map((e) => e.name)), locale);
        const accepted = rows.filter((r) => !refusals.has(r.row));
        if (accepted.length) {
          const department = await db.selectFrom('departments').select('id').where('is_default', '=', true).executeTakeFirstOrThrow();
          const role = await db.selectFrom('roles').select('id').where('is_default', '=', true).executeTakeFirstOrThrow();
          // Imported accounts get the default role in the default department: the caller must be able to grant them.
          await ctx.auth.assertMayGrant(caller, { roleIds: [role.id], departmentIds: [department.id] }, headers);
          // One hash for the batch: every imported account starts with the same default password and must change it.
          const passwordHash = await ctx.auth.hashPassword((await ctx.settings.get('DEFAULT_PASSWORD').catch(() => null)) || String(ctx.config.defaultPassword ?? FALLBACK_IMPORT_PASSWORD));
          await db.transaction().execute(async (tx) => {
            const inserted = await tx
              .insertInto('users')
              .values(accepted.map((r) => ({
                username: r.username,
                real_name: r.realName ?? r.username,
                email: r.email,
                phone: r.phone,
                employee_no: r.employeeNo,
                memo: r.memo,
                password_hash: passwordHash,
                need_password_change: true,
                priority: PRIORITY_MIN,
                status: 'checked',
                created_by: caller?.userId ?? null,
              })))
              .returning('id')
              .execute();
            await tx.insertInto('user_department_roles').values(inserted.map((u) => ({ user_id: u.id, department_id: department.id, role_id: role.id }))).execute();
          });
        }
        return { imported: accepted.length, rejected: refusals.size, rows: reportRows(rows, refusals) };
      },
    });
  },
});
