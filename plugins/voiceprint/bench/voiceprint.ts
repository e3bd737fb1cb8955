// Figure: speaker identification and verification on espeak-ng speakers made in this run (10 voices and
// variants, 3 sentences each to enrol, 4 other sentences each held out), with the plugin's method and
// settings (MFCC + deltas, silence dropped, CMVN, a 64-Gaussian background model on the enrolled speakers
// plus the plugin's background voices, MAP-adapted means, average log-likelihood ratio). Prints the
// held-out identification accuracy (target >= 95%), the verification equal-error rate, how the default
// threshold does on enrolled and unenrolled voices, and the time per identification; beside it, a naive
// baseline measured on the same recordings: the nearest mean MFCC vector (cosine). Twice: the held-out
// sentences as made, and through another channel (telephone band, equaliser, level, noise), as a recording
// from another microphone would differ from the enrolment.
import { performance } from 'node:perf_hooks';
import { adaptMeans, joinFrames, mfccFrames, scoreSpeakers, trainUbm, voicedFrameIndexes, voiceFeatures, type VoiceFeatures } from '@linguaport/sdk/server';
import { BACKGROUND_TEXT, BACKGROUND_VOICES } from '../server/background.js';
import { DEFAULT_THRESHOLD, UBM_COMPONENTS } from '../server/models.js';
import { ENROL_TEXTS, HELD_OUT_TEXTS, SPEAKERS, speakPcm, type SyntheticSpeaker } from '../test/speech.js';

/** Voices no one enrols, for the open-set check (not among the speakers or the background). */
const STRANGERS: SyntheticSpeaker[] = [
  { name: 'Stranger 1', voice: 'en-us+m4', pitch: 30, speed: 140 },
  { name: 'Stranger 2', voice: 'en+f5', pitch: 62, speed: 165 },
  { name: 'Stranger 3', voice: 'en-gb+m1', pitch: 50, speed: 160 },
  { name: 'Stranger 4', voice: 'en-us+f1', pitch: 80, speed: 150 },
];

const t0 = performance.now();
const pcmOf = async (s: SyntheticSpeaker, texts: string[]) => Promise.all(texts.map((t) => speakPcm(s, t)));
const enrolPcm = await Promise.all(SPEAKERS.map((s) => pcmOf(s, ENROL_TEXTS)));
const heldPcm = await Promise.all(SPEAKERS.map((s) => pcmOf(s, HELD_OUT_TEXTS)));
/** The held-out sentences again through another channel: telephone band, a boosted mid range, half the level, noise about 25 dB down. */
const CHANNEL = 'highpass=f=300,lowpass=f=3400,equalizer=f=1200:t=q:w=1:g=6,volume=0.5,aeval=val(0)+0.004*(2*random(0)-1):c=same';
const channelPcm = await Promise.all(SPEAKERS.map((s) => Promise.all(HELD_OUT_TEXTS.map((t) => speakPcm(s, t, CHANNEL)))));
const strangerPcm = await Promise.all(STRANGERS.map((s) => pcmOf(s, HELD_OUT_TEXTS.slice(0, 2))));
const backgroundPcm = await Promise.all(BACKGROUND_VOICES.map((v) => speakPcm({ name: v.voice, ...v }, BACKGROUND_TEXT)));
const speechSeconds = (sets: Float32Array[][]) => sets.flat().reduce((n, p) => n + p.length / 16000, 0);
console.log(`speakers: ${SPEAKERS.length} (${SPEAKERS.map((s) => `${s.voice} -p ${s.pitch} -s ${s.speed}`).join('; ')})`);
console.log(`audio made with espeak-ng + ffmpeg in ${((performance.now() - t0) / 1000).toFixed(1)} s: enrol ${speechSeconds(enrolPcm).toFixed(0)} s, held out ${heldPcm.flat().length} utterances (${speechSeconds(heldPcm).toFixed(0)} s), ${STRANGERS.length} unenrolled voices, background ${backgroundPcm.length} voices`);

/** Equal-error rate of target and non-target scores (higher = more alike), and the threshold there. */
function equalErrorRate(targets: number[], nonTargets: number[]) {
  const all = [...new Set([...targets, ...nonTargets])].sort((a, b) => a - b);
  let best = { eer: 1, threshold: 0, gap: Infinity };
  for (const th of all) {
    const miss = targets.filter((s) => s < th).length / targets.length;
    const falseAlarm = nonTargets.filter((s) => s >= th).length / nonTargets.length;
    const gap = Math.abs(miss - falseAlarm);
    if (gap < best.gap) best = { eer: (miss + falseAlarm) / 2, threshold: th, gap };
  }
  return best;
}

const pct = (n: number) => `${(n * 100).toFixed(1)}%`;

