import { z } from 'zod';
import type { Kysely } from 'kysely';
import {
  adaptMeans,
  floatBytes,
  floatsOf,
  gmmFromBytes,
  gmmToBytes,
  joinFrames,
  scoreSpeakers,
  trainUbmInSteps,
  type DiagonalGmm,
  type FrameSet,
  type ServerPluginContext,
  type TaskHandle,
  type VoiceprintCandidate,
  type VoiceprintIdentification,
} from '@linguaport/sdk/server';
import { backgroundSpeech } from './background.js';
import type { VoiceprintDatabase } from './tables.js';

/** Gaussians of the background model; fewer when a department has little speech. */
export const UBM_COMPONENTS = 64;
/**
 * Default decision threshold on the average log-likelihood ratio. Measured on espeak-ng speakers
 * (bench/voiceprint.ts): enrolled speakers' held-out utterances score 1.4 and up, other voices 1.1 at
 * most. The plugin's config `threshold` overrides it for other conditions.
 */
export const DEFAULT_THRESHOLD = 1.2;

type Db = Kysely<VoiceprintDatabase>;

const framesOf = (r: { features: Uint8Array; frames: number; dims: number }): FrameSet => ({ data: floatsOf(r.features), frames: r.frames, dims: r.dims });

/**
 * The models of each department: its background model (trained by the `train` task on its enrolled
 * speakers' frames plus background speech) and its speakers' adapted means. A change of the enrolments
 * bumps the department's data version and starts the task unless one runs; the task trains again until
 * the model is of the latest data.
 */
