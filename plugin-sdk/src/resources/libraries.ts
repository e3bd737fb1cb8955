import { z } from 'zod';
import { sql, type Kysely } from 'kysely';
import { ApiError, Codes, type Caller, type ServerPluginContext } from '../server/index.js';
import { like, pageOf, pageOffset, pageQuery, pageSchema, say, timestampSchema } from '../server/helpers.js';
import { idSchema } from '../shared/checks.js';

/**
 * Libraries (term bases, memories) and who may use and edit them (spec 02 sections 3, 5 "Library add"
 * and 6). Ownership decides who sees and uses a library:
 *   all        every signed-in member of the platform
 *   department members working in the library's department (the caller's chosen department)
 *   custom     the users listed on the library
 * Listed users carry their own rights (use, edit; at least one each). Edit means adding, changing,
 * reviewing, importing and deleting entries. The creator and super administrators use and edit always.
 * Every route and pipeline hook asks here, per library, on every call.
 *
 * Each area keeps the same five tables in its own namespace (`<prefix>_libraries`, `_library_users`,
 * `_defaults`, `_entries`, `_history`); the kit reads them by that prefix.
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

/** How an area names its library and entries in messages: `{ zh: '术语库', en: 'term base', ... }`. */
export interface LibraryNoun {
  zh: string;
  en: string;
  enPlural: string;
  entryZh: string;
  entryEn: string;
  entriesEn: string;
}

/** The table names of an area's libraries. */
export interface LibraryTableNames {
  libraries: string;
  users: string;
  defaults: string;
  entries: string;
  history: string;
}

export const libraryTables = (prefix: string): LibraryTableNames => ({
  libraries: `${prefix}_libraries`,
  users: `${prefix}_library_users`,
  defaults: `${prefix}_defaults`,
  entries: `${prefix}_entries`,
  history: `${prefix}_history`,
});

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function rightsOf(caller: Caller, lib: LibraryRow, listed: { can_use: boolean; can_edit: boolean } | undefined): LibraryRights {
  if (caller.isSuperAdmin || lib.creator_id === caller.userId) return { use: true, edit: true };
  const edit = !!listed?.can_edit;
  const byOwnership = lib.ownership === 'all' || (lib.ownership === 'department' && lib.department_id !== null && lib.department_id === caller.departmentId);
  return { use: edit || !!listed?.can_use || byOwnership, edit };
}

type Headers = Record<string, unknown>;

/** Who may use and edit an area's libraries. */
export class LibraryAccess {
  readonly tables: LibraryTableNames;

  constructor(
    private readonly db: Kysely<any>,
    prefix: string,
    readonly noun: LibraryNoun,
  ) {
    this.tables = libraryTables(prefix);
  }

  /** The insufficient-permission error of the catalogue, in the request's language. */
  insufficient(headers: Headers): ApiError {
    return new ApiError(Codes.FORBIDDEN, say(headers as never, `权限不足：您不能使用或编辑这个${this.noun.zh}`, `Insufficient permission: you may not use or edit this ${this.noun.en}`));
  }

  /** The libraries the caller may use, with their rights. */
  async usable(caller: Caller): Promise<Map<number, LibraryRights>> {
    const t = this.tables;
    const rows = await this.db
      .selectFrom(`${t.libraries} as l`)
      .leftJoin(`${t.users} as u`, (j) => j.onRef('u.library_id', '=', 'l.id').on('u.user_id', '=', caller.userId))
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
    const lib = await this.db.selectFrom(this.tables.libraries).selectAll().where('id', '=', libraryId).executeTakeFirst();
    if (!lib) return null;
    const listed = await this.db.selectFrom(this.tables.users).select(['can_use', 'can_edit']).where('library_id', '=', libraryId).where('user_id', '=', caller.userId).executeTakeFirst();
    return rightsOf(caller, lib as LibraryRow, listed as { can_use: boolean; can_edit: boolean } | undefined);
  }

  /** 404 for a library that does not exist, 403 with the insufficient-permission message for one the caller may not use (or edit). */
  async assert(caller: Caller, libraryId: number, need: 'use' | 'edit', headers: Headers): Promise<void> {
    const rights = await this.rights(caller, libraryId);
    if (!rights) throw new ApiError(Codes.NOT_FOUND, say(headers as never, `${this.noun.zh} ${libraryId} 不存在`, `${capital(this.noun.en)} ${libraryId} does not exist`));
    if (!rights[need]) throw this.insufficient(headers);
  }