interface Outcome {
  correct: number;
  trials: number;
  acceptedCorrect: number;
  targets: number[];
  nonTargets: number[];
  times: number[];
}

/** Scores every held-out utterance against every speaker; `score` gives one score per speaker. */
function evaluate(held: Float32Array[][], score: (pcm: Float32Array) => number[], threshold = Infinity): Outcome {
  const o: Outcome = { correct: 0, trials: 0, acceptedCorrect: 0, targets: [], nonTargets: [], times: [] };
  held.forEach((utts, i) => {
    for (const pcm of utts) {
      const start = performance.now();
      const scores = score(pcm);
      o.times.push(performance.now() - start);
      const best = scores.indexOf(Math.max(...scores));
      o.trials++;
      if (best === i) o.correct++;
      if (best === i && scores[best]! >= threshold) o.acceptedCorrect++;
      scores.forEach((s, j) => (j === i ? o.targets : o.nonTargets).push(s));
    }
  });
  o.times.sort((a, b) => a - b);
  return o;
}

function report(label: string, o: Outcome, withThreshold: boolean) {
  const eer = equalErrorRate(o.targets, o.nonTargets);
  console.log(`  ${label}: identification ${o.correct}/${o.trials} = ${pct(o.correct / o.trials)}; verification EER ${pct(eer.eer)} (${o.targets.length} target, ${o.nonTargets.length} impostor trials)${withThreshold ? `; correct and over the threshold ${o.acceptedCorrect}/${o.trials}` : ''}; median ${o.times[Math.floor(o.times.length / 2)]!.toFixed(1)} ms per identification`);
}

// ---- GMM-UBM, as the plugin runs it ----
{
  const t1 = performance.now();
  const background = joinFrames(backgroundPcm.map((p) => voiceFeatures(p)));
  const speakerFrames = enrolPcm.map((utts) => joinFrames(utts.map((p) => voiceFeatures(p))));
  const ubm = trainUbm(joinFrames([background, ...speakerFrames]), { components: UBM_COMPONENTS, seed: 1 });
  const models = speakerFrames.map((f) => adaptMeans(ubm, f));
  const trainMs = performance.now() - t1;
  const score = (pcm: Float32Array) => scoreSpeakers(ubm, models, voiceFeatures(pcm));
  console.log(`\nGMM-UBM: ${ubm.components} Gaussians over ${ubm.dims} dims; background model and ${models.length} speaker models trained in ${(trainMs / 1000).toFixed(2)} s; default threshold ${DEFAULT_THRESHOLD}`);
  report('held out, same channel   (target >= 95%)', evaluate(heldPcm, score, DEFAULT_THRESHOLD), true);
  report('held out, another channel', evaluate(channelPcm, score, DEFAULT_THRESHOLD), true);
  const strangerBest = strangerPcm.flat().map((pcm) => Math.max(...score(pcm)));
  console.log(`  unenrolled voices called unknown at the default threshold: ${strangerBest.filter((s) => s < DEFAULT_THRESHOLD).length}/${strangerBest.length} (best scores ${strangerBest.map((s) => s.toFixed(2)).join(', ')})`);
  console.log('  (time per identification: features of the decoded audio and the scores of every speaker)');
}

// ---- Naive baseline: nearest mean MFCC vector ----
{
  /** Mean of c1..c20 over the voiced frames (no normalisation: the mean is what it compares). */
  const meanVector = (pcm: Float32Array) => {
    const { cepstra, energyDb } = mfccFrames(pcm, 20, 40);
    const kept = voicedFrameIndexes(energyDb);
    const v = new Float64Array(20);
    for (const f of kept) for (let d = 0; d < 20; d++) v[d] += cepstra[f * 20 + d]!;
    return v.map((x) => x / Math.max(1, kept.length));
  };
  const cosine = (a: Float64Array, b: Float64Array) => {
    let ab = 0;
    let aa = 0;
    let bb = 0;
    for (let i = 0; i < a.length; i++) {
      ab += a[i]! * b[i]!;
      aa += a[i]! * a[i]!;
      bb += b[i]! * b[i]!;
    }
    return ab / Math.sqrt(aa * bb);
  };
  const models = enrolPcm.map((utts) => {
    const vs = utts.map(meanVector);
    return vs[0]!.map((_, d) => vs.reduce((s, v) => s + v[d]!, 0) / vs.length);
  });
  const score = (pcm: Float32Array) => {
    const v = meanVector(pcm);
    return models.map((m) => cosine(v, m));
  };
  console.log('\nnaive baseline: nearest mean MFCC vector (cosine), same recordings');
  report('held out, same channel', evaluate(heldPcm, score), false);
  report('held out, another channel', evaluate(channelPcm, score), false);
}
