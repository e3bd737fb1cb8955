import type { Kysely } from 'kysely';
import { ApiError, Codes, defineServerPlugin, voiceFeatures, voiceprintService } from '@linguaport/sdk/server';
import { IDENTIFY_MIN_SPEECH } from './audio.js';
import { departmentModels } from './models.js';
import { speakerRoutes } from './routes.js';
import { voiceprintMigrations, type VoiceprintDatabase } from './tables.js';

/**
 * Voiceprint recognition (`/voiceprintRecognition`): speakers enrolled per department with one or more
 * recordings, identified in a recording (closed set, unknown under a threshold) and verified against a
 * claim, by a GMM-UBM over MFCC features (the SDK's voiceprint module). Offers `voiceprint.speakers` to
 * other areas: the interpretation log labels speakers with it.
 */
export default defineServerPlugin({
  migrations: voiceprintMigrations,
  async setup(ctx) {
    const db = ctx.db as Kysely<VoiceprintDatabase>;
    const models = await departmentModels(ctx, db);
    speakerRoutes(ctx, db, models);
    ctx.services.provide(voiceprintService, {
      async hasSpeakers(departmentId) {
        const row = await db.selectFrom('voiceprint_speakers').select('id').where('department_id', '=', departmentId).where('model_version', 'is not', null).limit(1).executeTakeFirst();
        return !!row;
      },
      async identify({ departmentId, pcm }) {
        const features = voiceFeatures(pcm);
        if (features.speechSeconds < IDENTIFY_MIN_SPEECH) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': '录音中的语音太少，无法识别说话人', 'en-US': 'Too little speech in the recording to tell who speaks' });
        const candidates = (await models.score(departmentId, features)) ?? [];
        return models.identification(candidates, features.speechSeconds);
      },
    });
  },
});
