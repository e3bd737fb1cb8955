import { z } from 'zod';
import { sql, type Kysely } from 'kysely';
import { ApiError, Codes, like, pageOf, pageOffset, pageQuery, say, type Caller, type ServerPluginContext } from '@linguaport/sdk/server';
import { idSchema } from '@linguaport/sdk/shared';
import type { TmDatabase } from './tables.js';

/**
 * Memories (libraries) and who may use and edit them (spec 02 sections 3, 5 "Library add" and 6).
 * Ownership decides who sees and uses a memory:
 *   all        every signed-in member of the platform
 *   department members working in the memory's department (the caller's chosen department)
 *   custom     the users listed on the memory
 * Listed users carry their own rights (use, edit; at least one each). Edit means adding, changing,
 * reviewing, importing and deleting entries. The creator and super administrators use and edit always.
 * Every route and the pipeline hook ask here, per memory, on every call.
 */

export const OWNERSHIPS = ['all', 'department', 'custom'] as const;
export type Ownership = (typeof OWNERSHIPS)[number];

export interface LibraryRow {
  id: number;
  name: string;
  ownership: Ownership;
  department_id: number | null;
  kind: 'personal' | 'shared';
  creator_id: number;
}

export interface LibraryRights {
  use: boolean;
  edit: boolean;
}

const insufficient = (headers: Record<string, unknown>) =>
  new ApiError(Codes.FORBIDDEN, say(headers as never, '权限不足：您不能使用或编辑这个记忆库', 'Insufficient permission: you may not use or edit this memory'));

export function rightsOf(caller: Caller, lib: LibraryRow, listed: { can_use: boolean; can_edit: boolean } | undefined): LibraryRights {
  if (caller.isSuperAdmin || lib.creator_id === caller.userId) return { use: true, edit: true };
  const edit = !!listed?.can_edit;
  const byOwnership = lib.ownership === 'all' || (lib.ownership === 'department' && lib.department_id !== null && lib.department_id === caller.departmentId);
  return { use: edit || !!listed?.can_use || byOwnership, edit };
}

export class Libraries {
  constructor(private readonly db: Kysely<TmDatabase>) {}

  /** The memories the caller may use, with their rights. */
  async usable(caller: Caller): Promise<Map<number, LibraryRights>> {
    const rows = await this.db
      .selectFrom('tm_libraries as l')
      .leftJoin('tm_library_users as u', (j) => j.onRef('u.library_id', '=', 'l.id').on('u.user_id', '=', caller.userId))
      .select(['l.id', 'l.name', 'l.ownership', 'l.department_id', 'l.kind', 'l.creator_id', 'u.can_use', 'u.can_edit'])
      .execute();
    const out = new Map<number, LibraryRights>();
    for (const r of rows) {
      const rights = rightsOf(caller, r as LibraryRow, r.can_use === null ? undefined : { can_use: !!r.can_use, can_edit: !!r.can_edit });
      if (rights.use) out.set(r.id, rights);
    }
    return out;
  }

  async rights(caller: Caller, libraryId: number): Promise<LibraryRights | null> {
    const lib = await this.db.selectFrom('tm_libraries').selectAll().where('id', '=', libraryId).executeTakeFirst();
    if (!lib) return null;
    const listed = await this.db.selectFrom('tm_library_users').select(['can_use', 'can_edit']).where('library_id', '=', libraryId).where('user_id', '=', caller.userId).executeTakeFirst();
    return rightsOf(caller, lib as LibraryRow, listed);
  }

  /** 404 for a memory that does not exist, 403 with the insufficient-permission message for one the caller may not use (or edit). */
  async assert(caller: Caller, libraryId: number, need: 'use' | 'edit', headers: Record<string, unknown>): Promise<void> {
    const rights = await this.rights(caller, libraryId);
    if (!rights) throw new ApiError(Codes.NOT_FOUND, say(headers as never, `记忆库 ${libraryId} 不存在`, `Memory ${libraryId} does not exist`));
    if (!rights[need]) throw insufficient(headers);
  }

