import { sql } from 'kysely';
import { z } from 'zod';
import { ApiError, Codes, engineLanguageSchema, iso, like, pageOf, pageOffset, pageQuery, pageSchema, voiceprintService, type Caller, type ServerPluginContext } from '@linguaport/sdk/server';
import { configSchema, engineQuerySchema, enginesAnswerSchema, EXPORT_FORMATS, EXPORT_TRACKS, KEYS, type SessionView, type UtteranceView } from '../shared/schemas.js';
import { checkEngines, checkPair, engineOptions, type ConfigStore } from './config.js';
import { sessionDocx, sessionSrt, sessionTxt } from './export.js';
import { M } from './messages.js';
import type { Db, InterpretationDatabase } from './tables.js';

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const day = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$/).refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)));
const listQuery = z.object({
  ...pageQuery,
  q: z.string().trim().max(200).optional(),
  from: day.optional(),
  to: day.optional(),
  /** Everyone's sessions (needs interpretation:logAll). */
  all: z.enum(['true', 'false']).optional(),
});

// The answers, as the OpenAPI document states them (the tests check real answers against them).
const sessionSchema = z.object({
  id: z.number().int(),
  ownerId: z.number().int(),
  ownerName: z.string().nullable(),
  source: z.string(),
  target: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  status: z.enum(['live', 'ended']),
  utterances: z.number().int(),
  speakers: z.array(z.string()).describe('Enrolled speakers recognised in the session'),
  preview: z.string().describe('The first words heard'),
});
const utteranceSchema = z.object({
  index: z.number().int(),
  start: z.number().describe('Seconds from the session start'),
  end: z.number(),
  text: z.string(),
  translation: z.string(),
  speaker: z.string().nullable(),
  at: z.string().nullable(),
});
const configAnswerSchema = z.object({
  config: configSchema,
  speechLanguages: z.array(z.string()).describe('Languages the speech nodes hear'),
  languages: z.array(engineLanguageSchema),
  voiceprints: z.object({ available: z.boolean(), enrolled: z.boolean().describe("The caller's department has enrolled speakers") }),
  docx: z.boolean().describe('Sessions can be exported as DOCX'),
});

type SessionRow = InterpretationDatabase['si_sessions'] & { id: number };

const may = (caller: Caller, key: string) => caller.isSuperAdmin || caller.permissions.has(key);
const speakersOf = (v: unknown): string[] => (Array.isArray(v) ? v : typeof v === 'string' ? JSON.parse(v) : []) as string[];

function viewOf(r: Record<string, unknown>): SessionView {
  return {
    id: r.id as number,
    ownerId: r.owner_id as number,
    ownerName: (r.owner_name as string) ?? null,
    source: r.source_language as string,
    target: r.target_language as string,
    startedAt: iso(r.started_at),
    endedAt: iso(r.ended_at),
    status: r.status as SessionView['status'],
    utterances: Number(r.utterance_count ?? 0),
    speakers: speakersOf(r.speakers),
    preview: ((r.preview as string | null) ?? '').slice(0, 80),
  };
}