  /**
   * 404 or 403 for the first of these libraries the caller may not use, in both languages (no request at
   * hand: a saved choice checked for later work, a pipeline hook).
   */
  async assertUsable(caller: Caller, ids: readonly (number | string)[]): Promise<void> {
    for (const id of new Set(ids.map(Number))) {
      const rights = await this.rights(caller, id);
      if (!rights) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `${this.noun.zh} ${id} 不存在`, 'en-US': `${capital(this.noun.en)} ${id} does not exist` });
      if (!rights.use) throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': `权限不足：您不能使用${this.noun.zh} ${id}`, 'en-US': `Insufficient permission: you may not use ${this.noun.en} ${id}` });
    }
  }

  /**
   * The libraries a service call (`tm.memories`, `term.bases`) acts on: each named one checked for the
   * right (404, 403 in both languages), else the caller's defaults it may use. The rights are read once
   * for all the named libraries.
   */
  async forService(caller: Caller, named: readonly number[] | undefined, need: 'use' | 'edit'): Promise<number[]> {
    if (!named?.length) return this.defaultsFor(caller);
    const usable = await this.usable(caller);
    const ids = [...new Set(named)];
    for (const id of ids) {
      const rights = usable.get(id);
      if (rights?.[need]) continue;
      // Not usable: the precise refusal (does not exist, or may not use) comes from assertUsable.
      if (!rights) await this.assertUsable(caller, [id]);
      throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': `权限不足：您不能编辑${this.noun.zh} ${id}`, 'en-US': `Insufficient permission: you may not edit ${this.noun.en} ${id}` });
    }
    return ids;
  }

  /** The caller's default libraries among those it may use. */
  async defaultsFor(caller: Caller): Promise<number[]> {
    const usable = await this.usable(caller);
    const rows = await this.db.selectFrom(this.tables.defaults).select('library_id').where('user_id', '=', caller.userId).execute();
    return rows.map((r) => r.library_id as number).filter((id) => usable.has(id));
  }
}

/** Other areas say when a library is theirs to keep (a CAT project uses it): a delete is then refused with their reason. */
export type LibraryUsageCheck = (libraryId: number) => Promise<string | null>;

const userRight = z.object({ userId: idSchema, use: z.boolean().default(false), edit: z.boolean().default(false) }).refine((u) => u.use || u.edit, { message: 'validation.required', path: ['use'] });

export const libraryBody = z.object({
  name: z.string().trim().min(1, 'validation.required').max(100),
  ownership: z.enum(OWNERSHIPS),
  departmentId: idSchema.nullable().optional(),
  kind: z.enum(['personal', 'shared']).default('shared'),
  users: z.array(userRight).max(500),
  isDefault: z.boolean().default(false),
});

/** One library as the list answers it. */
export const librarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  ownership: z.enum(OWNERSHIPS),
  departmentId: z.number().int().nullable(),
  kind: z.enum(['personal', 'shared']),
  creatorId: z.number().int(),
  createdAt: timestampSchema,
  entries: z.number().int().min(0),
  isDefault: z.boolean().describe("The caller's default"),
  mayEdit: z.boolean().describe('Whether the caller may edit its entries'),
  users: z.array(z.object({ userId: z.number().int(), use: z.boolean(), edit: z.boolean() })),
});

/** A user as the pickers find one. */
export const userNameSchema = z.object({ id: z.number().int(), username: z.string(), realName: z.string().nullable() });

export interface LibraryRouteOptions {
  ctx: ServerPluginContext;
  db: Kysely<any>;
  access: LibraryAccess;
  usage: LibraryUsageCheck[];
  /** `/TM`, `/term`: the library routes are `<routes>/library/...` and `<routes>/users`. */
  routes: string;
  keys: { view: string; manage: string };
}

