import { z } from 'zod';
import type { Kysely } from 'kysely';
import { ApiError, type ServerPluginContext, type TaskHandle, type VoiceprintCandidate, type VoiceprintIdentification } from '@linguaport/sdk/server';
import type { SpeechRecording } from './audio.js';
import { backgroundSpeech } from './background.js';
import { LEGACY_METHOD, type VoiceprintDatabase } from './tables.js';

/** The threshold when neither the plugin's config nor the speaker engine names one (a kind that suggests none). */
export const FALLBACK_THRESHOLD = 0.5;
/** A failed training is started again by a later call at most this often. */
const RETRY_FAILED_MS = 60_000;

type Db = Kysely<VoiceprintDatabase>;
type DepartmentRow = Awaited<ReturnType<ReturnType<typeof departmentRow>>>;

/** 503 in both languages: no speaker node is up at all. */
export const noSpeakerNode = () =>
  new ApiError(503, { 'zh-CN': '服务中断：没有正在运行的说话人识别节点，请在引擎管理中启动一个', 'en-US': 'Service interrupted: no speaker recognition node is running. Start one on the engines screen.' }, { reason: 'noSpeakerNode' });
/** 503 in both languages: the department's models are of a method no node offers now, and are being remade. */
export const retraining = () =>
  new ApiError(503, { 'zh-CN': '声纹模型正在按新的识别方法重新训练，请稍后再试', 'en-US': 'The voiceprint models are being retrained for a new recognition method: try again in a moment' }, { reason: 'voiceprintRetraining' });

const departmentRow = (db: Db) => (departmentId: number) => db.selectFrom('voiceprint_departments').selectAll().where('department_id', '=', departmentId).executeTakeFirst();

/**
 * The decision threshold of a method: the plugin's config `thresholds: {"<method>": n}`, else (for the
 * local method only, as before engines) its config `threshold`, else what the engine suggests.
 */
export function thresholdsFrom(config: Readonly<Record<string, unknown>>, warn: (message: string) => void = () => {}) {
  const parsed = z.object({ threshold: z.number().finite().optional(), thresholds: z.record(z.string(), z.number().finite()).optional() }).safeParse(config);
  // A config of another shape is the operator's mistake: said in the log, the engines' suggestions apply.
  if (!parsed.success) warn(`voiceprint: config threshold/thresholds ignored: ${parsed.error.issues[0]?.message ?? ''}`);
  const { threshold, thresholds = {} } = parsed.success ? parsed.data : {};
  return (method: string | null, suggested: number | null | undefined): number =>
    (method != null ? thresholds[method] : undefined) ?? (method === LEGACY_METHOD ? threshold : undefined) ?? suggested ?? FALLBACK_THRESHOLD;
}

/** What a department's stored method is worth now. */
export interface MethodNow {
  /** A ready speaker node makes the stored method: its bytes can be scored. */
  usable: boolean;
  /** The method in use: the stored one when usable, else the one a request gets now (null: no speaker node is up). */
  current: string | null;
  /** The threshold a ready node of `current` suggests (what a training would store). */
  suggested: number | null;
}

/**
 * The models of each department, made by the speaker engines (`ctx.engines.speaker`): a background
 * model (`train`, on every recording kept as audio plus background speech) and one representation per
 * speaker (`enrol`), opaque bytes of one method stored with it. A change of the enrolments bumps the
 * department's data version and starts the `train` task unless one runs; the task trains again until
 * the model is of the latest data. When no node makes the stored method any more and another method is
 * up, the department is retrained with that one (the recordings are kept as audio for it).
 */
