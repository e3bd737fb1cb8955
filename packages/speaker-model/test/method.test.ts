import { describe, expect, it } from 'vitest';
import { seededRandom } from '@linguaport/sdk/testing';
import { adaptMeans, deltaFrames, trainUbmInSteps, gmmFromBytes, gmmToBytes, mfccFrames, scoreSpeakers, trainUbm, VOICE_SAMPLE_RATE, voicedFrameIndexes, voiceFeatures, type FrameSet } from '../src/index.js';

// The voiceprint method's parts on signals whose answer is known: tones, silence, and frames drawn
// from Gaussians with known means.

const tone = (hz: number, seconds: number, amplitude = 0.3) => Float32Array.from({ length: Math.round(seconds * 16000) }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / 16000));

function gaussianFrames(means: number[][], perCluster: number, seed: number): FrameSet {
  const random = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const dims = means[0]!.length;
  const data = new Float32Array(means.length * perCluster * dims);
  let at = 0;
  for (let n = 0; n < perCluster; n++) for (const m of means) for (let d = 0; d < dims; d++) data[at++] = m[d]! + 0.5 * normal();
  return { data, frames: means.length * perCluster, dims };
}

describe('voice features', () => {
  it('frames 25 ms every 10 ms and tells a low tone from a high one', () => {
    const low = mfccFrames(tone(300, 1));
    const high = mfccFrames(tone(3000, 1));
    expect(low.frames).toBe(1 + Math.floor((16000 - 400) / 160));
    const c1 = (x: { cepstra: Float32Array; frames: number }) => x.cepstra[Math.floor(x.frames / 2) * 20]!;
    // c1 weighs the low filters up and the high ones down: positive for a low tone, negative for a high one.
    expect(c1(low)).toBeGreaterThan(0);
    expect(c1(high)).toBeLessThan(0);
  });

  it('drops silence and keeps the voiced frames', () => {
    const pcm = new Float32Array(16000 * 3);
    pcm.set(tone(440, 1), 16000);
    const { energyDb } = mfccFrames(pcm);
    const kept = voicedFrameIndexes(energyDb);
    expect(kept.length).toBeGreaterThan(95);
    expect(kept.length).toBeLessThan(105);
    expect(kept.every((f) => f * 160 >= 16000 - 400 && f * 160 < 32000)).toBe(true);
    expect(voiceFeatures(new Float32Array(16000)).frames).toBe(0);
  });

  it('normalises each dimension to mean 0 and deviation 1', () => {
    const f = voiceFeatures(Float32Array.from(tone(220, 2), (x, i) => x + 0.2 * Math.sin(i / 7) * Math.sin(i / 1300)));
    for (const d of [0, 5, 25]) {
      let s = 0;
      let s2 = 0;
      for (let i = 0; i < f.frames; i++) {
        s += f.data[i * f.dims + d]!;
        s2 += f.data[i * f.dims + d]! ** 2;
      }
      expect(Math.abs(s / f.frames)).toBeLessThan(1e-3);
      expect(s2 / f.frames).toBeCloseTo(1, 2);
    }
  });

  it('gives deltas as the slope of a line', () => {
    const x = Float32Array.from({ length: 10 }, (_, i) => 3 * i);
    const d = deltaFrames(x, 10, 1);
    expect(d[5]).toBeCloseTo(3, 5);
  });
});

describe('background model, adaptation and scores', () => {
  const means = [
    [4, 0, 0],
    [-4, 0, 0],
    [0, 4, -4],
  ];
  const frames = gaussianFrames(means, 400, 7);

  it('finds the clusters of the frames and keeps them through bytes', () => {
    const ubm = trainUbm(frames, { components: 3, seed: 3 });
    const found = Array.from({ length: 3 }, (_, k) => Array.from(ubm.means.subarray(k * 3, k * 3 + 3)));
    for (const m of means) expect(Math.min(...found.map((f) => Math.hypot(f[0]! - m[0]!, f[1]! - m[1]!, f[2]! - m[2]!)))).toBeLessThan(0.2);
    for (const w of ubm.weights) expect(w).toBeCloseTo(1 / 3, 1);
    const back = gmmFromBytes(gmmToBytes(ubm), 3, 3);
    expect(Array.from(back.means)).toEqual(Array.from(Float32Array.from(ubm.means)));
  });

  it('trains in steps to the same model, letting timers run meanwhile, and stops when aborted', async () => {
    const big = gaussianFrames(means, 3000, 9);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const stepped = await trainUbmInSteps(big, { components: 3, seed: 3, iterations: 3 });
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
    expect(Array.from(stepped.means)).toEqual(Array.from(trainUbm(big, { components: 3, seed: 3, iterations: 3 }).means));
    const abort = new AbortController();
    abort.abort(new Error('cancelled'));
    await expect(trainUbmInSteps(big, { components: 3, signal: abort.signal })).rejects.toThrow('cancelled');
  });

  it("moves a speaker's means towards their frames and scores their frames above the background", () => {
    const ubm = trainUbm(frames, { components: 3, seed: 3 });
    const shifted = gaussianFrames(means.map((m) => [m[0]! + 1, m[1]!, m[2]! + 1]), 200, 11);
    const other = gaussianFrames(means.map((m) => [m[0]! - 1, m[1]!, m[2]! - 1]), 200, 12);
    const speaker = adaptMeans(ubm, shifted);
    const rival = adaptMeans(ubm, other);
    const probe = gaussianFrames(means.map((m) => [m[0]! + 1, m[1]!, m[2]! + 1]), 50, 13);
    const [own, theirs] = scoreSpeakers(ubm, [speaker, rival], probe);
    expect(own).toBeGreaterThan(0);
    expect(theirs).toBeLessThan(0);
    // No frames: the UBM's own means.
    expect(Array.from(adaptMeans(ubm, { data: new Float32Array(0), frames: 0, dims: 3 }))).toEqual(Array.from(ubm.means));
  });
});

describe('sample rate', () => {
  it('is the rate the speaker contract gives engines (16 kHz mono WAV)', async () => {
    const { VOICE_SAMPLE_RATE: contract } = await import('@linguaport/sdk/server');
    expect(VOICE_SAMPLE_RATE).toBe(contract);
  });
});
