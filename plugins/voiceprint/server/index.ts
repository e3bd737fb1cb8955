import { defineServerPlugin, voiceprintService } from '@linguaport/sdk/server';
import { IDENTIFY_MIN_SPEECH, recordingOfSamples } from './audio.js';
import { departmentModels } from './models.js';
import { speakerRoutes } from './routes.js';
import { voiceprintMigrations, type VoiceprintDatabase } from './tables.js';

/**
 * Voiceprint recognition (`/voiceprintRecognition`): speakers enrolled per department with one or more
 * recordings, identified in a recording (closed set, unknown under a threshold) and verified against a
 * claim, by the speaker engines (`ctx.engines.speaker`: the built-in MFCC/GMM-UBM node, remote embedding
 * nodes). Offers `voiceprint.speakers` to other areas: the interpretation log labels speakers with it.
 */
export default defineServerPlugin<VoiceprintDatabase>({
  migrations: voiceprintMigrations,
  async setup(ctx) {
    const db = ctx.db;
    const models = await departmentModels(ctx, db);
    speakerRoutes(ctx, db, models);
    ctx.services.provide(voiceprintService, {
      async hasSpeakers(departmentId) {
        const row = await db.selectFrom('voiceprint_speakers').select('id').where('department_id', '=', departmentId).where('model', 'is not', null).limit(1).executeTakeFirst();
        return !!row;
      },
      async identify({ departmentId, pcm }) {
        // Samples from the caller, a WAV for the engines.
        const recording = recordingOfSamples(pcm, IDENTIFY_MIN_SPEECH);
        const scored = await models.score(departmentId, recording);
        if (scored) return models.identification(scored);
        const state = await models.state(departmentId);
        return { speaker: null, candidates: [], threshold: state.threshold, ...(state.method ? { method: state.method } : {}), speechSeconds: Math.round(recording.speechSeconds * 100) / 100 };
      },
    });
  },
});
