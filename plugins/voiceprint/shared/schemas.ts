import { z } from 'zod';

/** A speaker's name as the server checks it and the enrol form explains it. */
export const speakerName = z.string().trim().min(1, 'validation.required').max(100);

export const KEYS = {
  /** See the department's speakers, identify and verify. */
  use: 'voiceprint:use',
  /** Enrol speakers and add recordings. */
  enrol: 'voiceprint:enrol',
  delete: 'voiceprint:delete',
  /** Reach every department's speakers (administrators). */
  manage: 'voiceprint:manage',
} as const;

/** The answers of the API, as the console reads them. */
export interface SpeakerView {
  id: number;
  name: string;
  departmentId: number;
  recordings: number;
  speechSeconds: number;
  /** Adapted to the department's current model: identification and verification see it. */
  ready: boolean;
  createdAt: string | null;
  updatedAt: string | null;
}

export interface ScoredCandidate {
  speakerId: number;
  name: string;
  score: number;
}

export interface IdentifyAnswer {
  speaker: ScoredCandidate | null;
  candidates: ScoredCandidate[];
  threshold: number;
  speechSeconds: number;
}

export interface VerifyAnswer {
  speakerId: number;
  name: string;
  score: number;
  threshold: number;
  accepted: boolean;
  speechSeconds: number;
}