export async function departmentModels(ctx: ServerPluginContext, db: Db) {
  const background = backgroundSpeech(ctx.storage, ctx.logger);
  const thresholdFor = thresholdsFrom(ctx.config, (message) => ctx.logger.warn(message));
  const engine = ctx.engines.speaker;
  const rowOf = departmentRow(db);

  async function methodNow(stored: string | null): Promise<MethodNow> {
    const nodes = await engine.nodes();
    const suggestedFor = (method: string | null) => nodes.find((n) => n.ready && n.method === method && n.threshold !== undefined)?.threshold ?? null;
    if (stored && nodes.some((n) => n.ready && n.method === stored)) return { usable: true, current: stored, suggested: suggestedFor(stored) };
    const current = await engine.method();
    return { usable: false, current, suggested: suggestedFor(current) };
  }

  /** Every recording kept as audio of a department's speakers, by speaker. */
  async function audioBySpeaker(departmentId: number, speakerId?: number): Promise<Map<number, Uint8Array[]>> {
    let q = db.selectFrom('voiceprint_recordings as r').innerJoin('voiceprint_speakers as s', 's.id', 'r.speaker_id').select(['r.speaker_id', 'r.audio']).where('s.department_id', '=', departmentId).where('r.audio', 'is not', null);
    if (speakerId !== undefined) q = q.where('r.speaker_id', '=', speakerId);
    const out = new Map<number, Uint8Array[]>();
    for (const r of await q.orderBy('r.id').execute()) {
      const list = out.get(r.speaker_id) ?? [];
      list.push(new Uint8Array(r.audio!));
      out.set(r.speaker_id, list);
    }
    return out;
  }

  /**
   * One training. Speakers enrolled before recordings were kept as audio have only their old
   * representation: while a node of the stored method is up, the background model is kept as it is so
   * that they stay valid, and only the others are enrolled again; with another method they wait for a
   * new recording.
   */
  async function trainOnce(departmentId: number, signal: AbortSignal): Promise<{ dataVersion: number; speakers: number }> {
    const state = await db.selectFrom('voiceprint_departments').select(['data_version', 'method', 'background', 'threshold']).where('department_id', '=', departmentId).executeTakeFirstOrThrow();
    await db.updateTable('voiceprint_departments').set({ attempted_at: new Date() }).where('department_id', '=', departmentId).execute();
    const speakers = await db.selectFrom('voiceprint_speakers').select(['id', 'method', 'model']).where('department_id', '=', departmentId).orderBy('id').execute();
    if (!speakers.length) {
      await db.updateTable('voiceprint_departments').set({ method: null, background: null, threshold: null, trained_version: state.data_version }).where('department_id', '=', departmentId).execute();
      return { dataVersion: state.data_version, speakers: 0 };
    }
    const now = await methodNow(state.method);
    if (!now.current) throw noSpeakerNode();
    const audio = await audioBySpeaker(departmentId);
    const legacy = speakers.filter((s) => !audio.has(s.id) && s.model && s.method === state.method);
    const keepBackground = legacy.length > 0 && now.usable;
    let method = now.current;
    let model: Uint8Array | null = null;
    let threshold: number | null = null;
    if (keepBackground) {
      model = state.background ? new Uint8Array(state.background) : null;
      threshold = state.threshold;
    } else if (audio.size) {
      const recordings = [...(await background.recordings()), ...[...audio.values()].flat()];
      const trained = await engine.train({ recordings, seed: departmentId, method, signal });
      ({ method } = trained);
      model = trained.background;
      threshold = trained.threshold ?? null;
    }
    const representations = new Map<number, Uint8Array>();
    for (const [id, recordings] of audio) {
      if (signal.aborted) throw signal.reason ?? new Error('aborted');
      representations.set(id, (await engine.enrol({ recordings, background: model, method, signal })).representation);
    }
    await db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('voiceprint_departments').select('model_version').where('department_id', '=', departmentId).forUpdate().executeTakeFirstOrThrow();
      const version = row.model_version + 1;
      await trx
        .updateTable('voiceprint_departments')
        .set({ method, background: model ? Buffer.from(model) : null, threshold, model_version: version, trained_version: state.data_version, trained_at: new Date(), error: null })
        .where('department_id', '=', departmentId)
        .execute();
      // A speaker deleted meanwhile is simply not there to update.
      for (const [id, bytes] of representations) await trx.updateTable('voiceprint_speakers').set({ model: Buffer.from(bytes), method, model_version: version }).where('id', '=', id).execute();
      if (keepBackground) for (const s of legacy) await trx.updateTable('voiceprint_speakers').set({ model_version: version }).where('id', '=', s.id).execute();
    });
    return { dataVersion: state.data_version, speakers: speakers.length };
  }

  const task: TaskHandle<{ departmentId: number }, { speakers: number }> = await ctx.tasks.define({
    name: 'train',
    input: z.object({ departmentId: z.number().int().positive() }),
    async run({ input, signal, progress }) {
      const { departmentId } = input;
      try {
        for (;;) {
          await progress({ done: 0, total: 1 });
          const done = await trainOnce(departmentId, signal);
          // Enrolments that changed during the training make it go round again.
          const again = await db.transaction().execute(async (trx) => {
            const row = await trx.selectFrom('voiceprint_departments').select('data_version').where('department_id', '=', departmentId).forUpdate().executeTakeFirstOrThrow();
            if (row.data_version !== done.dataVersion) return true;
            await trx.updateTable('voiceprint_departments').set({ status: 'idle', task_id: null }).where('department_id', '=', departmentId).execute();
            return false;
          });
          await progress({ done: 1, total: 1 });
          if (!again) return { speakers: done.speakers };
        }
      } catch (err) {
        // A refusal in both languages (no speaker node, an engine's 400) is kept as both, for the status to say in the reader's.
        const error = err instanceof ApiError && err.messages ? JSON.stringify(err.messages) : (err as Error).message.slice(0, 500);
        if (!signal.aborted) await db.updateTable('voiceprint_departments').set({ status: 'failed', task_id: null, error }).where('department_id', '=', departmentId).execute();
        throw err;
      }
    },
  });

  async function startTraining(departmentId: number, ownerId: number | null) {
    const info = await task.start({ departmentId }, { ownerId, title: `voiceprint ${departmentId}` });
    await db.updateTable('voiceprint_departments').set({ task_id: info.id }).where('department_id', '=', departmentId).where('status', '=', 'training').execute();
  }

  /**
   * Starts the training a department needs without a change of its enrolments: its method is no longer
   * offered and another one is, or its last training failed (at most once a minute). True when this
   * call started one (the row read before is stale then).
   */
  async function trainIfNeeded(row: NonNullable<DepartmentRow>, now: MethodNow): Promise<boolean> {
    if (row.status === 'training') return false;
    if (!now.current) return false;
    if (row.status === 'failed' && row.attempted_at && Date.now() - new Date(row.attempted_at).getTime() < RETRY_FAILED_MS) return false;
    const methodGone = row.method !== null && !now.usable;
    if (!methodGone && row.status !== 'failed') return false;
    // Claimed in one statement: two calls at once start one training.
    const claimed = await db.updateTable('voiceprint_departments').set({ status: 'training', error: null }).where('department_id', '=', row.department_id).where('status', '!=', 'training').returning('department_id').executeTakeFirst();
    if (!claimed) return false;
    await startTraining(row.department_id, null);
    return true;
  }

  return {
    thresholdFor,
    methodNow,
    startTraining,

    /**
     * Records a change of a department's enrolments (in the caller's transaction) and says whether a
     * training must start once it commits.
     */
    async changed(trx: Db, departmentId: number): Promise<boolean> {
      await trx
        .insertInto('voiceprint_departments')
        .values({ department_id: departmentId, method: null, background: null, threshold: null, model_version: 0, data_version: 0, trained_version: 0, status: 'idle', task_id: null, error: null, trained_at: null })
        .onConflict((oc) => oc.column('department_id').doNothing())
        .execute();
      const row = await trx.selectFrom('voiceprint_departments').select(['status', 'data_version']).where('department_id', '=', departmentId).forUpdate().executeTakeFirstOrThrow();
      const start = row.status !== 'training';
      await trx.updateTable('voiceprint_departments').set({ data_version: row.data_version + 1, ...(start ? { status: 'training' as const, error: null } : {}) }).where('department_id', '=', departmentId).execute();
      return start;
    },

    /**
     * Enrols one speaker at once under the department's current background model, so they are
     * identified before the retraining ends. Best effort: when no node of the method is up the training
     * does it.
     */
    async adaptNow(departmentId: number, speakerId: number) {
      const row = await rowOf(departmentId);
      if (!row?.method || !row.trained_at) return;
      const recordings = (await audioBySpeaker(departmentId, speakerId)).get(speakerId);
      if (!recordings) return;
      try {
        const { representation } = await engine.enrol({ recordings, background: row.background ? new Uint8Array(row.background) : null, method: row.method });
        await db.updateTable('voiceprint_speakers').set({ model: Buffer.from(representation), method: row.method, model_version: row.model_version }).where('id', '=', speakerId).execute();
      } catch (err) {
        ctx.logger.info('voiceprint: a new speaker waits for the training', { error: (err as Error).message });
      }
    },

    /** The department's model as the API shows it; starts the retraining it needs (a new method, a failure to retry). */
    async state(departmentId: number) {
      const row = await rowOf(departmentId);
      const now = await methodNow(row?.method ?? null);
      const fresh = row && (await trainIfNeeded(row, now)) ? await rowOf(departmentId) : row;
      const method = fresh?.method ?? null;
      return {
        status: fresh?.status ?? 'idle',
        modelVersion: fresh?.model_version ?? 0,
        upToDate: !fresh || (fresh.status !== 'training' && fresh.trained_version === fresh.data_version && (!method || now.usable)),
        trainedAt: fresh?.trained_at ? new Date(fresh.trained_at).toISOString() : null,
        error: fresh?.error ?? null,
        taskId: fresh?.task_id ?? null,
        method,
        currentMethod: now.current,
        methodReady: !method || now.usable,
        // Before any training, the threshold the method's node suggests: the one a training will keep.
        threshold: thresholdFor(method ?? now.current, method ? fresh?.threshold : now.suggested),
      };
    },

    /**
     * Scores of a recording against the ready speakers of a department (or only `speakerIds`), best
     * first, with the method and threshold they are to be read with; null when no speaker is ready.
     */
    async score(departmentId: number, recording: SpeechRecording, speakerIds?: number[]): Promise<{ candidates: VoiceprintCandidate[]; threshold: number; method: string; speechSeconds: number } | null> {
      const row = await rowOf(departmentId);
      if (!row?.method) return null;
      const now = await methodNow(row.method);
      if (!now.usable) {
        if (!now.current) throw noSpeakerNode();
        await trainIfNeeded(row, now);
        throw retraining();
      }
      let q = db.selectFrom('voiceprint_speakers').select(['id', 'name', 'model']).where('department_id', '=', departmentId).where('model_version', '=', row.model_version).where('method', '=', row.method).where('model', 'is not', null);
      if (speakerIds) q = q.where('id', 'in', speakerIds.length ? speakerIds : [0]);
      const speakers = await q.orderBy('id').execute();
      if (!speakers.length) return null;
      const scored = await engine.score({ recording: recording.wav, speakers: speakers.map((s) => new Uint8Array(s.model!)), background: row.background ? new Uint8Array(row.background) : null, method: row.method });
      const candidates = speakers.map((s, i) => ({ speakerId: s.id, name: s.name, score: Math.round(scored.scores[i]! * 1000) / 1000 })).sort((a, b) => b.score - a.score);
      return { candidates, threshold: thresholdFor(scored.method, scored.threshold ?? row.threshold), method: scored.method, speechSeconds: scored.speechSeconds };
    },

    identification(scored: { candidates: VoiceprintCandidate[]; threshold: number; method: string; speechSeconds: number }): VoiceprintIdentification {
      const best = scored.candidates[0];
      return { speaker: best && best.score >= scored.threshold ? best : null, candidates: scored.candidates, threshold: scored.threshold, method: scored.method, speechSeconds: Math.round(scored.speechSeconds * 100) / 100 };
    },
  };
}
export type DepartmentModels = Awaited<ReturnType<typeof departmentModels>>;

/** A training's stored error in `locale`: kept in both languages when the refusal had both, else as it was. */
export function errorIn(error: string | null, locale: 'zh-CN' | 'en-US'): string | null {
  if (!error?.startsWith('{')) return error;
  try {
    const both = JSON.parse(error) as Record<string, unknown>;
    return typeof both[locale] === 'string' ? (both[locale] as string) : error;
  } catch {
    return error;
  }
}