  /** The caller's default memories among those it may use. */
  async defaultsFor(caller: Caller): Promise<number[]> {
    const usable = await this.usable(caller);
    const rows = await this.db.selectFrom('tm_defaults').select('library_id').where('user_id', '=', caller.userId).execute();
    return rows.map((r) => r.library_id).filter((id) => usable.has(id));
  }
}

/** Other areas say when a memory is theirs to keep (a CAT project uses it): a delete is then refused with their reason. */
export type LibraryUsageCheck = (libraryId: number) => Promise<string | null>;

const userRight = z.object({ userId: idSchema, use: z.boolean().default(false), edit: z.boolean().default(false) }).refine((u) => u.use || u.edit, { message: 'validation.required', path: ['use'] });

const libraryBody = z.object({
  name: z.string().trim().min(1, 'validation.required').max(100),
  ownership: z.enum(OWNERSHIPS),
  departmentId: idSchema.nullable().optional(),
  kind: z.enum(['personal', 'shared']).default('shared'),
  users: z.array(userRight).max(500),
  isDefault: z.boolean().default(false),
});

export function libraryRoutes(ctx: ServerPluginContext, db: Kysely<TmDatabase>, libraries: Libraries, usage: LibraryUsageCheck[], keys: { view: string; manage: string }) {
  const VIEW = { permission: keys.view } as const;
  const MANAGE = { permission: keys.manage } as const;

  const saveUsers = async (trx: Kysely<TmDatabase>, libraryId: number, users: z.infer<typeof userRight>[]) => {
    await trx.deleteFrom('tm_library_users').where('library_id', '=', libraryId).execute();
    const unique = new Map(users.map((u) => [u.userId, u]));
    if (unique.size) await trx.insertInto('tm_library_users').values([...unique.values()].map((u) => ({ library_id: libraryId, user_id: u.userId, can_use: u.use, can_edit: u.edit }))).execute();
  };
  const setDefault = async (trx: Kysely<TmDatabase>, userId: number, libraryId: number, on: boolean) => {
    await trx.deleteFrom('tm_defaults').where('user_id', '=', userId).where((eb) => (on ? eb.val(true) : eb('library_id', '=', libraryId))).execute();
    if (on) await trx.insertInto('tm_defaults').values({ user_id: userId, library_id: libraryId }).execute();
  };
  const checkBody = (b: z.infer<typeof libraryBody>, caller: Caller, headers: Record<string, unknown>) => {
    if (b.ownership === 'department' && !(b.departmentId ?? caller.departmentId)) throw new ApiError(Codes.BAD_REQUEST, say(headers as never, '部门共享的记忆库需要一个部门', 'A department-shared memory needs a department'));
    if (b.ownership === 'custom' && b.users.length === 0) throw new ApiError(Codes.BAD_REQUEST, say(headers as never, '自定义用户共享的记忆库至少需要一个用户', 'A custom-user memory needs at least one user'));
  };

  ctx.route({
    method: 'GET',
    url: '/TM/library/list',
    access: VIEW,
    summary: 'List the memories the caller may use',
    schema: { query: z.object({ ...pageQuery, name: z.string().trim().max(100).optional() }) },
    async handler({ query, caller }) {
      const usable = await libraries.usable(caller!);
      const ids = [...usable.keys()];
      if (!ids.length) return pageOf(query, [], 0);
      let q = db.selectFrom('tm_libraries').where('id', 'in', ids);
      if (query.name) q = q.where('name', 'ilike', like(query.name));
      const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .selectAll()
        .select((eb) => eb.selectFrom('tm_entries').whereRef('tm_entries.library_id', '=', 'tm_libraries.id').select(eb.fn.countAll().as('c')).as('entry_count'))
        .orderBy('id', 'desc')
        .limit(query.pageSize)
        .offset(pageOffset(query))
        .execute();
      const defaults = new Set((await db.selectFrom('tm_defaults').select('library_id').where('user_id', '=', caller!.userId).execute()).map((r) => r.library_id));
      const listed = await db.selectFrom('tm_library_users').selectAll().where('library_id', 'in', rows.map((r) => r.id)).execute();
      return pageOf(
        query,
        rows.map((r) => ({
          id: r.id,
          name: r.name,
          ownership: r.ownership,
          departmentId: r.department_id,
          kind: r.kind,
          creatorId: r.creator_id,
          createdAt: new Date(r.created_at).toISOString(),
          entries: Number(r.entry_count ?? 0),
          isDefault: defaults.has(r.id),
          mayEdit: usable.get(r.id)!.edit,
          users: listed.filter((u) => u.library_id === r.id).map((u) => ({ userId: u.user_id, use: u.can_use, edit: u.can_edit })),
        })),
        total.n,
      );
    },
  });

  ctx.route({
    method: 'POST',
    url: '/TM/library/add',
    access: MANAGE,
    summary: 'Add a memory',
    schema: { body: libraryBody },
    async handler({ body, caller, headers }) {
      checkBody(body, caller!, headers);
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('tm_libraries')
          .values({ name: body.name, ownership: body.ownership, department_id: body.ownership === 'department' ? (body.departmentId ?? caller!.departmentId) : null, kind: body.kind, creator_id: caller!.userId })
          .returning('id')
          .executeTakeFirstOrThrow();
        await saveUsers(trx, row.id, body.users);
        if (body.isDefault) await setDefault(trx, caller!.userId, row.id, true);
        return { id: row.id };
      });
    },
  });

  ctx.route({
    method: 'PUT',
    url: '/TM/library/update',
    access: MANAGE,
    summary: 'Change a memory',
    schema: { body: libraryBody.extend({ id: idSchema }) },
    async handler({ body, caller, headers }) {
      await libraries.assert(caller!, body.id, 'edit', headers);
      checkBody(body, caller!, headers);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('tm_libraries')
          .set({ name: body.name, ownership: body.ownership, department_id: body.ownership === 'department' ? (body.departmentId ?? caller!.departmentId) : null, kind: body.kind })
          .where('id', '=', body.id)
          .execute();
        await saveUsers(trx, body.id, body.users);
        await setDefault(trx, caller!.userId, body.id, body.isDefault);
      });
      return { id: body.id };
    },
  });

  ctx.route({
    method: 'PUT',
    url: '/TM/library/default',
    access: VIEW,
    summary: 'Make a memory the caller\'s default (or not)',
    schema: { body: z.object({ id: idSchema, isDefault: z.boolean() }) },
    async handler({ body, caller, headers }) {
      await libraries.assert(caller!, body.id, 'use', headers);
      await db.transaction().execute((trx) => setDefault(trx, caller!.userId, body.id, body.isDefault));
      return { id: body.id, isDefault: body.isDefault };
    },
  });

  ctx.route({
    method: 'DELETE',
    url: '/TM/library/delete',
    access: MANAGE,
    summary: 'Delete a memory with its entries',
    schema: { query: z.object({ id: idSchema }) },
    async handler({ query, caller, headers }) {
      await libraries.assert(caller!, query.id, 'edit', headers);
      for (const check of usage) {
        const reason = await check(query.id);
        if (reason) throw new ApiError(Codes.CONFLICT, say(headers as never, `记忆库正在 CAT 项目中使用：${reason}`, `The memory is in use in a CAT project: ${reason}`));
      }
      await db.transaction().execute(async (trx) => {
        for (const table of ['tm_history', 'tm_entries', 'tm_library_users', 'tm_defaults'] as const) await trx.deleteFrom(table).where('library_id', '=', query.id).execute();
        await trx.deleteFrom('tm_libraries').where('id', '=', query.id).execute();
      });
      return { deleted: 1 };
    },
  });

  // The user picker of the memory dialog: names only, of enabled accounts.
  ctx.route({
    method: 'GET',
    url: '/TM/users',
    access: MANAGE,
    summary: 'Find users to list on a memory',
    schema: { query: z.object({ q: z.string().trim().max(100).default('') }) },
    async handler({ query }) {
      const rows = await sql<{ id: number; username: string; real_name: string | null }>`
        select id, username, real_name from users
        where (username ilike ${like(query.q)} or coalesce(real_name, '') ilike ${like(query.q)})
        order by username limit 20`.execute(db);
      return rows.rows.map((r) => ({ id: r.id, username: r.username, realName: r.real_name }));
    },
  });
}
