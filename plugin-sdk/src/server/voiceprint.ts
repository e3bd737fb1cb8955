import { defineService } from './services.js';

/**
 * The voiceprint area's service contract (`voiceprint.speakers`), for the areas that need to know who
 * speaks (live interpretation labels its speakers with it). The speaker model itself (MFCC features,
 * GMM-UBM) is the workspace package @linguaport/speaker-model, which the areas computing it depend on.
 */

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