export function libraryRoutes({ ctx, db, access, usage, routes, keys }: LibraryRouteOptions) {
  const VIEW = { permission: keys.view } as const;
  const MANAGE = { permission: keys.manage } as const;
  const t = access.tables;
  const noun = access.noun;

  const saveUsers = async (trx: Kysely<any>, libraryId: number, users: z.infer<typeof userRight>[]) => {
    await trx.deleteFrom(t.users).where('library_id', '=', libraryId).execute();
    const unique = new Map(users.map((u) => [u.userId, u]));
    if (unique.size) await trx.insertInto(t.users).values([...unique.values()].map((u) => ({ library_id: libraryId, user_id: u.userId, can_use: u.use, can_edit: u.edit }))).execute();
  };
  const setDefault = async (trx: Kysely<any>, userId: number, libraryId: number, on: boolean) => {
    await trx.deleteFrom(t.defaults).where('user_id', '=', userId).where((eb) => (on ? eb.val(true) : eb('library_id', '=', libraryId))).execute();
    if (on) await trx.insertInto(t.defaults).values({ user_id: userId, library_id: libraryId }).execute();
  };
  /**
   * The body's rules; returns the department a department-shared library goes to. A caller shares with
   * its own departments only (those it holds a role in), as the kernel's grant rule has it; the super
   * administrator with any. A library's department left as it was is no new assignment.
   */
  const checkBody = async (b: z.infer<typeof libraryBody>, caller: Caller, headers: Headers, current: number | null = null): Promise<number | null> => {
    if (b.ownership === 'custom' && b.users.length === 0) throw new ApiError(Codes.BAD_REQUEST, say(headers as never, `自定义用户共享的${noun.zh}至少需要一个用户`, `A custom-user ${noun.en} needs at least one user`));
    if (b.ownership !== 'department') return null;
    const department = b.departmentId ?? caller.departmentId;
    if (!department) throw new ApiError(Codes.BAD_REQUEST, say(headers as never, `部门共享的${noun.zh}需要一个部门`, `A department-shared ${noun.en} needs a department`));
    if (department === current || department === caller.departmentId || caller.isSuperAdmin) return department;
    const member = await ctx.users.membership(caller.userId);
    if (!member?.isSuperAdmin && !member?.departmentIds.includes(department)) {
      throw new ApiError(Codes.FORBIDDEN, say(headers as never, `不能将${noun.zh}共享给部门 ${department}：您不属于该部门`, `You cannot share a ${noun.en} with department ${department}: you do not belong to it`));
    }
    return department;
  };

  ctx.route({
    method: 'GET',
    url: `${routes}/library/list`,
    access: VIEW,
    summary: `List the ${noun.enPlural} the caller may use`,
    schema: { query: z.object({ ...pageQuery, name: z.string().trim().max(100).optional() }) },
    response: { data: pageSchema(librarySchema) },
    async handler({ query, caller }) {
      const usable = await access.usable(caller!);
      const ids = [...usable.keys()];
      if (!ids.length) return pageOf(query, [], 0);
      let q = db.selectFrom(t.libraries).where('id', 'in', ids);
      if (query.name) q = q.where('name', 'ilike', like(query.name));
      const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .selectAll()
        .select((eb) => eb.selectFrom(t.entries).whereRef(`${t.entries}.library_id`, '=', `${t.libraries}.id`).select(eb.fn.countAll().as('c')).as('entry_count'))
        .orderBy('id', 'desc')
        .limit(query.pageSize)
        .offset(pageOffset(query))
        .execute();
      const defaults = new Set((await db.selectFrom(t.defaults).select('library_id').where('user_id', '=', caller!.userId).execute()).map((r) => r.library_id as number));
      const listed = await db.selectFrom(t.users).selectAll().where('library_id', 'in', rows.map((r) => r.id)).execute();
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
    url: `${routes}/library/add`,
    access: MANAGE,
    summary: `Add a ${noun.en}`,
    schema: { body: libraryBody },
    response: { data: z.object({ id: z.number().int() }) },
    async handler({ body, caller, headers }) {
      const department = await checkBody(body, caller!, headers);
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto(t.libraries)
          .values({ name: body.name, ownership: body.ownership, department_id: department, kind: body.kind, creator_id: caller!.userId })
          .returning('id')
          .executeTakeFirstOrThrow();
        await saveUsers(trx, row.id, body.users);
        if (body.isDefault) await setDefault(trx, caller!.userId, row.id, true);
        return { id: row.id as number };
      });
    },
  });

  ctx.route({
    method: 'PUT',
    url: `${routes}/library/update`,
    access: MANAGE,
    summary: `Change a ${noun.en}`,
    schema: { body: libraryBody.extend({ id: idSchema }) },
    response: { data: z.object({ id: z.number().int() }), errors: [404] },
    async handler({ body, caller, headers }) {
      await access.assert(caller!, body.id, 'edit', headers);
      const current = await db.selectFrom(t.libraries).select('department_id').where('id', '=', body.id).executeTakeFirst();
      const department = await checkBody(body, caller!, headers, (current?.department_id as number | null) ?? null);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable(t.libraries)
          .set({ name: body.name, ownership: body.ownership, department_id: department, kind: body.kind })
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
    url: `${routes}/library/default`,
    access: VIEW,
    summary: `Make a ${noun.en} the caller's default (or not)`,
    schema: { body: z.object({ id: idSchema, isDefault: z.boolean() }) },
    response: { data: z.object({ id: z.number().int(), isDefault: z.boolean() }), errors: [404] },
    async handler({ body, caller, headers }) {
      await access.assert(caller!, body.id, 'use', headers);
      await db.transaction().execute((trx) => setDefault(trx, caller!.userId, body.id, body.isDefault));
      return { id: body.id, isDefault: body.isDefault };
    },
  });

  ctx.route({
    method: 'DELETE',
    url: `${routes}/library/delete`,
    access: MANAGE,
    summary: `Delete a ${noun.en} with its entries`,
    schema: { query: z.object({ id: idSchema }) },
    response: { data: z.object({ deleted: z.number().int() }), errors: [404, 409] },
    async handler({ query, caller, headers }) {
      await access.assert(caller!, query.id, 'edit', headers);
      for (const check of usage) {
        const reason = await check(query.id);
        if (reason) throw new ApiError(Codes.CONFLICT, say(headers as never, `${noun.zh}正在 CAT 项目中使用：${reason}`, `The ${noun.en} is in use in a CAT project: ${reason}`));
      }
      await db.transaction().execute(async (trx) => {
        for (const table of [t.history, t.entries, t.users, t.defaults]) await trx.deleteFrom(table).where('library_id', '=', query.id).execute();
        await trx.deleteFrom(t.libraries).where('id', '=', query.id).execute();
      });
      return { deleted: 1 };
    },
  });

  // The user picker of the library dialog: names only, of enabled accounts.
  ctx.route({
    method: 'GET',
    url: `${routes}/users`,
    access: MANAGE,
    summary: `Find users to list on a ${noun.en}`,
    schema: { query: z.object({ q: z.string().trim().max(100).default('') }) },
    response: { data: z.array(userNameSchema) },
    handler: ({ query }) => ctx.users.find(query.q, 20),
  });
}

