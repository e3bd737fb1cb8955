import { z } from 'zod';
import { sql, type Generated, type Kysely } from 'kysely';
import { ApiError, defineServerPlugin, detectedLanguageSchema, engineLanguageSchema, requestLocale, translatedSegmentSchema, type NoEngineForSource } from '@linguaport/sdk/server';
import { DEFAULT_TEXT_TRANSLATION_CAP, idNumberSchema, idSchema } from '@linguaport/sdk/shared';

/**
 * Text translation (/transText): the console's translate call goes through `ctx.engines`, the
 * same service as the public API, counted on the `text` channel; each translation is kept in
 * the user's history (this area's table `trans_text_history`), which the user may edit.
 */
const USE = { permission: 'transText:use' } as const;
const HISTORY_KEEP = 50;

// The answers, as the OpenAPI document states them (the tests check real answers against them).
const setup = z.object({
  languages: z.array(engineLanguageSchema),
  defaultSource: z.string().nullable(),
  defaultTarget: z.string().nullable(),
  cap: z.number().int().describe('Most characters one translation may hold'),
});
const translated = z.object({
  id: z.number().int().describe('The history entry'),
  text: z.string(),
  source: z.string().describe('The source language used (the detected one for auto)'),
  target: z.string(),
  detected: detectedLanguageSchema.nullable(),
  characters: z.number().int(),
  segments: z.array(translatedSegmentSchema),
});
const historyEntry = z.object({ id: z.number().int(), source: z.string(), target: z.string(), sourceText: z.string(), targetText: z.string(), createdAt: z.string() });

/** This area's own table: the newest translations of each user. */
interface HistoryTables {
  trans_text_history: {
    id: Generated<number>;
    user_id: number;
    source_language: string;
    target_language: string;
    source_text: string;
    target_text: string;
    created_at: Generated<Date>;
  };
}

