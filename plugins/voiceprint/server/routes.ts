import { z } from 'zod';
import type { Kysely } from 'kysely';
import { ApiError, Codes, floatBytes, iso, like, pageOf, pageOffset, pageQuery, pageSchema, say, type Caller, type ServerPluginContext, type VoiceFeatures } from '@linguaport/sdk/server';
import { idSchema } from '@linguaport/sdk/shared';
import { identifyAnswerSchema, KEYS, modelStatusSchema, speakerDetailSchema, speakerName, speakerViewSchema, verifyAnswerSchema, type SpeakerView } from '../shared/schemas.js';
import { ENROL_MIN_SPEECH, featuresOfUpload, IDENTIFY_MIN_SPEECH, RECORDING_MAX_BYTES, RECORDINGS_MAX } from './audio.js';
import type { DepartmentModels } from './models.js';
import type { VoiceprintDatabase } from './tables.js';

type Headers = Record<string, string | string[] | undefined>;
type Say = (zh: string, en: string) => string;

const uploaded = z.object({ filename: z.string(), size: z.number(), path: z.string() });
type Uploaded = z.infer<typeof uploaded>;
const uploadedFiles = z.union([uploaded, z.array(uploaded)]).transform((f) => (Array.isArray(f) ? f : [f]));

type SpeakerRow = { id: number; name: string; department_id: number; recordings: number; speech_seconds: number; model_version: number | null; created_at: Date; updated_at: Date };

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
    const row = await db.selectFrom('voiceprint_speakers').select(['id', 'name', 'department_id', 'recordings', 'speech_seconds', 'model_version', 'created_at', 'updated_at']).where('id', '=', id).executeTakeFirst();
    if (!row || (row.department_id !== caller.departmentId && !mayReachAll(caller))) throw new ApiError(Codes.NOT_FOUND, say(headers, `说话人 ${id} 不存在`, `Speaker ${id} not found`));
    return row;
  }

  /** The speaker as the API shows it; `versions` caches departments' model versions over a list. */
  async function view(r: SpeakerRow, versions = new Map<number, Promise<number>>()): Promise<SpeakerView> {
    if (!versions.has(r.department_id)) versions.set(r.department_id, models.state(r.department_id).then((s) => s.modelVersion));
    const modelVersion = await versions.get(r.department_id)!;
    return {
      id: r.id,
      name: r.name,
      departmentId: r.department_id,
      recordings: r.recordings,
      speechSeconds: Math.round(r.speech_seconds * 10) / 10,
      ready: r.model_version != null && r.model_version === modelVersion,
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
    };
  }

  function checkFiles(files: Uploaded[], t: Say) {
    if (!files.length) throw new ApiError(Codes.BAD_REQUEST, t('请上传至少一段录音', 'Upload at least one recording'));
    if (files.length > RECORDINGS_MAX) throw new ApiError(Codes.BAD_REQUEST, t(`一次最多上传 ${RECORDINGS_MAX} 段录音`, `At most ${RECORDINGS_MAX} recordings at a time`));
  }

  /** Every file read before anything is stored: one bad file refuses the whole call. */
  async function featuresOfAll(files: Uploaded[], t: Say) {
    const out: Array<{ file: Uploaded; features: VoiceFeatures }> = [];
    for (const file of files) out.push({ file, features: await featuresOfUpload(file, ENROL_MIN_SPEECH, t) });
    return out;
  }

  async function storeRecordings(trx: Kysely<VoiceprintDatabase>, speakerId: number, recordings: Array<{ file: Uploaded; features: VoiceFeatures }>, userId: number) {
    for (const { file, features } of recordings) {
      await trx
        .insertInto('voiceprint_recordings')
        .values({ speaker_id: speakerId, filename: file.filename.slice(0, 255), features: Buffer.from(floatBytes(features.data)), frames: features.frames, dims: features.dims, speech_seconds: features.speechSeconds, created_by: userId })
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
        q.select(['id', 'name', 'department_id', 'recordings', 'speech_seconds', 'model_version', 'created_at', 'updated_at']).orderBy('id', 'desc').limit(query.pageSize).offset(pageOffset(query)).execute(),
        q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst(),
      ]);
      const versions = new Map<number, Promise<number>>();
      return pageOf(query, await Promise.all(rows.map((r) => view(r, versions))), total?.n);
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
      const recordings = await db.selectFrom('voiceprint_recordings').select(['id', 'filename', 'speech_seconds', 'created_at']).where('speaker_id', '=', row.id).orderBy('id').execute();
      return { ...(await view(row)), recordingList: recordings.map((r) => ({ id: r.id, filename: r.filename, speechSeconds: Math.round(r.speech_seconds * 10) / 10, createdAt: iso(r.created_at) })) };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/voiceprint/status',
    access: { permission: KEYS.use },
    summary: "The department's model: trained, training or failed, and the decision threshold",
    schema: { query: z.object({ departmentId: idSchema.optional() }) },
    response: { data: modelStatusSchema, errors: [404] },
    async handler({ query, caller, headers }) {
      const departmentId = departmentFor(caller!, query.departmentId, headers);
      return { departmentId, threshold: models.threshold, ...(await models.state(departmentId)) };
    },
  });

  ctx.route({
    method: 'POST',
    url: '/voiceprint/speaker/enrol',
    access: { permission: KEYS.enrol },
    summary: 'Enrol a speaker in the caller\'s department: a name and one or more recordings',
    upload,
    schema: { body: z.object({ name: speakerName, files: uploadedFiles }) },
    response: { data: speakerViewSchema, errors: [409, 413] },
    async handler({ body, caller, headers }) {
      const t: Say = (zh, en) => say(headers, zh, en);
      const departmentId = ownDepartment(caller!, headers);
      checkFiles(body.files, t);
      const taken = await db.selectFrom('voiceprint_speakers').select('id').where('department_id', '=', departmentId).where((eb) => eb(eb.fn('lower', [eb.ref('name')]), '=', body.name.toLowerCase())).executeTakeFirst();
      if (taken) throw new ApiError(Codes.CONFLICT, t(`说话人“${body.name}”已存在`, `Speaker "${body.name}" already exists`));
      const recordings = await featuresOfAll(body.files, t);
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
      return view(await speakerOf(caller!, speaker.id, headers));
    },
  });

  ctx.route({
    method: 'POST',
    url: '/voiceprint/speaker/recording/add',
    access: { permission: KEYS.enrol },
    summary: 'Add recordings to an enrolled speaker',
    upload,
    schema: { body: z.object({ speakerId: idSchema, files: uploadedFiles }) },
    response: { data: speakerViewSchema, errors: [404, 413] },
    async handler({ body, caller, headers }) {
      const t: Say = (zh, en) => say(headers, zh, en);
      const speaker = await speakerOf(caller!, body.speakerId, headers);
      checkFiles(body.files, t);
      const recordings = await featuresOfAll(body.files, t);
      let start = false;
      await db.transaction().execute(async (trx) => {
        await storeRecordings(trx, speaker.id, recordings, caller!.userId);
        start = await models.changed(trx, speaker.department_id);
      });
      await models.adaptNow(speaker.department_id, speaker.id);
      if (start) await models.startTraining(speaker.department_id, caller!.userId);
      return view(await speakerOf(caller!, speaker.id, headers));
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

  async function recordingFeatures(files: Uploaded[], t: Say) {
    if (files.length !== 1) throw new ApiError(Codes.BAD_REQUEST, t('请上传一段录音', 'Upload one recording'));
    return featuresOfUpload(files[0]!, IDENTIFY_MIN_SPEECH, t);
  }

  const notReady = (t: Say) => new ApiError(Codes.CONFLICT, t('这个部门还没有可用的声纹：请先登记说话人，或等待模型训练完成', 'No voiceprints are ready in this department: enrol speakers first, or wait for the training to finish'));

  ctx.route({
    method: 'POST',
    url: '/voiceprint/identify',
    access: { permission: KEYS.use },
    summary: "Who speaks in a recording, among the department's speakers: ranked scores, or unknown under the threshold",
    upload: { maxBytes: RECORDING_MAX_BYTES + 1024 * 1024 },
    schema: { body: z.object({ file: uploadedFiles, departmentId: idSchema.optional() }) },
    response: { data: identifyAnswerSchema, errors: [404, 409, 413] },
    log: false,
    async handler({ body, caller, headers }) {
      const t: Say = (zh, en) => say(headers, zh, en);
      const departmentId = departmentFor(caller!, body.departmentId, headers);
      const features = await recordingFeatures(body.file, t);
      const candidates = await models.score(departmentId, features);
      if (!candidates) throw notReady(t);
      return models.identification(candidates, features.speechSeconds);
    },
  });

  ctx.route({
    method: 'POST',
    url: '/voiceprint/verify',
    access: { permission: KEYS.use },
    summary: 'Whether a recording is of the claimed speaker: accepted when the score reaches the threshold',
    upload: { maxBytes: RECORDING_MAX_BYTES + 1024 * 1024 },
    schema: { body: z.object({ file: uploadedFiles, speakerId: idSchema }) },
    response: { data: verifyAnswerSchema, errors: [404, 409, 413] },
    log: false,
    async handler({ body, caller, headers }) {
      const t: Say = (zh, en) => say(headers, zh, en);
      const speaker = await speakerOf(caller!, body.speakerId, headers);
      const features = await recordingFeatures(body.file, t);
      const [scored] = (await models.score(speaker.department_id, features, [speaker.id])) ?? [];
      if (!scored) throw new ApiError(Codes.CONFLICT, t(`说话人“${speaker.name}”的声纹模型正在训练，请稍后再试`, `The voiceprint of "${speaker.name}" is being trained: try again in a moment`));
      return { speakerId: speaker.id, name: speaker.name, score: scored.score, threshold: models.threshold, accepted: scored.score >= models.threshold, speechSeconds: Math.round(features.speechSeconds * 100) / 100 };
    },
  });
}