/**
 * The migration step that creates an area's libraries, their users, defaults and history (entries
 * are the area's own: their columns differ). For a new area; the memory area's tables predate it.
 */
export async function createLibraryTables(db: Kysely<any>, prefix: string): Promise<void> {
  const t = libraryTables(prefix);
  await db.schema
    .createTable(t.libraries)
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('ownership', 'text', (c) => c.notNull().check(sql`ownership in ('all', 'department', 'custom')`))
    .addColumn('department_id', 'integer')
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('personal', 'shared')`))
    .addColumn('creator_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable(t.users)
    .addColumn('library_id', 'integer', (c) => c.notNull().references(`${t.libraries}.id`).onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('can_use', 'boolean', (c) => c.notNull())
    .addColumn('can_edit', 'boolean', (c) => c.notNull())
    .addPrimaryKeyConstraint(`${t.users}_pk`, ['library_id', 'user_id'])
    .execute();
  await db.schema
    .createTable(t.defaults)
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('library_id', 'integer', (c) => c.notNull().references(`${t.libraries}.id`).onDelete('cascade'))
    .addPrimaryKeyConstraint(`${t.defaults}_pk`, ['user_id', 'library_id'])
    .execute();
  await db.schema
    .createTable(t.history)
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('library_id', 'integer', (c) => c.notNull())
    .addColumn('entry_id', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .execute();
  await db.schema.createIndex(`${t.history}_library`).on(t.history).columns(['library_id', 'id']).execute();
}