export default defineServerPlugin<HistoryTables>({
  migrations: [
    {
      // The history was the kernel's `translation_history` until this area owned it: a database made
      // before keeps its rows under the new name; a new one gets the table here.
      name: '001_history',
      async up(db) {
        await sql`alter table if exists translation_history rename to trans_text_history`.execute(db);
        await sql`create table if not exists trans_text_history (
          id serial primary key,
          user_id integer not null,
          source_language text not null,
          target_language text not null,
          source_text text not null,
          target_text text not null,
          created_at timestamptz not null default now())`.execute(db);
        await sql`alter index if exists translation_history_user_idx rename to trans_text_history_user_idx`.execute(db);
        await sql`create index if not exists trans_text_history_user_idx on trans_text_history (user_id, id desc)`.execute(db);
      },
    },
  ],
  setup(ctx) {
    const db = ctx.db;

    ctx.route({
      method: 'GET',
      url: '/transText/languages',
      apiKey: 'translate',
      access: USE,
      summary: 'Get the languages and limits of text translation',
      response: { data: setup },
      async handler() {
        const [languages, defaultSource, defaultTarget, cap] = await Promise.all([
          ctx.engines.languages(),
          ctx.settings.get('DEFAULT_SOURCE_LANGUAGE'),
          ctx.settings.get('DEFAULT_TARGET_LANGUAGE'),
          ctx.settings.get('TEXT_TRANSLATION_CAP'),
        ]);
        return { languages, defaultSource, defaultTarget, cap: Number(cap) > 0 ? Number(cap) : DEFAULT_TEXT_TRANSLATION_CAP };
      },
    });

    ctx.route({
      method: 'POST',
      url: '/transText/translate',
      apiKey: 'translate',
      // Using a service changes no administered data: kept out of the operation log.
      log: false,
      access: USE,
      summary: 'Translate text',
      schema: {
        body: z.object({
          text: z.string().refine((s) => s.trim() !== '', 'Source text is required'),
          source: z.string().min(2),
          target: z.string().min(2),
          domain: z.string().max(100).optional(),
          /** The memories and term bases to use (their areas check the caller may); the caller's defaults when absent. */
          resources: z.object({ memories: z.array(idNumberSchema).max(20).optional(), termBases: z.array(idNumberSchema).max(20).optional() }).optional(),
        }),
      },
      response: { data: translated, errors: [429, 503] },
      async handler({ body, caller, headers }) {
        const r = await ctx.engines
          .translate({ text: body.text, source: body.source, target: body.target, domain: body.domain, callerId: caller!.userId, channel: 'text', resources: body.resources ?? {} })
          .catch((err: unknown) => {
            throw noEngineInLocale(err, headers);
          });
        const row = await db
          .insertInto('trans_text_history')
          .values({ user_id: caller!.userId, source_language: r.source, target_language: r.target, source_text: body.text, target_text: r.text })
          .returning('id')
          .executeTakeFirstOrThrow();
        // Keep the newest few per user.
        await db
          .deleteFrom('trans_text_history')
          .where('user_id', '=', caller!.userId)
          .where('id', 'not in', db.selectFrom('trans_text_history').select('id').where('user_id', '=', caller!.userId).orderBy('id', 'desc').limit(HISTORY_KEEP))
          .execute();
        // Each sentence with where its translation came from (an engine, a memory's exact match) and the issues the hooks found.
        return { id: row.id, text: r.text, source: r.source, target: r.target, detected: r.detected ?? null, characters: r.characters, segments: r.segments ?? [] };
      },
    });

    ctx.route({
      method: 'POST',
      url: '/transText/detect',
      apiKey: 'translate',
      // Using a service changes no administered data: kept out of the operation log.
      log: false,
      access: USE,
      summary: 'Detect the language of a text',
      schema: { body: z.object({ text: z.string() }) },
      response: { data: detectedLanguageSchema },
      async handler({ body }) {
        return ctx.engines.detect(body.text);
      },
    });

    ctx.route({
      method: 'GET',
      url: '/transText/history',
      apiKey: 'history',
      access: USE,
      summary: 'List own translation history',
      schema: { query: z.object({ limit: z.coerce.number().int().positive().max(HISTORY_KEEP).default(20) }) },
      response: { data: z.array(historyEntry) },
      async handler({ query, caller }) {
        const rows = await db.selectFrom('trans_text_history').selectAll().where('user_id', '=', caller!.userId).orderBy('id', 'desc').limit(query.limit).execute();
        return rows.map((r) => ({ id: r.id, source: r.source_language, target: r.target_language, sourceText: r.source_text, targetText: r.target_text, createdAt: new Date(r.created_at).toISOString() }));
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/transText/history/:id',
      apiKey: 'history',
      access: USE,
      summary: 'Edit translation',
      schema: { params: z.object({ id: idSchema }), body: z.object({ targetText: z.string().refine((s) => s.trim() !== '', 'An edit needs a translation') }) },
      response: { data: z.object({ id: z.number().int(), targetText: z.string() }), errors: [404] },
      async handler({ params, body, caller }) {
        const res = await db.updateTable('trans_text_history').set({ target_text: body.targetText }).where('id', '=', params.id).where('user_id', '=', caller!.userId).executeTakeFirst();
        if (Number(res.numUpdatedRows) === 0) throw new ApiError(404, { 'zh-CN': `您的历史记录中没有译文 ${params.id}`, 'en-US': `No translation ${params.id} in your history` });
        return { id: params.id, targetText: body.targetText };
      },
    });
  },
});

/** "No engine translates from German" in the request's language, the language named in it too; other errors as they are. */
function noEngineInLocale(err: unknown, headers: Parameters<typeof requestLocale>[0]): unknown {
  const data = (err as ApiError | null)?.data as NoEngineForSource | null | undefined;
  if (!(err instanceof Error) || err.name !== 'ApiError' || data?.reason !== 'noEngineForSource') return err;
  const locale = requestLocale(headers);
  let name = data.language;
  try {
    name = new Intl.DisplayNames([locale], { type: 'language' }).of(data.language) ?? name;
  } catch {
    // An odd code: named as it is.
  }
  return new ApiError(400, locale === 'en-US' ? `No engine translates from ${name}` : `没有引擎能从${name}翻译`, data);
}
