/**
 * Speaker recognition by a statistical model, on this machine: MFCC features with silence dropped and
 * cepstral normalisation, a GMM universal background model, speaker models by MAP adaptation, and
 * log-likelihood-ratio scores. Pure computation on typed arrays: no platform, no I/O.
 */
export { VOICE_SAMPLE_RATE, voiceFeatures, mfccFrames, deltaFrames, voicedFrameIndexes, normaliseCepstra, pcm16ToFloat, type VoiceFeatures, type VoiceFeatureOptions } from './features.js';
export { trainUbm, trainUbmInSteps, adaptMeans, scoreSpeakers, joinFrames, gmmToBytes, gmmFromBytes, GMM_UBM_METHOD, backgroundModelBytes, backgroundModelOf, floatsOf, floatBytes, type DiagonalGmm, type FrameSet, type UbmTrainingOptions } from './gmm.js';
// The seeded generator the model samples frames with (also the SDK testing kit's `seededRandom`).
export { seededRandom } from './random.js';
