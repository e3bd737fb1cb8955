/**
 * Voice features for speaker recognition: MFCC with deltas over 16 kHz mono PCM, silence dropped by
 * frame energy, then cepstral mean and variance normalisation over the utterance (which takes out the
 * channel: the microphone, the file's gain). Frames are rows of one Float32Array (`frames x dims`).
 */

export const VOICE_SAMPLE_RATE = 16_000;

export interface VoiceFeatureOptions {
  /** Cepstral coefficients kept, c1..cN (c0, the frame energy, is left out). Default 20. */
  ceps?: number;
  /** Mel filters. Default 40. */
  filters?: number;
  /** Frames whose energy is this many dB under the loudest frame count as silence. Default 35. */
  silenceDb?: number;
}

export interface VoiceFeatures {
  /** Voiced frames, each `dims` values: the cepstra then their deltas. */
  data: Float32Array;
  frames: number;
  dims: number;
  /** Seconds of speech kept after silence was dropped. */
  speechSeconds: number;
}

const FRAME = 400; // 25 ms at 16 kHz
const HOP = 160; // 10 ms
const FFT_SIZE = 512;
const PRE_EMPHASIS = 0.97;

const hamming = Float64Array.from({ length: FRAME }, (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (FRAME - 1)));

/** In-place iterative radix-2 FFT of (re, im), length a power of two. */
function fft(re: Float64Array, im: Float64Array) {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      let t = re[i]!;
      re[i] = re[j]!;
      re[j] = t;
      t = im[i]!;
      im[i] = im[j]!;
      im[j] = t;
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    const half = len >> 1;
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < half; k++) {
        const a = i + k;
        const b = a + half;
        const xr = re[b]! * cr - im[b]! * ci;
        const xi = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
        const ncr = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = ncr;
      }
    }
  }
}

const melOf = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const hzOf = (mel: number) => 700 * (10 ** (mel / 2595) - 1);

/** Triangular mel filters over the FFT bins, 20 Hz to 7.6 kHz. */
function melFilterbank(filters: number): Float64Array[] {
  const bins = FFT_SIZE / 2 + 1;
  const lo = melOf(20);
  const hi = melOf(7600);
  const edges = Array.from({ length: filters + 2 }, (_, i) => (hzOf(lo + ((hi - lo) * i) / (filters + 1)) * FFT_SIZE) / VOICE_SAMPLE_RATE);
  return Array.from({ length: filters }, (_, m) => {
    const w = new Float64Array(bins);
    const [l, c, r] = [edges[m]!, edges[m + 1]!, edges[m + 2]!];
    for (let k = 0; k < bins; k++) {
      if (k > l && k <= c) w[k] = (k - l) / (c - l);
      else if (k > c && k < r) w[k] = (r - k) / (r - c);
    }
    return w;
  });
}

/** DCT-II rows for c1..cN over `filters` log energies. */
function dctMatrix(ceps: number, filters: number): Float64Array[] {
  return Array.from({ length: ceps }, (_, i) => Float64Array.from({ length: filters }, (_, j) => Math.cos((Math.PI * (i + 1) * (j + 0.5)) / filters)));
}

const banks = new Map<string, { mel: Float64Array[]; spans: Array<[number, number]>; dct: Float64Array[] }>();

/**
 * MFCC (c1..cN) of every 25 ms frame every 10 ms, and each frame's log energy (dB, full scale = 0).
 * `pcm` holds samples in -1..1 at 16 kHz.
 */
