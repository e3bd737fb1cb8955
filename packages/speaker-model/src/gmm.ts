import { seededRandom } from './random.js';
/**
 * GMM-UBM speaker recognition (Reynolds, Quatieri and Dunn 2000): a diagonal Gaussian mixture trained
 * on many speakers' frames (the universal background model, k-means then EM), a speaker model made by
 * moving the UBM's means towards the speaker's frames (MAP adaptation), and a recording scored by its
 * average per-frame log-likelihood ratio between the speaker's model and the UBM, over each frame's
 * few best UBM components.
 */

export interface DiagonalGmm {
  components: number;
  dims: number;
  weights: Float64Array;
  /** components x dims. */
  means: Float64Array;
  /** components x dims. */
  variances: Float64Array;
}

/** Frames as rows of one array, as `voiceFeatures` gives them. */
export interface FrameSet {
  data: Float32Array;
  frames: number;
  dims: number;
}

export interface UbmTrainingOptions {
  components?: number;
  /** EM iterations after k-means. Default 10. */
  iterations?: number;
  /** Frames used at most (a seeded sample of the rest). Default 40,000. */
  maxFrames?: number;
  seed?: number;
}

const VARIANCE_FLOOR = 0.01;
const LOG_2PI = Math.log(2 * Math.PI);

/** Concatenates frame sets of one dimension. */
export function joinFrames(sets: FrameSet[]): FrameSet {
  const dims = sets[0]?.dims ?? 0;
  const frames = sets.reduce((n, s) => n + s.frames, 0);
  const data = new Float32Array(frames * dims);
  let at = 0;
  for (const s of sets) {
    data.set(s.data.subarray(0, s.frames * dims), at);
    at += s.frames * dims;
  }
  return { data, frames, dims };
}

function sample(set: FrameSet, max: number, next: () => number): FrameSet {
  if (set.frames <= max) return set;
  const { dims } = set;
  const data = new Float32Array(max * dims);
  // Every frame is kept with the same chance: a regular stride from a random start.
  const step = set.frames / max;
  const offset = next() * step;
  for (let i = 0; i < max; i++) {
    const f = Math.min(set.frames - 1, Math.floor(offset + i * step));
    data.set(set.data.subarray(f * dims, (f + 1) * dims), i * dims);
  }
  return { data, frames: max, dims };
}

function logSumExp(values: Float64Array, n = values.length): number {
  let max = -Infinity;
  for (let i = 0; i < n; i++) if (values[i]! > max) max = values[i]!;
  if (max === -Infinity) return max;
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.exp(values[i]! - max);
  return max + Math.log(s);
}

/** Per component: log weight - (dims log 2 pi + sum log variance) / 2, and the inverse variances. */
function prepared(gmm: DiagonalGmm) {
  const { components: K, dims: D } = gmm;
  const constants = new Float64Array(K);
  const inverse = new Float64Array(K * D);
  for (let k = 0; k < K; k++) {
    let logDet = 0;
    for (let d = 0; d < D; d++) {
      const v = gmm.variances[k * D + d]!;
      logDet += Math.log(v);
      inverse[k * D + d] = 1 / v;
    }
    constants[k] = Math.log(Math.max(gmm.weights[k]!, 1e-12)) - 0.5 * (D * LOG_2PI + logDet);
  }
  return { constants, inverse };
}

function componentLogLikelihood(x: Float32Array, at: number, means: Float64Array, k: number, D: number, constant: number, inverse: Float64Array): number {
  let s = 0;
  const base = k * D;
  for (let d = 0; d < D; d++) {
    const diff = x[at + d]! - means[base + d]!;
    s += diff * diff * inverse[base + d]!;
  }
  return constant - 0.5 * s;
}