export function interpretationRoutes(ctx: ServerPluginContext, db: Db, configs: ConfigStore) {
  /** The session if the caller may see it (own, or everyone's with logAll); 404 otherwise, whoever owns it. */
  async function visible(caller: Caller, id: number, own = false): Promise<SessionRow> {
    const row = (await db.selectFrom('si_sessions').selectAll().where('id', '=', id).executeTakeFirst()) as SessionRow | undefined;
    if (!row || (row.owner_id !== caller.userId && (own || !may(caller, KEYS.logAll)))) throw new ApiError(Codes.NOT_FOUND, M.notFound);
    return row;
  }
  const utterancesOf = async (id: number): Promise<UtteranceView[]> =>
    (await db.selectFrom('si_utterances').selectAll().where('session_id', '=', id).orderBy('idx').execute()).map((u) => ({
      index: u.idx,
      start: u.start_seconds,
      end: u.end_seconds,
      text: u.source,
      translation: u.target,
      speaker: u.speaker,
      at: iso(u.created_at),
    }));

  ctx.route({
    method: 'GET',
    url: '/interpretation/config',
    access: { anyPermission: [KEYS.use, KEYS.configure] },
    summary: 'The caller\'s interpretation configuration, with the languages the platform hears and translates',
    response: { data: configAnswerSchema },
    async handler({ caller }) {
      const [config, speech, languages] = await Promise.all([configs.get(caller!.userId), ctx.engines.speech.languages().catch(() => [] as string[]), ctx.engines.languages()]);
      const voiceprints = ctx.services.find(voiceprintService);
      const enrolled = voiceprints && caller!.departmentId != null ? await voiceprints.hasSpeakers(caller!.departmentId).catch(() => false) : false;
      return { config, speechLanguages: speech, languages, voiceprints: { available: !!voiceprints, enrolled }, docx: !!ctx.formats.byId('docx') };
    },
  });

  ctx.route({
    method: 'PUT',
    url: '/interpretation/config',
    access: { permission: KEYS.configure },
    summary: 'Save the caller\'s interpretation configuration',
    schema: { body: configSchema },
    response: { data: configSchema },
    async handler({ caller, body }) {
      await checkPair(ctx, body.source, body.target);
      await checkEngines(ctx, body);
      // Memories and term bases the caller may not use are refused now, not in the middle of a live session.
      await ctx.pipeline.checkResources(caller!.userId, { memories: body.memories, termBases: body.termBases });
      await configs.set(caller!.userId, body);
      return configs.get(caller!.userId);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/interpretation/engines',
    access: { anyPermission: [KEYS.use, KEYS.configure] },
    summary: 'The speech nodes that hear a language and the translation engines for a pair (and domain) the configuration may name',
    schema: { query: engineQuerySchema },
    response: { data: enginesAnswerSchema },
    async handler({ query }) {
      return engineOptions(ctx, query.source, query.target, query.domain);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/interpretation/sessions',
    access: { anyPermission: [KEYS.log, KEYS.logAll] },
    summary: 'Interpretation sessions, newest first: own (or everyone\'s), by text heard or translated and by day',
    schema: { query: listQuery },
    response: { data: pageSchema(sessionSchema) },
    async handler({ caller, query }) {
      const everyone = query.all === 'true' && may(caller!, KEYS.logAll);
      let q = db.selectFrom('si_sessions as s');
      if (!everyone) q = q.where('s.owner_id', '=', caller!.userId);
      if (query.from) q = q.where('s.started_at', '>=', new Date(`${query.from}T00:00:00Z`));
      if (query.to) q = q.where('s.started_at', '<', new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000));
      if (query.q) {
        const pattern = like(query.q);
        q = q.where((eb) =>
          eb.or([
            eb('s.owner_name', 'ilike', pattern),
            eb.exists(eb.selectFrom('si_utterances as u').select('u.idx').whereRef('u.session_id', '=', 's.id').where((e) => e.or([e('u.source', 'ilike', pattern), e('u.target', 'ilike', pattern), e('u.speaker', 'ilike', pattern)]))),
          ]),
        );
      }
      const total = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst();
      const rows = await q
        .selectAll('s')
        .select(sql<string | null>`(select string_agg(u.source, ' ' order by u.idx) from (select source, idx from si_utterances where session_id = s.id order by idx limit 3) u)`.as('preview'))
        .orderBy('s.started_at', 'desc')
        .orderBy('s.id', 'desc')
        .limit(query.pageSize)
        .offset(pageOffset(query))
        .execute();
      return pageOf(query, rows.map(viewOf), total?.n);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/interpretation/sessions/:id',
    access: { anyPermission: [KEYS.log, KEYS.logAll] },
    summary: 'One session with its utterances',
    schema: { params: idParams },
    response: { data: z.object({ session: sessionSchema, utterances: z.array(utteranceSchema) }), errors: [Codes.NOT_FOUND] },
    async handler({ caller, params }) {
      const row = await visible(caller!, params.id);
      return { session: viewOf(row as unknown as Record<string, unknown>), utterances: await utterancesOf(row.id) };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/interpretation/sessions/:id/export',
    access: { anyPermission: [KEYS.log, KEYS.logAll] },
    summary: 'A session\'s transcript as TXT, SRT or DOCX (source, translation or both)',
    schema: { params: idParams, query: z.object({ format: z.enum(EXPORT_FORMATS).default('txt'), track: z.enum(EXPORT_TRACKS).default('bilingual') }) },
    response: { envelope: false, contentType: 'application/octet-stream', errors: [Codes.NOT_FOUND] },
    async handler({ caller, params, query }) {
      const row = await visible(caller!, params.id);
      const session = viewOf(row as unknown as Record<string, unknown>);
      const utterances = await utterancesOf(row.id);
      const name = `interpretation-${row.id}-${query.track}`;
      const attachment = (ext: string) => ({ 'content-disposition': `attachment; filename="${name}.${ext}"` });
      if (query.format === 'txt') return { raw: true, contentType: 'text/plain; charset=utf-8', headers: attachment('txt'), body: sessionTxt(session, utterances, query.track) };
      if (query.format === 'srt') return { raw: true, contentType: 'application/x-subrip; charset=utf-8', headers: attachment('srt'), body: sessionSrt(utterances, query.track) };
      const bytes = await sessionDocx(ctx.formats, session, utterances, query.track);
      if (!bytes) throw new ApiError(Codes.BAD_REQUEST, M.noDocx);
      return { raw: true, contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', headers: attachment('docx'), body: Buffer.from(bytes) };
    },
  });

  ctx.route({
    method: 'DELETE',
    url: '/interpretation/sessions/:id',
    access: { permission: KEYS.log },
    summary: 'Delete an own interpretation session',
    schema: { params: idParams },
    response: { data: z.null(), errors: [Codes.NOT_FOUND, Codes.CONFLICT] },
    async handler({ caller, params }) {
      const row = await visible(caller!, params.id, true);
      if (row.status === 'live') throw new ApiError(Codes.CONFLICT, M.stillLive);
      await db.deleteFrom('si_sessions').where('id', '=', row.id).execute();
      return null;
    },
  });
}