export function mfccFrames(pcm: Float32Array, ceps = 20, filters = 40): { cepstra: Float32Array; energyDb: Float64Array; frames: number } {
  const key = `${ceps}/${filters}`;
  let bank = banks.get(key);
  if (!bank) {
    const mel = melFilterbank(filters);
    // Each filter's non-zero bins, so a frame sums only over them.
    const spans = mel.map((w): [number, number] => {
      const first = w.findIndex((v) => v > 0);
      return first < 0 ? [0, 0] : [first, w.length - [...w].reverse().findIndex((v) => v > 0)];
    });
    banks.set(key, (bank = { mel, spans, dct: dctMatrix(ceps, filters) }));
  }
  const frames = pcm.length < FRAME ? 0 : 1 + Math.floor((pcm.length - FRAME) / HOP);
  const cepstra = new Float32Array(frames * ceps);
  const energyDb = new Float64Array(frames);
  const re = new Float64Array(FFT_SIZE);
  const im = new Float64Array(FFT_SIZE);
  const logMel = new Float64Array(filters);
  const bins = FFT_SIZE / 2 + 1;
  const power = new Float64Array(bins);
  for (let f = 0; f < frames; f++) {
    const start = f * HOP;
    let energy = 0;
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < FRAME; i++) {
      const x = pcm[start + i]!;
      energy += x * x;
      const prev = start + i > 0 ? pcm[start + i - 1]! : 0;
      re[i] = (x - PRE_EMPHASIS * prev) * hamming[i]!;
    }
    energyDb[f] = 10 * Math.log10(energy / FRAME + 1e-12);
    fft(re, im);
    for (let k = 0; k < bins; k++) power[k] = re[k]! * re[k]! + im[k]! * im[k]!;
    for (let m = 0; m < filters; m++) {
      const w = bank.mel[m]!;
      const [from, to] = bank.spans[m]!;
      let s = 0;
      for (let k = from; k < to; k++) s += w[k]! * power[k]!;
      logMel[m] = Math.log(s + 1e-10);
    }
    for (let c = 0; c < ceps; c++) {
      const row = bank.dct[c]!;
      let s = 0;
      for (let m = 0; m < filters; m++) s += row[m]! * logMel[m]!;
      cepstra[f * ceps + c] = s;
    }
  }
  return { cepstra, energyDb, frames };
}

/** Regression deltas over +-2 frames (the edges repeat the first and last frame). */
export function deltaFrames(x: Float32Array, frames: number, dims: number): Float32Array {
  const out = new Float32Array(frames * dims);
  const at = (f: number) => Math.min(frames - 1, Math.max(0, f)) * dims;
  for (let f = 0; f < frames; f++) {
    const p1 = at(f + 1);
    const m1 = at(f - 1);
    const p2 = at(f + 2);
    const m2 = at(f - 2);
    for (let d = 0; d < dims; d++) out[f * dims + d] = (x[p1 + d]! - x[m1 + d]! + 2 * (x[p2 + d]! - x[m2 + d]!)) / 10;
  }
  return out;
}

/** Frames loud enough to be speech: within `silenceDb` of the loudest frame and above -60 dBFS. */
export function voicedFrameIndexes(energyDb: Float64Array, silenceDb = 35): number[] {
  let max = -Infinity;
  for (const e of energyDb) if (e > max) max = e;
  const floor = Math.max(max - silenceDb, -60);
  const kept: number[] = [];
  energyDb.forEach((e, i) => {
    if (e > floor) kept.push(i);
  });
  return kept;
}

/** Subtracts each dimension's mean and divides by its deviation, in place. */
export function normaliseCepstra(x: Float32Array, frames: number, dims: number) {
  if (!frames) return;
  for (let d = 0; d < dims; d++) {
    let s = 0;
    let s2 = 0;
    for (let f = 0; f < frames; f++) {
      const v = x[f * dims + d]!;
      s += v;
      s2 += v * v;
    }
    const mean = s / frames;
    const sd = Math.sqrt(Math.max(s2 / frames - mean * mean, 1e-8));
    for (let f = 0; f < frames; f++) x[f * dims + d] = (x[f * dims + d]! - mean) / sd;
  }
}

/** The features of one recording: MFCC + deltas of its voiced frames, normalised. */
export function voiceFeatures(pcm: Float32Array, options: VoiceFeatureOptions = {}): VoiceFeatures {
  const ceps = options.ceps ?? 20;
  const { cepstra, energyDb, frames } = mfccFrames(pcm, ceps, options.filters ?? 40);
  const deltas = deltaFrames(cepstra, frames, ceps);
  const kept = voicedFrameIndexes(energyDb, options.silenceDb);
  const dims = ceps * 2;
  const data = new Float32Array(kept.length * dims);
  kept.forEach((f, i) => {
    data.set(cepstra.subarray(f * ceps, (f + 1) * ceps), i * dims);
    data.set(deltas.subarray(f * ceps, (f + 1) * ceps), i * dims + ceps);
  });
  normaliseCepstra(data, kept.length, dims);
  return { data, frames: kept.length, dims, speechSeconds: (kept.length * HOP) / VOICE_SAMPLE_RATE };
}

/** Samples of a 16-bit little-endian PCM buffer as floats in -1..1. */
export function pcm16ToFloat(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.byteLength >> 1);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true) / 32768;
  return out;
}