/** k-means (k-means++ seeding, Lloyd iterations) then EM on a diagonal GMM. */
export function trainUbm(frames: FrameSet, options: UbmTrainingOptions = {}): DiagonalGmm {
  const steps = ubmSteps(frames, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same training in steps of a few thousand frames, giving the event loop its turn between them
 * (a server trains while it answers requests); stops with the signal's reason when it is aborted.
 */
export async function trainUbmInSteps(frames: FrameSet, options: UbmTrainingOptions & { signal?: AbortSignal } = {}): Promise<DiagonalGmm> {
  const steps = ubmSteps(frames, options);
  for (;;) {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Frames between two yields of the training. */
const STEP_FRAMES = 2000;

function* ubmSteps(frames: FrameSet, options: UbmTrainingOptions): Generator<void, DiagonalGmm> {
  const next = seededRandom(options.seed ?? 1);
  const set = sample(frames, options.maxFrames ?? 40_000, next);
  const { data, dims: D } = set;
  const N = set.frames;
  const K = Math.max(1, Math.min(options.components ?? 64, Math.floor(N / 20)));
  if (N < K || N === 0) throw new Error(`too few frames (${N}) for a background model`);

  // k-means++ on a sample of at most 8,000 frames.
  const seedSet = sample(set, 8000, next);
  const means = new Float64Array(K * D);
  const first = Math.floor(next() * seedSet.frames);
  for (let d = 0; d < D; d++) means[d] = seedSet.data[first * D + d]!;
  const nearest = new Float64Array(seedSet.frames).fill(Infinity);
  for (let k = 1; k < K; k++) {
    if (k % 8 === 0) yield;
    let total = 0;
    for (let f = 0; f < seedSet.frames; f++) {
      let s = 0;
      for (let d = 0; d < D; d++) {
        const diff = seedSet.data[f * D + d]! - means[(k - 1) * D + d]!;
        s += diff * diff;
      }
      if (s < nearest[f]!) nearest[f] = s;
      total += nearest[f]!;
    }
    let pick = next() * total;
    let chosen = seedSet.frames - 1;
    for (let f = 0; f < seedSet.frames; f++) {
      pick -= nearest[f]!;
      if (pick <= 0) {
        chosen = f;
        break;
      }
    }
    for (let d = 0; d < D; d++) means[k * D + d] = seedSet.data[chosen * D + d]!;
  }
  const assign = new Int32Array(N);
  for (let it = 0; it < 6; it++) {
    for (let f = 0; f < N; f++) {
      if (f % STEP_FRAMES === STEP_FRAMES - 1) yield;
      let best = 0;
      let bestD = Infinity;
      for (let k = 0; k < K; k++) {
        let s = 0;
        for (let d = 0; d < D; d++) {
          const diff = data[f * D + d]! - means[k * D + d]!;
          s += diff * diff;
        }
        if (s < bestD) {
          bestD = s;
          best = k;
        }
      }
      assign[f] = best;
    }
    const sums = new Float64Array(K * D);
    const counts = new Float64Array(K);
    for (let f = 0; f < N; f++) {
      const k = assign[f]!;
      counts[k]!++;
      for (let d = 0; d < D; d++) sums[k * D + d] += data[f * D + d]!;
    }
    for (let k = 0; k < K; k++) if (counts[k]) for (let d = 0; d < D; d++) means[k * D + d] = sums[k * D + d]! / counts[k]!;
  }
  const gmm: DiagonalGmm = { components: K, dims: D, weights: new Float64Array(K), means, variances: new Float64Array(K * D) };
  {
    const counts = new Float64Array(K);
    const sq = new Float64Array(K * D);
    for (let f = 0; f < N; f++) {
      const k = assign[f]!;
      counts[k]!++;
      for (let d = 0; d < D; d++) {
        const diff = data[f * D + d]! - means[k * D + d]!;
        sq[k * D + d] += diff * diff;
      }
    }
    for (let k = 0; k < K; k++) {
      gmm.weights[k] = Math.max(counts[k]!, 1) / N;
      for (let d = 0; d < D; d++) gmm.variances[k * D + d] = Math.max(counts[k] ? sq[k * D + d]! / counts[k]! : 1, VARIANCE_FLOOR);
    }
  }

  const ll = new Float64Array(K);
  for (let it = 0; it < (options.iterations ?? 10); it++) {
    const { constants, inverse } = prepared(gmm);
    const n = new Float64Array(K);
    const fx = new Float64Array(K * D);
    const fxx = new Float64Array(K * D);
    for (let f = 0; f < N; f++) {
      if (f % STEP_FRAMES === STEP_FRAMES - 1) yield;
      const at = f * D;
      for (let k = 0; k < K; k++) ll[k] = componentLogLikelihood(data, at, gmm.means, k, D, constants[k]!, inverse);
      const total = logSumExp(ll);
      for (let k = 0; k < K; k++) {
        const g = Math.exp(ll[k]! - total);
        if (g < 1e-6) continue;
        n[k] += g;
        for (let d = 0; d < D; d++) {
          const x = data[at + d]!;
          fx[k * D + d] += g * x;
          fxx[k * D + d] += g * x * x;
        }
      }
    }
    for (let k = 0; k < K; k++) {
      // A component that lost its frames keeps its old place rather than collapsing.
      if (n[k]! < 1e-3) continue;
      gmm.weights[k] = n[k]! / N;
      for (let d = 0; d < D; d++) {
        const m = fx[k * D + d]! / n[k]!;
        gmm.means[k * D + d] = m;
        gmm.variances[k * D + d] = Math.max(fxx[k * D + d]! / n[k]! - m * m, VARIANCE_FLOOR);
      }
    }
    let w = 0;
    for (let k = 0; k < K; k++) w += gmm.weights[k]!;
    for (let k = 0; k < K; k++) gmm.weights[k] = gmm.weights[k]! / w;
  }
  return gmm;
}

/**
 * A speaker's means: each UBM mean moved towards the speaker's frames in proportion to how many of
 * them the component explains (relevance factor `relevance`, 16 by the paper).
 */
export function adaptMeans(ubm: DiagonalGmm, frames: FrameSet, relevance = 16): Float64Array {
  const { components: K, dims: D } = ubm;
  const { constants, inverse } = prepared(ubm);
  const n = new Float64Array(K);
  const fx = new Float64Array(K * D);
  const ll = new Float64Array(K);
  for (let f = 0; f < frames.frames; f++) {
    const at = f * D;
    for (let k = 0; k < K; k++) ll[k] = componentLogLikelihood(frames.data, at, ubm.means, k, D, constants[k]!, inverse);
    const total = logSumExp(ll);
    for (let k = 0; k < K; k++) {
      const g = Math.exp(ll[k]! - total);
      if (g < 1e-6) continue;
      n[k] += g;
      for (let d = 0; d < D; d++) fx[k * D + d] += g * frames.data[at + d]!;
    }
  }
  const means = new Float64Array(K * D);
  for (let k = 0; k < K; k++) {
    const alpha = n[k]! / (n[k]! + relevance);
    for (let d = 0; d < D; d++) {
      const ubmMean = ubm.means[k * D + d]!;
      means[k * D + d] = n[k]! > 0 ? alpha * (fx[k * D + d]! / n[k]!) + (1 - alpha) * ubmMean : ubmMean;
    }
  }
  return means;
}

/**
 * Average per-frame log-likelihood ratio of each speaker model (adapted means) against the UBM, the
 * models evaluated on each frame's `top` best UBM components. Positive: more like the speaker.
 */
export function scoreSpeakers(ubm: DiagonalGmm, speakerMeans: Float64Array[], frames: FrameSet, top = 5): number[] {
  const { components: K, dims: D } = ubm;
  const { constants, inverse } = prepared(ubm);
  const C = Math.min(top, K);
  const ll = new Float64Array(K);
  const best = new Int32Array(C);
  const bestLl = new Float64Array(C);
  const spk = new Float64Array(C);
  const sums = new Float64Array(speakerMeans.length);
  for (let f = 0; f < frames.frames; f++) {
    const at = f * D;
    for (let k = 0; k < K; k++) ll[k] = componentLogLikelihood(frames.data, at, ubm.means, k, D, constants[k]!, inverse);
    const ubmLl = logSumExp(ll);
    bestLl.fill(-Infinity);
    for (let k = 0; k < K; k++) {
      const v = ll[k]!;
      if (v <= bestLl[C - 1]!) continue;
      let i = C - 1;
      while (i > 0 && bestLl[i - 1]! < v) {
        bestLl[i] = bestLl[i - 1]!;
        best[i] = best[i - 1]!;
        i--;
      }
      bestLl[i] = v;
      best[i] = k;
    }
    speakerMeans.forEach((means, s) => {
      for (let c = 0; c < C; c++) spk[c] = componentLogLikelihood(frames.data, at, means, best[c]!, D, constants[best[c]!]!, inverse);
      sums[s] += logSumExp(spk, C) - ubmLl;
    });
  }
  return Array.from(sums, (s) => (frames.frames ? s / frames.frames : 0));
}

/** The model as bytes (float32), for a table: weights, means, variances. */
export function gmmToBytes(gmm: DiagonalGmm): Uint8Array {
  const out = new Float32Array(gmm.components * (1 + 2 * gmm.dims));
  out.set(gmm.weights, 0);
  out.set(gmm.means, gmm.components);
  out.set(gmm.variances, gmm.components * (1 + gmm.dims));
  return new Uint8Array(out.buffer);
}

export function gmmFromBytes(bytes: Uint8Array, components: number, dims: number): DiagonalGmm {
  const f = floatsOf(bytes);
  if (f.length !== components * (1 + 2 * dims)) throw new Error('the stored background model does not match its size');
  return {
    components,
    dims,
    weights: Float64Array.from(f.subarray(0, components)),
    means: Float64Array.from(f.subarray(components, components * (1 + dims))),
    variances: Float64Array.from(f.subarray(components * (1 + dims))),
  };
}

/** The speaker method of these functions as speaker engines name it (bytes below are of it). */
export const GMM_UBM_METHOD = 'mfcc-gmm-ubm/1';

/**
 * A background model as one self-describing value, as the local speaker engine keeps it: an 8-byte
 * header (components, dims: little-endian uint32) before the model's `gmmToBytes`.
 */
export function backgroundModelBytes(components: number, dims: number, gmm: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + gmm.byteLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, components, true);
  view.setUint32(4, dims, true);
  out.set(gmm, 8);
  return out;
}

/** The model of `backgroundModelBytes`; throws when the bytes are not one. */
export function backgroundModelOf(bytes: Uint8Array): DiagonalGmm {
  if (bytes.byteLength < 8) throw new Error('too short for a background model');
  const view = new DataView(bytes.buffer, bytes.byteOffset, 8);
  return gmmFromBytes(bytes.subarray(8), view.getUint32(0, true), view.getUint32(4, true));
}

/** Float32 values of stored bytes (copied: a database buffer need not be aligned). */
export function floatsOf(bytes: Uint8Array): Float32Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

export const floatBytes = (values: Float32Array | Float64Array): Uint8Array => new Uint8Array((values instanceof Float32Array ? values : Float32Array.from(values)).slice().buffer);
