import { defineService } from '../services.js';

/**
 * Speaker recognition for the areas that need it (the voiceprint area enrols and identifies; live
 * interpretation labels who speaks): MFCC features with silence dropped and cepstral normalisation,
 * a GMM universal background model, speaker models by MAP adaptation, and log-likelihood-ratio scores.
 */
export { VOICE_SAMPLE_RATE, voiceFeatures, mfccFrames, deltaFrames, voicedFrameIndexes, normaliseCepstra, pcm16ToFloat, type VoiceFeatures, type VoiceFeatureOptions } from './features.js';
export { trainUbm, trainUbmInSteps, adaptMeans, scoreSpeakers, joinFrames, gmmToBytes, gmmFromBytes, GMM_UBM_METHOD, backgroundModelBytes, backgroundModelOf, floatsOf, floatBytes, type DiagonalGmm, type FrameSet, type UbmTrainingOptions } from './gmm.js';

/** One enrolled speaker's score for a recording, on the scale of the method that scored it (higher: more alike). */
export interface VoiceprintCandidate {
  speakerId: number;
  name: string;
  score: number;
}

export interface VoiceprintIdentification {
  /** The best candidate when its score reaches the threshold; null: unknown speaker. */
  speaker: VoiceprintCandidate | null;
  /** Every ready speaker of the department, best first. */
  candidates: VoiceprintCandidate[];
  threshold: number;
  /** The speaker method that scored (its scale is the scores' and the threshold's), when the area says it. */
  method?: string;
  /** Seconds of speech the recording held after silence was dropped. */
  speechSeconds: number;
}

/**
 * What the voiceprint area offers other areas (`voiceprint.speakers`): who speaks in a stretch of
 * 16 kHz mono samples, among the speakers enrolled in a department. The interpretation log labels its
 * speakers with it when the department has enrolled ones (`hasSpeakers`). Rejects with ApiError 400
 * when the samples hold no speech.
 */
export interface VoiceprintService {
  hasSpeakers(departmentId: number): Promise<boolean>;
  identify(input: { departmentId: number; pcm: Float32Array }): Promise<VoiceprintIdentification>;
}

export const voiceprintService = defineService<VoiceprintService>('voiceprint.speakers');
