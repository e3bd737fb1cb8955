import { writeWavPcm } from '@linguaport/media';
/**
 * An energy-based voice-activity detector over 16 kHz mono 16-bit samples, fed as they arrive. Frames
 * of 20 ms; a frame is voiced when its level stands clearly above the noise floor (tracked on the
 * quiet frames) and above an absolute floor. An utterance starts after a few voiced frames (with a
 * short pre-roll kept, so the first consonant is not cut), pauses after `pauseMs` of silence (a hint:
 * recognition may start on what was said), ends after `endMs` of silence, and is cut at `maxMs`.
 */

export const FRAME_SAMPLES = 320;

export interface VadOptions {
  /** Silence that ends an utterance. */
  endMs?: number;
  /** Silence after which the utterance so far is probably complete (recognition may start). */
  pauseMs?: number;
  /** Longest utterance before it is cut. */
  maxMs?: number;
  /** Voiced frames in a row that start an utterance. */
  startFrames?: number;
  /** Kept before the first voiced frame. */
  prerollMs?: number;
  /** A frame is voiced this many dB above the noise floor... */
  marginDb?: number;
  /** ...and above this absolute level (dBFS). */
  minDb?: number;
}

export type VadEvent =
  | { type: 'start'; at: number }
  | { type: 'pause'; at: number; samples: Int16Array }
  | { type: 'resume'; at: number }
  | { type: 'end'; at: number; start: number; samples: Int16Array; cut: boolean };

/** Level of a frame in dBFS. */
export function frameDb(frame: Int16Array, from = 0, to = frame.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += frame[i]! * frame[i]!;
  const rms = Math.sqrt(sum / Math.max(1, to - from)) / 32768;
  return rms > 0 ? 20 * Math.log10(rms) : -120;
}

export class VoiceActivityDetector {
  private readonly o: Required<VadOptions>;
  /** Samples not yet a whole frame. */
  private rest = new Int16Array(0);
  /** Samples seen so far (the clock, in samples). */
  private clock = 0;
  private noiseDb = -70;
  private voicedRun = 0;
  private silentRun = 0;
  private paused = false;
  /** The utterance being heard (from its pre-roll), or null between utterances. */
  private utterance: { start: number; chunks: Int16Array[]; length: number } | null = null;
  /** Recent frames before an utterance starts (the pre-roll). */
  private recent: Int16Array[] = [];

  constructor(options: VadOptions = {}) {
    this.o = { endMs: 500, pauseMs: 150, maxMs: 15_000, startFrames: 3, prerollMs: 200, marginDb: 12, minDb: -50, ...options };
  }

  get speaking(): boolean {
    return this.utterance !== null;
  }

  /** Seconds of audio seen. */
  get seconds(): number {
    return this.clock / 16_000;
  }

  /** The utterance so far (for partial results), or null. */
  current(): Int16Array | null {
    return this.utterance ? joinChunks(this.utterance.chunks, this.utterance.length) : null;
  }

  push(samples: Int16Array): VadEvent[] {
    const all = new Int16Array(this.rest.length + samples.length);
    all.set(this.rest);
    all.set(samples, this.rest.length);
    const events: VadEvent[] = [];
    let at = 0;
    for (; at + FRAME_SAMPLES <= all.length; at += FRAME_SAMPLES) this.frame(all.slice(at, at + FRAME_SAMPLES), events);
    this.rest = all.slice(at);
    return events;
  }

  /** Ends an utterance in progress (the stream stops). */
  flush(): VadEvent[] {
    const u = this.utterance;
    if (!u) return [];
    this.utterance = null;
    return [{ type: 'end', at: this.clock / 16_000, start: u.start / 16_000, samples: joinChunks(u.chunks, u.length), cut: true }];
  }

  private frame(frame: Int16Array, events: VadEvent[]): void {
    const db = frameDb(frame);
    this.clock += frame.length;
    const voiced = db > Math.max(this.o.minDb, this.noiseDb + this.o.marginDb);
    if (!voiced) this.noiseDb = this.noiseDb + (db - this.noiseDb) * (db < this.noiseDb ? 0.3 : 0.05);
    const frameMs = (FRAME_SAMPLES / 16_000) * 1000;
    const u = this.utterance;
    if (!u) {
      this.recent.push(frame);
      const keep = Math.ceil(this.o.prerollMs / frameMs) + this.o.startFrames;
      if (this.recent.length > keep) this.recent.shift();
      this.voicedRun = voiced ? this.voicedRun + 1 : 0;
      if (this.voicedRun >= this.o.startFrames) {
        const length = this.recent.reduce((n, f) => n + f.length, 0);
        this.utterance = { start: this.clock - length, chunks: this.recent, length };
        this.recent = [];
        this.silentRun = 0;
        this.paused = false;
        events.push({ type: 'start', at: (this.clock - length) / 16_000 });
      }
      return;
    }
    u.chunks.push(frame);
    u.length += frame.length;
    this.silentRun = voiced ? 0 : this.silentRun + 1;
    const silentMs = this.silentRun * frameMs;
    if (voiced && this.paused) {
      this.paused = false;
      events.push({ type: 'resume', at: this.clock / 16_000 });
    }
    if (!this.paused && silentMs >= this.o.pauseMs) {
      this.paused = true;
      events.push({ type: 'pause', at: this.clock / 16_000, samples: joinChunks(u.chunks, u.length) });
    }
    const tooLong = (u.length / 16_000) * 1000 >= this.o.maxMs;
    if (silentMs >= this.o.endMs || tooLong) {
      this.utterance = null;
      this.voicedRun = 0;
      // What the pause hint saw is what ends (the silence after it adds nothing to recognise).
      events.push({ type: 'end', at: this.clock / 16_000, start: u.start / 16_000, samples: joinChunks(u.chunks, u.length), cut: tooLong && silentMs < this.o.endMs });
    }
  }
}

function joinChunks(chunks: Int16Array[], length: number): Int16Array {
  const out = new Int16Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** A 16 kHz mono 16-bit PCM WAV file of these samples. */
export const wavOf = (samples: Int16Array, sampleRate = 16_000): Uint8Array => writeWavPcm(samples, sampleRate);
