import { createHash } from 'node:crypto';
import { sql, type ColumnType, type Generated, type Selectable } from 'kysely';
import { z } from 'zod';
import { ApiError, Codes, defineServerPlugin, like, pageOf, pageOffset, pageQuery, pageSchema, timestampSchema, type Caller, uploadedFileSchema } from '@linguaport/sdk/server';
import { idSchema } from '@linguaport/sdk/shared';
import { FEEDBACK_TYPES, MAX_SCREENSHOT_BYTES, feedbackSchema, replySchema } from '../shared/schemas.js';

/** Screenshot types, recognised by their first bytes (the declared type is not trusted). */
const IMAGE_TYPES = [
  { ext: 'png', mime: 'image/png', matches: (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { ext: 'jpg', mime: 'image/jpeg', matches: (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { ext: 'gif', mime: 'image/gif', matches: (b: Buffer) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  { ext: 'webp', mime: 'image/webp', matches: (b: Buffer) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
];


/** The feedback area's own table, typed for Kysely. */
interface FeedbackDatabase {
  feedback: {
    id: Generated<number>;
    reporter_id: number;
    reporter_name: string;
    department_id: number | null;
    type: string;
    content: string;
    screenshot_key: string | null;
    reply: string | null;
    replier_id: number | null;
    replier_name: string | null;
    replied_at: Date | null;
    created_at: ColumnType<Date, never, never>;
  };
}
type FeedbackRow = Selectable<FeedbackDatabase['feedback']>;

/** One feedback as the lists answer it (`present`). */
const feedbackAnswer = z.object({
  id: z.number().int(),
  reporterId: z.number().int(),
  reporterName: z.string(),
  type: z.enum(FEEDBACK_TYPES),
  content: z.string(),
  hasScreenshot: z.boolean(),
  reply: z.string().nullable(),
  replierName: z.string().nullable(),
  repliedAt: timestampSchema.nullable(),
  createdAt: timestampSchema,
});

const present = (r: FeedbackRow) => ({
  id: r.id,
  reporterId: r.reporter_id,
  reporterName: r.reporter_name,
  type: r.type,
  content: r.content,
  hasScreenshot: r.screenshot_key !== null,
  reply: r.reply,
  replierName: r.replier_name,
  repliedAt: r.replied_at ? new Date(r.replied_at).toISOString() : null,
  createdAt: new Date(r.created_at).toISOString(),
});

/** Feedback from users, handled by managers; a reply reaches the reporter as a live `feedback` message. */
export default defineServerPlugin<FeedbackDatabase>({
  migrations: [
    {
      name: '001_create_feedback',
      async up(db) {
        await db.schema
          .createTable('feedback')
          .addColumn('id', 'serial', (c) => c.primaryKey())
          .addColumn('reporter_id', 'integer', (c) => c.notNull())
          .addColumn('reporter_name', 'text', (c) => c.notNull())
          .addColumn('department_id', 'integer')
          .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('system', 'internal')`))
          .addColumn('content', 'text', (c) => c.notNull())
          .addColumn('screenshot_key', 'text')
          .addColumn('reply', 'text')
          .addColumn('replier_id', 'integer')
          .addColumn('replier_name', 'text')
          .addColumn('replied_at', 'timestamptz')
          .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
          .execute();
        await db.schema.createIndex('feedback_reporter_idx').on('feedback').columns(['reporter_id', 'created_at']).execute();
      },
    },
  ],

  setup(ctx) {
    const canSeeAll = (caller: Caller | null) => ctx.auth.can(caller, 'feedback:view') || ctx.auth.can(caller, 'feedback:reply');

    ctx.route({
      method: 'POST',
      url: '/feedback/add',
      access: { permission: 'feedback:submit' },
      module: 'feedback',
      summary: 'Send feedback',
      upload: { maxBytes: MAX_SCREENSHOT_BYTES + 1024 },
      // JSON, or multipart with an optional `screenshot` file part.
      schema: { body: feedbackSchema.extend({ screenshot: uploadedFileSchema.optional() }) },
      response: { data: z.object({ id: z.number().int() }) },
      async handler({ body, caller }) {
        let screenshotKey: string | null = null;
        if (body.screenshot) {
          const data = body.screenshot.data;
          if (data.length === 0) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': 'screenshot: 文件为空', 'en-US': 'screenshot: the file is empty' });
          if (data.length >= MAX_SCREENSHOT_BYTES) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `screenshot: 图片大小为 ${data.length} 字节，必须小于 2 MB`, 'en-US': `screenshot: the image is ${data.length} bytes; it must be under 2 MB` });
          const type = IMAGE_TYPES.find((t) => t.matches(data));
          if (!type) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': 'screenshot: 图片必须是 PNG、JPEG、GIF 或 WebP', 'en-US': 'screenshot: the image must be PNG, JPEG, GIF or WebP' });
          screenshotKey = `screenshots/${createHash('sha256').update(data).digest('hex').slice(0, 24)}.${type.ext}`;
          await ctx.storage.put(screenshotKey, data);
        }
        const row = await ctx.db
          .insertInto('feedback')
          .values({ reporter_id: caller!.userId, reporter_name: caller!.username, department_id: caller!.departmentId, type: body.type, content: body.content, screenshot_key: screenshotKey })
          .returning('id')
          .executeTakeFirstOrThrow();
        // Managers on the list page see it arrive.
        await ctx.bus.publish({ type: 'feedback.created', payload: { id: row.id }, audience: { permission: 'feedback:view' } });
        return { id: row.id };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/feedback/mine',
      access: 'signed-in',
      summary: 'List own feedback',
      schema: { query: z.object(pageQuery) },
      response: { data: pageSchema(feedbackAnswer) },
      async handler({ query, caller }) {
        const q = ctx.db.selectFrom('feedback').where('reporter_id', '=', caller!.userId);
        const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
        const rows = (await q.selectAll().orderBy('id', 'desc').limit(query.pageSize).offset(pageOffset(query)).execute());
        return pageOf(query, rows.map(present), total.n);
      },
    });

    ctx.route({
      method: 'GET',
      url: '/feedback/page',
      access: { anyPermission: ['feedback:view', 'feedback:reply'] },
      summary: 'List all feedback by page',
      schema: {
        query: z.object({
          ...pageQuery,
          type: z.enum(FEEDBACK_TYPES).optional(),
          status: z.enum(['replied', 'open']).optional(),
          keyword: z.string().trim().optional(),
          reporter: z.string().trim().optional(),
          from: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
          to: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
        }),
      },
      response: { data: pageSchema(feedbackAnswer) },
      async handler({ query }) {
        let q = ctx.db.selectFrom('feedback');
        if (query.type) q = q.where('type', '=', query.type);
        if (query.status) q = q.where('reply', query.status === 'replied' ? 'is not' : 'is', null);
        if (query.keyword) q = q.where('content', 'ilike', like(query.keyword));
        if (query.reporter) q = q.where('reporter_name', 'ilike', like(query.reporter));
        if (query.from) q = q.where('created_at', '>=', new Date(query.from));
        // A bare date as the end means the whole day.
        if (query.to) q = q.where('created_at', '<', /^\d{4}-\d{2}-\d{2}$/.test(query.to) ? new Date(new Date(query.to).getTime() + 86_400_000) : new Date(query.to));
        const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
        const rows = (await q.selectAll().orderBy('id', 'desc').limit(query.pageSize).offset(pageOffset(query)).execute());
        return pageOf(query, rows.map(present), total.n);
      },
    });

    ctx.route({
      method: 'GET',
      url: '/feedback/screenshot/:id',
      access: 'signed-in',
      summary: 'Get a feedback screenshot',
      schema: { params: z.object({ id: idSchema }) },
      response: { envelope: false, contentType: 'image/*', errors: [404] },
      async handler({ params, caller }) {
        const row = await ctx.db.selectFrom('feedback').select(['reporter_id', 'screenshot_key']).where('id', '=', params.id).executeTakeFirst();
        // The reporter and the managers may see it; to anyone else it does not exist.
        if (!row || !row.screenshot_key || (row.reporter_id !== caller!.userId && !canSeeAll(caller))) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `反馈 ${params.id} 没有截图`, 'en-US': `No screenshot for feedback ${params.id}` });
        const type = IMAGE_TYPES.find((t) => row.screenshot_key!.endsWith(`.${t.ext}`))!;
        return { raw: true as const, contentType: type.mime, body: await ctx.storage.get(row.screenshot_key), headers: { 'cache-control': 'private, max-age=3600', 'x-content-type-options': 'nosniff' } };
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/feedback/reply',
      access: { permission: 'feedback:reply' },
      module: 'feedback',
      summary: 'Reply to feedback',
      schema: { body: replySchema },
      response: { data: z.null(), errors: [404] },
      async handler({ body, caller }) {
        const row = await ctx.db.selectFrom('feedback').select(['reporter_id', 'department_id', 'content']).where('id', '=', body.id).executeTakeFirst();
        if (!row) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `反馈 ${body.id} 不存在`, 'en-US': `feedback ${body.id} does not exist` });
        await ctx.db
          .updateTable('feedback')
          .set({ reply: body.reply, replier_id: caller!.userId, replier_name: caller!.username, replied_at: new Date() })
          .where('id', '=', body.id)
          .execute();
        const excerpt = row.content.length > 35 ? `${row.content.slice(0, 35)}...` : row.content;
        await ctx.messages.send({ userIds: [row.reporter_id], type: 'feedback', departmentId: row.department_id, content: `「${excerpt}」: ${body.reply}` });
        return null;
      },
    });
  },
});
