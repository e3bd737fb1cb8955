import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { ApiError, Codes, pageOf, pageOffset, pageQuery, pageSchema, timestampSchema, type EventBus, type MessageCenter, type MessageType, type RouteDefinition } from '@linguaport/sdk/server';
import { idSchema, MAX_ID } from '@linguaport/sdk/shared';
import { localeOf } from '../http/locale.js';
import type { DeclaredList } from '../plugins/declared-lists.js';
import type { KernelTables } from '../db/schema.js';

/**
 * The message centre (spec 01 section 7.4, spec 02 section 3 Message): per-user messages, read
 * state, paging and delete; each new message is pushed live to its recipient as `message.created`.
 * A caller only ever sees and changes their own messages.
 */

/** The message types: the kernel's and those the enabled plugins declare (`messageTypes` in plugin.json). */
export type MessageTypes = DeclaredList;

export const MESSAGE_CREATED = 'message.created';
/** Sent to the owner after a read or delete, so other open tabs refresh their unread dot. */
export const MESSAGES_CHANGED = 'messages.changed';

interface MessageRow {
  id: number;
  user_id: number;
  department_id: number | null;
  type: MessageType;
  content: string;
  /** Both languages of a message the platform wrote (null: user text, `content` as written). */
  content_zh: string | null;
  content_en: string | null;
  is_read: boolean;
  created_at: Date | string;
}

const messageSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  departmentId: z.number().int().nullable(),
  type: z.string().describe('One of /messageRemind/types'),
  typeName: z.string().describe("The type's name in the request's language"),
  content: z.string(),
  isRead: z.boolean(),
  createTime: timestampSchema,
});
/** Counts after a change, with the caller's unread count for the shell's dot. */
const unreadAfter = (field: 'updated' | 'deleted') => z.object({ [field]: z.number().int(), unread: z.number().int() });

function present(row: MessageRow, zh: boolean, types: MessageTypes) {
  const t = types.words.find((x) => x.word === row.type);
  return {
    id: row.id,
    userId: row.user_id,
    departmentId: row.department_id,
    type: row.type,
    typeName: t ? t.name[zh ? 'zh-CN' : 'en-US'] : row.type,
    content: (zh ? row.content_zh : row.content_en) ?? row.content,
    isRead: row.is_read,
    createTime: new Date(row.created_at).toISOString(),
  };
}

/**
 * The message centre; `forPlugin` gives a plugin the one that sends only the kernel's types and those
 * its own manifest declares.
 */
export function createMessageCenter(db: Kysely<KernelTables>, bus: EventBus, now: () => Date, types: MessageTypes): MessageCenter & { forPlugin(pluginId: string): MessageCenter } {
  const center = (allowed: ReadonlySet<string>): MessageCenter => ({
    async send({ userIds, type, content: given, departmentId = null }) {
      const localized = typeof given === 'string' ? null : given;
      // `content` keeps the English text: what a reader with neither language column gets.
      const content = localized ? localized['en-US'] : (given as string);
      if (!allowed.has(type)) {
        const values = [...allowed].join(', ');
        throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `无效的消息类型 ${type}；可选值：${values}`, 'en-US': `Invalid message type ${type}; one of ${values}` });
      }
      if (!content.trim() || (localized && !localized['zh-CN'].trim())) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': '消息内容不能为空', 'en-US': 'A message needs content' });
      const recipients = [...new Set(userIds)];
      if (recipients.length === 0) return;
      const known = new Set((await db.selectFrom('users').select('id').where('id', 'in', recipients).execute()).map((r) => r.id as number));
      const unknown = recipients.filter((id) => !known.has(id));
      if (unknown.length) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `请求无效：userIds: 不存在编号为 ${unknown.join(', ')} 的用户`, 'en-US': `Invalid request: userIds: no user with id ${unknown.join(', ')}` });
      const at = now();
      const rows: MessageRow[] = await db
        .insertInto('messages')
        .values(recipients.map((user_id) => ({ user_id, department_id: departmentId, type, content, content_zh: localized?.['zh-CN'] ?? null, content_en: localized?.['en-US'] ?? null, created_at: at })))
        .returningAll()
        .$castTo<MessageRow>()
        .execute();
      // One event per recipient: each socket only receives its own message.
      for (const row of rows) {
        await bus.publish({ type: MESSAGE_CREATED, payload: present(row, false, types), audience: { userIds: [row.user_id] } });
      }
    },
  });
  return { ...center(new Set(types.words.map((t) => t.word))), forPlugin: (pluginId) => center(types.usableBy(pluginId)) };
}

const flag = z.union([z.boolean(), z.enum(['true', 'false', '0', '1'])]).transform((v) => v === true || v === 'true' || v === '1');
const idList = z
  .union([z.string(), z.array(z.union([z.string(), z.number()]))])
  .transform((v, ctx) => {
    const parts = (Array.isArray(v) ? v.map(String) : v.split(',')).map((s) => s.trim()).filter(Boolean);
    const ids = parts.map(Number);
    if (ids.length === 0 || ids.some((n) => !Number.isInteger(n) || n <= 0 || n > MAX_ID)) {
      ctx.addIssue({ code: 'custom', message: 'ids must be positive integers separated by commas' });
      return z.NEVER;
    }
    return ids;
  });

