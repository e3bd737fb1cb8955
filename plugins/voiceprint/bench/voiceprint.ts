// Figure: speaker identification and verification on espeak-ng speakers made in this run (10 voices and
// variants, 3 sentences each to enrol, 4 other sentences each held out), through the plugin as it runs:
// a kernel with the voiceprint area and the built-in speaker node, speakers enrolled by upload, the
// department's models trained by its task through ctx.engines.speaker, each held-out utterance identified
// by /api/voiceprint/identify (its candidates give every speaker's score). Prints the held-out
// identification accuracy (target >= 95%), the verification equal-error rate, how the method's threshold
// does on enrolled and unenrolled voices, and the time per identification (decoding, the engine's
// features and the scores of every speaker); beside it, a naive baseline measured on the same recordings:
// the nearest mean MFCC vector (cosine). Twice: the held-out sentences as made, and through another
// channel (telephone band, equaliser, level, noise), as a recording from another microphone would differ.
import { performance } from 'node:perf_hooks';
import { writeWavPcm } from '@linguaport/media';
import { mfccFrames, voicedFrameIndexes } from '@linguaport/speaker-model';
import { ADMIN_PASSWORD, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';
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
const speechSeconds = (sets: Float32Array[][]) => sets.flat().reduce((n, p) => n + p.length / 16000, 0);
console.log(`speakers: ${SPEAKERS.length} (${SPEAKERS.map((s) => `${s.voice} -p ${s.pitch} -s ${s.speed}`).join('; ')})`);
console.log(`audio made with espeak-ng + ffmpeg in ${((performance.now() - t0) / 1000).toFixed(1)} s: enrol ${speechSeconds(enrolPcm).toFixed(0)} s, held out ${heldPcm.flat().length} utterances (${speechSeconds(heldPcm).toFixed(0)} s), ${STRANGERS.length} unenrolled voices`);

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
async function evaluate(held: Float32Array[][], score: (pcm: Float32Array) => number[] | Promise<number[]>, threshold = Infinity): Promise<Outcome> {
  const o: Outcome = { correct: 0, trials: 0, acceptedCorrect: 0, targets: [], nonTargets: [], times: [] };
  for (const [i, utts] of held.entries()) {
    for (const pcm of utts) {
      const start = performance.now();
      const scores = await score(pcm);
      o.times.push(performance.now() - start);
      const best = scores.indexOf(Math.max(...scores));
      o.trials++;
      if (best === i) o.correct++;
      if (best === i && scores[best]! >= threshold) o.acceptedCorrect++;
      scores.forEach((s, j) => (j === i ? o.targets : o.nonTargets).push(s));
    }
  }
  o.times.sort((a, b) => a - b);
  return o;
}

function report(label: string, o: Outcome, withThreshold: boolean) {
  const eer = equalErrorRate(o.targets, o.nonTargets);
  console.log(`  ${label}: identification ${o.correct}/${o.trials} = ${pct(o.correct / o.trials)}; verification EER ${pct(eer.eer)} (${o.targets.length} target, ${o.nonTargets.length} impostor trials)${withThreshold ? `; correct and over the threshold ${o.acceptedCorrect}/${o.trials}` : ''}; median ${o.times[Math.floor(o.times.length / 2)]!.toFixed(1)} ms per identification`);
}

// ---- The plugin, through ctx.engines.speaker ----
{
  const k: TestKernel = await startTestKernel({ plugins: ['voiceprint', 'engine-voiceprint-local'] });
  try {
    const admin = await k.login('admin', ADMIN_PASSWORD);
    const wavOf = (pcm: Float32Array) => Buffer.from(writeWavPcm(Int16Array.from(pcm, (x) => Math.max(-32768, Math.min(32767, Math.round(x * 32768))))));
    const upload = async (url: string, fields: Record<string, string>, field: string, files: Buffer[]) => {
      const boundary = '----voiceprintbench';
      const parts: Buffer[] = [];
      for (const [n, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
      files.forEach((f, i) => parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="r${i}.wav"\r\nContent-Type: audio/wav\r\n\r\n`), f, Buffer.from('\r\n')));
      parts.push(Buffer.from(`--${boundary}--\r\n`));
      const res = await k.app.inject({ method: 'POST', url, headers: { jwt: admin, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
      const body = res.json();
      if (body.code !== 200) throw new Error(`${url}: ${body.msg}`);
      return body.data;
    };
    const t1 = performance.now();
    const ids: number[] = [];
    for (const [i, s] of SPEAKERS.entries()) ids.push((await upload('/api/voiceprint/speaker/enrol', { name: s.name }, 'files', enrolPcm[i]!.map(wavOf))).id);
    let status: { status: string; upToDate: boolean; method: string; threshold: number; error: string | null };
    for (;;) {
      status = (await k.call('GET', '/api/voiceprint/status', admin)).body.data;
      if (status.status === 'failed') throw new Error(`training failed: ${status.error}`);
      if (status.status === 'idle' && status.upToDate) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const trainMs = performance.now() - t1;
    const threshold = status.threshold;
    const identify = async (pcm: Float32Array) => {
      const data = await upload('/api/voiceprint/identify', {}, 'file', [wavOf(pcm)]);
      const byId = new Map<number, number>(data.candidates.map((c: { speakerId: number; score: number }) => [c.speakerId, c.score]));
      return ids.map((id) => byId.get(id)!);
    };
    console.log(`\nthe plugin through ctx.engines.speaker, method ${status.method}: ${ids.length} speakers enrolled by upload and the department trained in ${(trainMs / 1000).toFixed(2)} s; threshold ${threshold}`);
    report('held out, same channel   (target >= 95%)', await evaluate(heldPcm, identify, threshold), true);
    report('held out, another channel', await evaluate(channelPcm, identify, threshold), true);
    const strangerBest: number[] = [];
    for (const pcm of strangerPcm.flat()) strangerBest.push(Math.max(...(await identify(pcm))));
    console.log(`  unenrolled voices called unknown at the threshold: ${strangerBest.filter((s) => s < threshold).length}/${strangerBest.length} (best scores ${strangerBest.map((s) => s.toFixed(2)).join(', ')})`);
    console.log('  (time per identification: the API call with decoding by ffmpeg, the engine\'s features and the scores of every speaker)');
  } finally {
    await k.shutdown();
  }
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
  report('held out, same channel', await evaluate(heldPcm, score), false);
  report('held out, another channel', await evaluate(channelPcm, score), false);
}
