import { readWavPcm, writeWavPcm } from '@linguaport/media';

/**
 * Long recordings are recognised in pieces of at most a minute, each cut in the middle of the longest
 * quiet stretch of its last ten seconds (a pause, not the middle of a word): the job reports progress and saves
 * a checkpoint after each piece, so a two-hour video is not one silent hour-long call, and a restart
 * carries on from the last piece done.
 */
export interface SpeechChunk {
  /** Seconds from the start of the whole recording. */
  offset: number;
  seconds: number;
  /** The piece as a 16-bit mono WAV. */
  wav: Uint8Array;
}

/** Kept under its old name for the area's tests and callers. */
export const wavBytes = writeWavPcm;


export function splitSpeech(wav: Uint8Array, maxSeconds = 60, searchSeconds = 10): SpeechChunk[] {
  const { samples: all, sampleRate, channels } = readWavPcm(wav);
  // Mono as extractAudio writes it; a stereo file keeps its first channel.
  const samples = channels === 1 ? all : all.filter((_, i) => i % channels === 0);
  const total = samples.length;
  const max = Math.round(maxSeconds * sampleRate);
  if (total <= max) return [{ offset: 0, seconds: total / sampleRate, wav: channels === 1 ? wav : wavBytes(samples, sampleRate) }];
  const frame = Math.round(sampleRate * 0.02);
  const out: SpeechChunk[] = [];
  let start = 0;
  while (start < total) {
    let end = total;
    if (total - start > max) {
      // Frames' energies over the window; the cut goes in the middle of the longest run of quiet frames
      // (a pause between sentences), not in the first silent frame (a stop consonant's closure is silent too).
      const from = Math.max(start, start + max - Math.round(searchSeconds * sampleRate));
      const energies: number[] = [];
      for (let f = from; f + frame <= start + max; f += frame) {
        let energy = 0;
        for (let i = f; i < f + frame; i++) energy += samples[i]! * samples[i]!;
        energies.push(energy / frame);
      }
      const mean = energies.reduce((a, b) => a + b, 0) / Math.max(1, energies.length);
      const quiet = Math.min(...energies) + mean * 0.02;
      let best = { at: energies.length - 1, length: 0 };
      let run = 0;
      energies.forEach((e, i) => {
        run = e <= quiet ? run + 1 : 0;
        if (run > best.length) best = { at: i - run + 1, length: run };
      });
      end = energies.length ? from + Math.round((best.at + best.length / 2) * frame) : start + max;
    }
    const piece = samples.subarray(start, end);
    out.push({ offset: start / sampleRate, seconds: piece.length / sampleRate, wav: wavBytes(piece, sampleRate) });
    start = end;
  }
  return out;
}