export function messageRoutes(db: Kysely<KernelTables>, bus: EventBus, types: MessageTypes): RouteDefinition[] {
  const changed = (userId: number) => bus.publish({ type: MESSAGES_CHANGED, payload: { userId }, audience: { userIds: [userId] } });
  const unread = async (userId: number) =>
    Number((await db.selectFrom('messages').select(sql<number>`count(*)`.as('n')).where('user_id', '=', userId).where('is_read', '=', false).executeTakeFirstOrThrow()).n);

  return [
    {
      method: 'GET',
      url: '/messageRemind/messages',
      access: 'signed-in',
      summary: 'List own messages',
      response: { data: z.array(messageSchema) },
      schema: { query: z.object({ isRead: flag.optional(), userId: idSchema.optional(), departmentId: idSchema.optional() }) },
      async handler({ caller, query, headers }) {
        if (query.userId !== undefined && query.userId !== caller!.userId) throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': '无权限：您只能读取自己的消息', 'en-US': 'Permission denied: you can only read your own messages' });
        let q = db.selectFrom('messages').selectAll().$castTo<MessageRow>().where('user_id', '=', caller!.userId);
        if (query.isRead !== undefined) q = q.where('is_read', '=', query.isRead);
        // A department's list also shows the messages that belong to no department.
        if (query.departmentId !== undefined) q = q.where((eb) => eb.or([eb('department_id', '=', query.departmentId!), eb('department_id', 'is', null)]));
        const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(500).execute();
        const zh = localeOf(headers) === 'zh-CN';
        return rows.map((r) => present(r, zh, types));
      },
    },
    {
      method: 'GET',
      url: '/messageRemind/messagesByPage',
      access: 'signed-in',
      summary: 'List own messages by page',
      schema: {
        query: z.object({
          ...pageQuery,
          type: z.enum(types.words.map((t) => t.word) as [string, ...string[]]).optional(),
          isRead: flag.optional(),
        }),
      },
      response: { data: pageSchema(messageSchema) },
      async handler({ caller, query, headers }) {
        let q = db.selectFrom('messages').where('user_id', '=', caller!.userId);
        if (query.type) q = q.where('type', '=', query.type);
        if (query.isRead !== undefined) q = q.where('is_read', '=', query.isRead);
        const [{ n }, rows] = await Promise.all([
          q.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
          q.selectAll().$castTo<MessageRow>().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.pageSize).offset(pageOffset(query)).execute(),
        ]);
        const zh = localeOf(headers) === 'zh-CN';
        return pageOf(query, rows.map((r) => present(r, zh, types)), n);
      },
    },
    {
      method: 'GET',
      url: '/messageRemind/types',
      access: 'signed-in',
      summary: 'List message types',
      response: { data: z.array(z.object({ type: z.string(), name: z.string(), nameZh: z.string(), nameEn: z.string() })) },
      handler: ({ headers }) => {
        const zh = localeOf(headers) === 'zh-CN';
        return types.words.map((t) => ({ type: t.word, name: t.name[zh ? 'zh-CN' : 'en-US'], nameZh: t.name['zh-CN'], nameEn: t.name['en-US'] }));
      },
    },
    {
      method: 'GET',
      url: '/messageRemind/unreadCount',
      access: 'signed-in',
      summary: 'Count own unread messages',
      response: { data: z.number().int() },
      handler: ({ caller }) => unread(caller!.userId),
    },
    {
      method: 'PUT',
      url: '/messageRemind/updateMessages',
      access: 'signed-in',
      summary: 'Mark messages read',
      response: { data: unreadAfter('updated') },
      schema: {
        body: z
          .object({ ids: idList.optional(), all: z.literal(true).optional() })
          .refine((b) => b.all || b.ids, { message: 'give ids (the messages to mark read) or all: true' }),
      },
      async handler({ caller, body }) {
        let q = db.updateTable('messages').set({ is_read: true }).where('user_id', '=', caller!.userId).where('is_read', '=', false);
        if (!body.all) q = q.where('id', 'in', body.ids!);
        const result = await q.executeTakeFirst();
        const updated = Number(result.numUpdatedRows);
        if (updated) await changed(caller!.userId);
        return { updated, unread: await unread(caller!.userId) };
      },
    },
    {
      method: 'DELETE',
      url: '/messageRemind/delete',
      access: 'signed-in',
      summary: 'Delete messages',
      response: { data: unreadAfter('deleted') },
      schema: { query: z.object({ ids: idList }) },
      async handler({ caller, query }) {
        // Someone else's ids are simply not matched: the caller learns nothing about them.
        const result = await db.deleteFrom('messages').where('user_id', '=', caller!.userId).where('id', 'in', query.ids).executeTakeFirst();
        const deleted = Number(result.numDeletedRows);
        if (deleted) await changed(caller!.userId);
        return { deleted, unread: await unread(caller!.userId) };
      },
    },
  ];
}
