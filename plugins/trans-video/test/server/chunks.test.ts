// Database: none
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWavPcm } from '@linguaport/media';
import { splitSpeech, wavBytes } from '../../server/chunks.js';

// Long recordings are recognised a piece at a time: pieces of at most the given length, each cut in the
// quietest stretch of its last seconds, together exactly the recording.

describe('speech pieces', () => {
  it('keeps a short recording whole', () => {
    const wav = wavBytes(new Int16Array(16000 * 5).fill(1000), 16000);
    expect(splitSpeech(wav)).toEqual([{ offset: 0, seconds: 5, wav }]);
  });

  it('cuts 130 s of tone at the silences near each minute, and the pieces add up to the recording', () => {
    const rate = 16000;
    const samples = new Int16Array(rate * 130);
    for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / rate));
    // Half-second pauses at 55 s and at 112 s: where the pieces should end.
    for (const at of [55, 112]) samples.fill(0, at * rate, (at + 0.5) * rate);
    const pieces = splitSpeech(wavBytes(samples, rate));
    expect(pieces).toHaveLength(3);
    expect(pieces[1]!.offset).toBeGreaterThanOrEqual(55);
    expect(pieces[1]!.offset).toBeLessThanOrEqual(55.5);
    expect(pieces[2]!.offset).toBeGreaterThanOrEqual(112);
    expect(pieces[2]!.offset).toBeLessThanOrEqual(112.5);
    for (const p of pieces) expect(p.seconds).toBeLessThanOrEqual(60);
    const joined = new Int16Array(samples.length);
    let at = 0;
    for (const p of pieces) {
      const part = readWavPcm(p.wav).samples;
      joined.set(part, at);
      at += part.length;
    }
    expect(at).toBe(samples.length);
    expect(Buffer.from(joined.buffer).equals(Buffer.from(samples.buffer))).toBe(true);
  });

  it('cuts real speech in the pause between two sentences', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunks-test-'));
    try {
      execFileSync('espeak-ng', ['-v', 'en-us', '-w', join(dir, 'a.wav'), 'The children are playing in the park.']);
      execFileSync('espeak-ng', ['-v', 'en-us', '-w', join(dir, 'b.wav'), 'The weather is nice today.']);
      execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', join(dir, 'a.wav'), '-f', 'lavfi', '-i', 'anullsrc=r=22050:cl=mono:d=1', '-i', join(dir, 'b.wav'),
        '-filter_complex', '[0:a][1:a][2:a]concat=n=3:v=0:a=1', '-ar', '16000', '-ac', '1', join(dir, 'speech.wav')]);
      const first = Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', join(dir, 'a.wav')]).toString());
      const wav = new Uint8Array(readFileSync(join(dir, 'speech.wav')));
      // Pieces of at most first + 1 s, the cut looked for in the last 1.5 s: the silence after the first sentence.
      const pieces = splitSpeech(wav, first + 1, 1.5);
      expect(pieces.length).toBeGreaterThanOrEqual(2);
      // The cut is in a quiet stretch: the 100 ms around it carry a small part of the speech's mean energy.
      const { samples } = readWavPcm(wav);
      const rms = (from: number, to: number) => Math.sqrt(samples.subarray(from, to).reduce((sum, x) => sum + x * x, 0) / Math.max(1, to - from));
      const cut = Math.round(pieces[1]!.offset * 16000);
      expect(rms(cut - 800, cut + 800)).toBeLessThan(rms(0, Math.round(first * 16000)) * 0.05);
      expect(pieces[1]!.offset).toBeLessThan(first + 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
