import { z } from 'zod';
import type { Kysely } from 'kysely';
import { ApiError, Codes, iso, like, pageOf, pageOffset, pageQuery, pageSchema, requestLocale, say, type Caller, type ServerPluginContext, uploadedFilesSchema, type UploadedFile } from '@linguaport/sdk/server';
import { idSchema } from '@linguaport/sdk/shared';
import { identifyAnswerSchema, KEYS, modelStatusSchema, speakerDetailSchema, speakerName, speakerViewSchema, verifyAnswerSchema, type SpeakerView } from '../shared/schemas.js';
import { ENROL_MIN_SPEECH, IDENTIFY_MIN_SPEECH, RECORDING_MAX_BYTES, RECORDINGS_MAX, recordingOfUpload, type SpeechRecording } from './audio.js';
import { errorIn, type DepartmentModels } from './models.js';
import type { VoiceprintDatabase } from './tables.js';

type Headers = Record<string, string | string[] | undefined>;
type Say = (zh: string, en: string) => string;

type Uploaded = UploadedFile;

type SpeakerRow = { id: number; name: string; department_id: number; recordings: number; speech_seconds: number; model_version: number | null; method: string | null; created_at: Date; updated_at: Date };
const SPEAKER_COLUMNS = ['id', 'name', 'department_id', 'recordings', 'speech_seconds', 'model_version', 'method', 'created_at', 'updated_at'] as const;
type DepartmentState = Awaited<ReturnType<DepartmentModels['state']>>;

