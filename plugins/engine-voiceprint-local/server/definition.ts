import { z } from 'zod';
import { ANY_LANGUAGE, EngineError, speakerCapability, speakerWavSamples, VOICE_SAMPLE_RATE, type SpeakerAdapter, type SpeakerAdapterDefinition } from '@linguaport/sdk/server';
import {
  adaptMeans,
  backgroundModelBytes,
  backgroundModelOf,
  floatBytes,
  floatsOf,
  GMM_UBM_METHOD,
  gmmToBytes,
  joinFrames,
  scoreSpeakers,
  trainUbmInSteps,
  voiceFeatures,
  type DiagonalGmm,
} from '@linguaport/speaker-model';

/** What its bytes are: the speaker model's MFCC features, a GMM background model, speakers as MAP-adapted means. */
export const VOICEPRINT_METHOD = GMM_UBM_METHOD;
/**
 * The decision threshold it suggests, on its scale (the average log-likelihood ratio against the
 * background model). Measured on espeak-ng speakers (plugins/voiceprint/bench/voiceprint.ts): enrolled
 * speakers' held-out utterances score about 1.4 and up, voices no one enrolled 1.2 at most.
 */
export const VOICEPRINT_THRESHOLD = 1.2;
/** Gaussians of a background model (the speaker model trains fewer when there is little speech). */
export const UBM_COMPONENTS = 64;

function backgroundOf(bytes: Uint8Array | null): DiagonalGmm {
  if (!bytes || bytes.byteLength < 8) throw new EngineError('rejected', `a ${VOICEPRINT_METHOD} background model is needed`);
  try {
    return backgroundModelOf(bytes);
  } catch (err) {
    throw new EngineError('rejected', `not a ${VOICEPRINT_METHOD} background model: ${(err as Error).message}`);
  }
}

const framesOf = (recordings: Uint8Array[]) => {
  const frames = joinFrames(recordings.map((wav) => voiceFeatures(speakerWavSamples(wav))));
  if (!frames.frames) throw new EngineError('rejected', 'the recordings hold no speech');
  return frames;
};

/** The MFCC/GMM-UBM method of @linguaport/speaker-model as a speaker adapter: work on this machine's CPU, in steps (the server goes on answering). */
export function createVoiceprintAdapter(): SpeakerAdapter {
  return {
    kind: 'voiceprint-local',
    method: VOICEPRINT_METHOD,
    threshold: VOICEPRINT_THRESHOLD,
    languages: async () => [ANY_LANGUAGE],
    async health() {
      // The method is code of @linguaport/speaker-model: the check makes sure features come out of a short tone.
      const tone = Int16Array.from({ length: VOICE_SAMPLE_RATE / 4 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / VOICE_SAMPLE_RATE)));
      const f = voiceFeatures(Float32Array.from(tone, (s) => s / 32768));
      return f.dims > 0 ? { ok: true } : { ok: false, detail: 'MFCC features could not be computed' };
    },
    async train(recordings, { seed, signal }) {
      const ubm = await trainUbmInSteps(framesOf(recordings), { components: UBM_COMPONENTS, seed, signal });
      return backgroundModelBytes(ubm.components, ubm.dims, gmmToBytes(ubm));
    },
    async enrol(recordings, { background }) {
      const ubm = backgroundOf(background);
      const frames = framesOf(recordings);
      if (frames.dims !== ubm.dims) throw new EngineError('rejected', 'the background model is of other features');
      return floatBytes(adaptMeans(ubm, frames));
    },
    async score(recording, speakers, { background }) {
      const ubm = backgroundOf(background);
      const features = voiceFeatures(speakerWavSamples(recording));
      if (!features.frames) throw new EngineError('rejected', 'the recording holds no speech');
      const means = speakers.map((s) => Float64Array.from(floatsOf(s)));
      if (means.some((m) => m.length !== ubm.components * ubm.dims)) throw new EngineError('rejected', `a speaker representation is not of this ${VOICEPRINT_METHOD} background model`);
      return { scores: scoreSpeakers(ubm, means, features), speechSeconds: features.speechSeconds };
    },
  };
}

/** The built-in speaker engine (kind `voiceprint-local`): nothing to start, nothing to configure. */
export function voiceprintLocalDefinition(): SpeakerAdapterDefinition<Record<string, never>> {
  return {
    kind: 'voiceprint-local',
    name: { 'zh-CN': '声纹识别（本机）', 'en-US': 'Voiceprint recognition (local)' },
    capability: speakerCapability,
    config: z.object({}),
    local: true,
    create: () => createVoiceprintAdapter(),
  };
}