export async function departmentModels(ctx: ServerPluginContext, db: Db) {
  const background = backgroundSpeech(ctx.storage, ctx.logger);
  const threshold = typeof ctx.config.threshold === 'number' ? ctx.config.threshold : DEFAULT_THRESHOLD;

  async function speakerFrames(speakerId: number, trx: Db = db): Promise<FrameSet> {
    const rows = await trx.selectFrom('voiceprint_recordings').select(['features', 'frames', 'dims']).where('speaker_id', '=', speakerId).orderBy('id').execute();
    return joinFrames(rows.map(framesOf));
  }

  async function ubmOf(departmentId: number, trx: Db = db): Promise<{ ubm: DiagonalGmm; version: number } | null> {
    const row = await trx.selectFrom('voiceprint_departments').selectAll().where('department_id', '=', departmentId).executeTakeFirst();
    if (!row?.ubm) return null;
    return { ubm: gmmFromBytes(row.ubm, row.components, row.dims), version: row.model_version };
  }

  /** One training: the background model from every frame of the department, then each speaker adapted. */
  async function trainOnce(departmentId: number, signal: AbortSignal): Promise<{ dataVersion: number; speakers: number }> {
    const state = await db.selectFrom('voiceprint_departments').select('data_version').where('department_id', '=', departmentId).executeTakeFirstOrThrow();
    const speakers = await db.selectFrom('voiceprint_speakers').select('id').where('department_id', '=', departmentId).orderBy('id').execute();
    const frames = new Map<number, FrameSet>();
    for (const s of speakers) frames.set(s.id, await speakerFrames(s.id));
    if (signal.aborted) throw signal.reason ?? new Error('aborted');
    if (!speakers.length) {
      await db.updateTable('voiceprint_departments').set({ ubm: null, components: 0, dims: 0, trained_version: state.data_version }).where('department_id', '=', departmentId).execute();
      return { dataVersion: state.data_version, speakers: 0 };
    }
    const bg = await background.frames();
    // In steps: the server goes on answering while a department's model trains.
    const ubm = await trainUbmInSteps(joinFrames([...(bg ? [bg] : []), ...frames.values()]), { components: UBM_COMPONENTS, seed: departmentId, signal });
    const adapted = new Map<number, Float64Array>();
    for (const [id, f] of frames) {
      if (signal.aborted) throw signal.reason ?? new Error('aborted');
      adapted.set(id, adaptMeans(ubm, f));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('voiceprint_departments').select('model_version').where('department_id', '=', departmentId).forUpdate().executeTakeFirstOrThrow();
      const version = row.model_version + 1;
      await trx
        .updateTable('voiceprint_departments')
        .set({ ubm: Buffer.from(gmmToBytes(ubm)), components: ubm.components, dims: ubm.dims, model_version: version, trained_version: state.data_version, trained_at: new Date(), error: null })
        .where('department_id', '=', departmentId)
        .execute();
      // A speaker deleted meanwhile is simply not there to update.
      for (const [id, means] of adapted) await trx.updateTable('voiceprint_speakers').set({ model: Buffer.from(floatBytes(means)), model_version: version }).where('id', '=', id).execute();
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
        if (!signal.aborted) await db.updateTable('voiceprint_departments').set({ status: 'failed', task_id: null, error: (err as Error).message.slice(0, 500) }).where('department_id', '=', departmentId).execute();
        throw err;
      }
    },
  });

  return {
    threshold,

    /**
     * Records a change of a department's enrolments (in the caller's transaction) and says whether a
     * training must start once it commits.
     */
    async changed(trx: Db, departmentId: number): Promise<boolean> {
      await trx.insertInto('voiceprint_departments').values({ department_id: departmentId, ubm: null, components: 0, dims: 0, model_version: 0, data_version: 0, trained_version: 0, status: 'idle', task_id: null, error: null, trained_at: null }).onConflict((oc) => oc.column('department_id').doNothing()).execute();
      const row = await trx.selectFrom('voiceprint_departments').select(['status', 'data_version']).where('department_id', '=', departmentId).forUpdate().executeTakeFirstOrThrow();
      const start = row.status !== 'training';
      await trx.updateTable('voiceprint_departments').set({ data_version: row.data_version + 1, ...(start ? { status: 'training' as const, error: null } : {}) }).where('department_id', '=', departmentId).execute();
      return start;
    },

    async startTraining(departmentId: number, ownerId: number | null) {
      const info = await task.start({ departmentId }, { ownerId, title: `voiceprint ${departmentId}` });
      await db.updateTable('voiceprint_departments').set({ task_id: info.id }).where('department_id', '=', departmentId).where('status', '=', 'training').execute();
    },

    /** Adapts one speaker to the department's current background model at once (usable before the retraining ends). */
    async adaptNow(departmentId: number, speakerId: number) {
      const current = await ubmOf(departmentId);
      if (!current) return;
      const means = adaptMeans(current.ubm, await speakerFrames(speakerId));
      await db.updateTable('voiceprint_speakers').set({ model: Buffer.from(floatBytes(means)), model_version: current.version }).where('id', '=', speakerId).execute();
    },

    async state(departmentId: number) {
      const row = await db.selectFrom('voiceprint_departments').selectAll().where('department_id', '=', departmentId).executeTakeFirst();
      return {
        status: row?.status ?? 'idle',
        modelVersion: row?.model_version ?? 0,
        upToDate: !row || (row.status !== 'training' && row.trained_version === row.data_version),
        trainedAt: row?.trained_at ? new Date(row.trained_at).toISOString() : null,
        error: row?.error ?? null,
        taskId: row?.task_id ?? null,
      };
    },

    /** Scores of `frames` against the ready speakers of a department (or only `speakerIds`), best first. */
    async score(departmentId: number, frames: FrameSet, speakerIds?: number[]): Promise<VoiceprintCandidate[] | null> {
      const current = await ubmOf(departmentId);
      if (!current) return null;
      let q = db.selectFrom('voiceprint_speakers').select(['id', 'name', 'model']).where('department_id', '=', departmentId).where('model_version', '=', current.version);
      if (speakerIds) q = q.where('id', 'in', speakerIds.length ? speakerIds : [0]);
      const speakers = await q.orderBy('id').execute();
      if (!speakers.length) return null;
      const scores = scoreSpeakers(current.ubm, speakers.map((s) => Float64Array.from(floatsOf(s.model!))), frames);
      return speakers.map((s, i) => ({ speakerId: s.id, name: s.name, score: Math.round(scores[i]! * 1000) / 1000 })).sort((a, b) => b.score - a.score);
    },

    identification(candidates: VoiceprintCandidate[], speechSeconds: number): VoiceprintIdentification {
      const best = candidates[0];
      return { speaker: best && best.score >= threshold ? best : null, candidates, threshold, speechSeconds: Math.round(speechSeconds * 100) / 100 };
    },
  };
}
export type DepartmentModels = Awaited<ReturnType<typeof departmentModels>>;