export function speakerRoutes(ctx: ServerPluginContext, db: Kysely<VoiceprintDatabase>, models: DepartmentModels) {
  const mayReachAll = (caller: Caller) => ctx.auth.can(caller, KEYS.manage);

  /** The caller's department: where its speakers are enrolled and looked for. */
  function ownDepartment(caller: Caller, headers: Headers): number {
    if (caller.departmentId == null) throw new ApiError(Codes.BAD_REQUEST, say(headers, '请先选择部门', 'Choose a department first'));
    return caller.departmentId;
  }

  /** The department a call works in: the caller's own, or (administrators) the one asked for. */
  function departmentFor(caller: Caller, asked: number | undefined, headers: Headers): number {
    if (asked === undefined || asked === caller.departmentId) return ownDepartment(caller, headers);
    if (!mayReachAll(caller)) throw new ApiError(Codes.NOT_FOUND, say(headers, `部门 ${asked} 没有声纹`, `Department ${asked} has no voiceprints`));
    return asked;
  }

  /** A speaker of the caller's department (any department for administrators); 404 otherwise. */
  async function speakerOf(caller: Caller, id: number, headers: Headers) {
    const row = await db.selectFrom('voiceprint_speakers').select(SPEAKER_COLUMNS).where('id', '=', id).executeTakeFirst();
    if (!row || (row.department_id !== caller.departmentId && !mayReachAll(caller))) throw new ApiError(Codes.NOT_FOUND, say(headers, `说话人 ${id} 不存在`, `Speaker ${id} not found`));
    return row;
  }

  /** How many of each speaker's recordings are kept as audio (those enrolled before 002 are not). */
  async function audioCounts(ids: number[]): Promise<Map<number, number>> {
    if (!ids.length) return new Map();
    const rows = await db.selectFrom('voiceprint_recordings').select(['speaker_id', (eb) => eb.fn.countAll<string>().as('n')]).where('speaker_id', 'in', ids).where('audio', 'is not', null).groupBy('speaker_id').execute();
    return new Map(rows.map((r) => [r.speaker_id, Number(r.n)]));
  }

  /**
   * The speakers as the API shows them. Ready: their representation is of the department's current
   * model and a node of its method is up. Needs a recording: enrolled before recordings were kept as
   * audio, and their representation is not of the method the department has now (or is moving to).
   */
  async function views(rows: SpeakerRow[]): Promise<SpeakerView[]> {
    const states = new Map<number, Promise<DepartmentState>>();
    const audio = await audioCounts(rows.map((r) => r.id));
    return Promise.all(
      rows.map(async (r) => {
        if (!states.has(r.department_id)) states.set(r.department_id, models.state(r.department_id));
        const dept = await states.get(r.department_id)!;
        const ready = dept.methodReady && r.model_version != null && r.model_version === dept.modelVersion && r.method === dept.method;
        const target = dept.methodReady ? dept.method : (dept.currentMethod ?? dept.method);
        const needsRecording = !ready && !audio.get(r.id) && r.method !== target;
        return view(r, ready ? 'ready' : needsRecording ? 'needsRecording' : 'training');
      }),
    );
  }

  function view(r: SpeakerRow, state: SpeakerView['state']): SpeakerView {
    return {
      id: r.id,
      name: r.name,
      departmentId: r.department_id,
      recordings: r.recordings,
      speechSeconds: Math.round(r.speech_seconds * 10) / 10,
      ready: state === 'ready',
      state,
      method: r.method,
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
    };
  }

  function checkFiles(files: Uploaded[], t: Say) {
    if (!files.length) throw new ApiError(Codes.BAD_REQUEST, t('请上传至少一段录音', 'Upload at least one recording'));
    if (files.length > RECORDINGS_MAX) throw new ApiError(Codes.BAD_REQUEST, t(`一次最多上传 ${RECORDINGS_MAX} 段录音`, `At most ${RECORDINGS_MAX} recordings at a time`));
  }

  /** Every file read before anything is stored: one bad file refuses the whole call. */
  async function recordingsOfAll(files: Uploaded[], t: Say) {
    const out: Array<{ file: Uploaded; recording: SpeechRecording }> = [];
    for (const file of files) out.push({ file, recording: await recordingOfUpload(file, ENROL_MIN_SPEECH, t) });
    return out;
  }

  async function storeRecordings(trx: Kysely<VoiceprintDatabase>, speakerId: number, recordings: Array<{ file: Uploaded; recording: SpeechRecording }>, userId: number) {
    for (const { file, recording } of recordings) {
      await trx
        .insertInto('voiceprint_recordings')
        .values({ speaker_id: speakerId, filename: file.filename.slice(0, 255), audio: Buffer.from(recording.wav), features: null, frames: null, dims: null, speech_seconds: recording.speechSeconds, created_by: userId })
        .execute();
    }
    const sums = await trx.selectFrom('voiceprint_recordings').select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.sum<number>('speech_seconds').as('s')]).where('speaker_id', '=', speakerId).executeTakeFirstOrThrow();
    await trx.updateTable('voiceprint_speakers').set({ recordings: Number(sums.n), speech_seconds: Number(sums.s ?? 0), updated_at: new Date() }).where('id', '=', speakerId).execute();
  }

  const upload = { maxBytes: RECORDINGS_MAX * RECORDING_MAX_BYTES + 1024 * 1024 };

  ctx.route({
    method: 'GET',
    url: '/voiceprint/speaker/list',
    access: { permission: KEYS.use },
    summary: "List the department's enrolled speakers (every department's for voiceprint:manage)",
    schema: { query: z.object({ ...pageQuery, name: z.string().trim().optional(), departmentId: idSchema.optional() }) },
    response: { data: pageSchema(speakerViewSchema), errors: [404] },
    async handler({ query, caller, headers }) {
      let q = db.selectFrom('voiceprint_speakers');
      if (query.departmentId !== undefined) q = q.where('department_id', '=', departmentFor(caller!, query.departmentId, headers));
      else if (!mayReachAll(caller!)) q = q.where('department_id', '=', ownDepartment(caller!, headers));
      if (query.name) q = q.where('name', 'ilike', like(query.name));
      const [rows, total] = await Promise.all([
        q.select(SPEAKER_COLUMNS).orderBy('id', 'desc').limit(query.pageSize).offset(pageOffset(query)).execute(),
        q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst(),
      ]);
      return pageOf(query, await views(rows), total?.n);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/voiceprint/speaker/detail',
    access: { permission: KEYS.use },
    summary: 'One speaker with its recordings',
    schema: { query: z.object({ id: idSchema }) },
    response: { data: speakerDetailSchema, errors: [404] },
    async handler({ query, caller, headers }) {
      const row = await speakerOf(caller!, query.id, headers);
      const recordings = await db
        .selectFrom('voiceprint_recordings')
        .select((eb) => ['id', 'filename', 'speech_seconds', 'created_at', eb('audio', 'is not', null).as('kept')])
        .where('speaker_id', '=', row.id)
        .orderBy('id')
        .execute();
      const [shown] = await views([row]);
      return { ...shown!, recordingList: recordings.map((r) => ({ id: r.id, filename: r.filename, speechSeconds: Math.round(r.speech_seconds * 10) / 10, audio: !!r.kept, createdAt: iso(r.created_at) })) };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/voiceprint/status',
    access: { permission: KEYS.use },
    summary: "The department's model: trained, training or failed, its speaker method, the method offered now, and the decision threshold",
    schema: { query: z.object({ departmentId: idSchema.optional() }) },
    response: { data: modelStatusSchema, errors: [404] },
    async handler({ query, caller, headers }) {
      const departmentId = departmentFor(caller!, query.departmentId, headers);
      const state = await models.state(departmentId);
      return { departmentId, ...state, error: errorIn(state.error, requestLocale(headers)) };
    },
  });

  ctx.route({
    method: 'POST',
    url: '/voiceprint/speaker/enrol',
    access: { permission: KEYS.enrol },
    summary: 'Enrol a speaker in the caller\'s department: a name and one or more recordings',
    upload,
    schema: { body: z.object({ name: speakerName, files: uploadedFilesSchema }) },
    response: { data: speakerViewSchema, errors: [409, 413] },
    async handler({ body, caller, headers }) {
      const t: Say = (zh, en) => say(headers, zh, en);
      const departmentId = ownDepartment(caller!, headers);
      checkFiles(body.files, t);
      const taken = await db.selectFrom('voiceprint_speakers').select('id').where('department_id', '=', departmentId).where((eb) => eb(eb.fn('lower', [eb.ref('name')]), '=', body.name.toLowerCase())).executeTakeFirst();
      if (taken) throw new ApiError(Codes.CONFLICT, t(`说话人“${body.name}”已存在`, `Speaker "${body.name}" already exists`));
      const recordings = await recordingsOfAll(body.files, t);
      let start = false;
      const speaker = await db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('voiceprint_speakers').values({ department_id: departmentId, name: body.name, model: null, model_version: null, created_by: caller!.userId }).returning('id').executeTakeFirstOrThrow();
        await storeRecordings(trx, row.id, recordings, caller!.userId);
        start = await models.changed(trx, departmentId);
        return row;
      }).catch((err) => {
        if (/voiceprint_speakers_name|unique/i.test(String((err as Error).message))) throw new ApiError(Codes.CONFLICT, t(`说话人“${body.name}”已存在`, `Speaker "${body.name}" already exists`));
        throw err;
      });
      await models.adaptNow(departmentId, speaker.id);
      if (start) await models.startTraining(departmentId, caller!.userId);
      return (await views([await speakerOf(caller!, speaker.id, headers)]))[0]!;
    },
  });

  ctx.route({
    method: 'POST',
    url: '/voiceprint/speaker/recording/add',
    access: { permission: KEYS.enrol },
    summary: 'Add recordings to an enrolled speaker',
    upload,
    schema: { body: z.object({ speakerId: idSchema, files: uploadedFilesSchema }) },
    response: { data: speakerViewSchema, errors: [404, 413] },
    async handler({ body, caller, headers }) {
      const t: Say = (zh, en) => say(headers, zh, en);
      const speaker = await speakerOf(caller!, body.speakerId, headers);
      checkFiles(body.files, t);
      const recordings = await recordingsOfAll(body.files, t);
      let start = false;
      await db.transaction().execute(async (trx) => {
        await storeRecordings(trx, speaker.id, recordings, caller!.userId);
        start = await models.changed(trx, speaker.department_id);
      });
      await models.adaptNow(speaker.department_id, speaker.id);
      if (start) await models.startTraining(speaker.department_id, caller!.userId);
      return (await views([await speakerOf(caller!, speaker.id, headers)]))[0]!;
    },
  });

  ctx.route({
    method: 'DELETE',
    url: '/voiceprint/speaker/delete',
    access: { permission: KEYS.delete },
    summary: 'Delete a speaker with its recordings and model (the console confirms first)',
    schema: { query: z.object({ id: idSchema }) },
    response: { data: z.null(), errors: [404] },
    async handler({ query, caller, headers }) {
      const speaker = await speakerOf(caller!, query.id, headers);
      let start = false;
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('voiceprint_speakers').where('id', '=', speaker.id).execute();
        start = await models.changed(trx, speaker.department_id);
      });
      if (start) await models.startTraining(speaker.department_id, caller!.userId);
      return null;
    },
  });

  async function probeOf(files: Uploaded[], t: Say) {
    if (files.length !== 1) throw new ApiError(Codes.BAD_REQUEST, t('请上传一段录音', 'Upload one recording'));
    return recordingOfUpload(files[0]!, IDENTIFY_MIN_SPEECH, t);
  }

  const notReady = (t: Say) => new ApiError(Codes.CONFLICT, t('这个部门还没有可用的声纹：请先登记说话人，或等待模型训练完成', 'No voiceprints are ready in this department: enrol speakers first, or wait for the training to finish'));

  ctx.route({
    method: 'POST',
    url: '/voiceprint/identify',
    access: { permission: KEYS.use },
    summary: "Who speaks in a recording, among the department's speakers: ranked scores, or unknown under the method's threshold",
    upload: { maxBytes: RECORDING_MAX_BYTES + 1024 * 1024 },
    schema: { body: z.object({ file: uploadedFilesSchema, departmentId: idSchema.optional() }) },
    response: { data: identifyAnswerSchema, errors: [404, 409, 413, 503] },
    log: false,
    async handler({ body, caller, headers }) {
      const t: Say = (zh, en) => say(headers, zh, en);
      const departmentId = departmentFor(caller!, body.departmentId, headers);
      const recording = await probeOf(body.file, t);
      const scored = await models.score(departmentId, recording);
      if (!scored) throw notReady(t);
      return models.identification(scored);
    },
  });

  ctx.route({
    method: 'POST',
    url: '/voiceprint/verify',
    access: { permission: KEYS.use },
    summary: "Whether a recording is of the claimed speaker: accepted when the score reaches the method's threshold",
    upload: { maxBytes: RECORDING_MAX_BYTES + 1024 * 1024 },
    schema: { body: z.object({ file: uploadedFilesSchema, speakerId: idSchema }) },
    response: { data: verifyAnswerSchema, errors: [404, 409, 413, 503] },
    log: false,
    async handler({ body, caller, headers }) {
      const t: Say = (zh, en) => say(headers, zh, en);
      const speaker = await speakerOf(caller!, body.speakerId, headers);
      const recording = await probeOf(body.file, t);
      const scored = await models.score(speaker.department_id, recording, [speaker.id]);
      const own = scored?.candidates[0];
      if (!scored || !own) throw new ApiError(Codes.CONFLICT, t(`说话人“${speaker.name}”的声纹尚不可用（正在训练，或需要补充一段录音）`, `The voiceprint of "${speaker.name}" is not ready: it is being trained, or needs a new recording`));
      return { speakerId: speaker.id, name: speaker.name, score: own.score, threshold: scored.threshold, method: scored.method, accepted: own.score >= scored.threshold, speechSeconds: Math.round(scored.speechSeconds * 100) / 100 };
    },
  });
}
