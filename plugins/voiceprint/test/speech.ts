import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inScratch, mediaInputArgs, runTool } from '@linguaport/sdk/server';

/**
 * Speakers made with espeak-ng for tests and the benchmark: a voice with a variant (`en+f3`), a pitch
 * (`-p`) and a speed (`-s`) speak the same way every time, and two such speakers differ as two people do
 * in the things MFCC sees (formants, pitch, timbre).
 */
export interface SyntheticSpeaker {
  name: string;
  voice: string;
  pitch: number;
  speed: number;
}

/** espeak-ng's own WAV (22,050 Hz): what a user would upload. */
export async function speakWav(speaker: SyntheticSpeaker, text: string): Promise<Buffer> {
  return inScratch(async (dir) => {
    const out = join(dir, 'speech.wav');
    await runTool('espeak-ng', ['-v', speaker.voice, '-p', String(speaker.pitch), '-s', String(speaker.speed), '-w', out, text], { timeoutMs: 30_000 });
    return readFile(out);
  });
}

/**
 * The same speech as 16 kHz mono samples (through ffmpeg, as uploads go); `filter` is an ffmpeg audio
 * filter chain the speech passes through first (a telephone band, noise, a quieter microphone).
 */
export async function speakPcm(speaker: SyntheticSpeaker, text: string, filter?: string): Promise<Float32Array> {
  return inScratch(async (dir) => {
    const wav = join(dir, 'speech.wav');
    const raw = join(dir, 'speech.raw');
    await runTool('espeak-ng', ['-v', speaker.voice, '-p', String(speaker.pitch), '-s', String(speaker.speed), '-w', wav, text], { timeoutMs: 30_000 });
    await runTool('ffmpeg', ['-hide_banner', '-loglevel', 'error', ...mediaInputArgs(wav, 'wav'), ...(filter ? ['-af', filter] : []), '-ac', '1', '-ar', '16000', '-f', 's16le', raw], { timeoutMs: 30_000 });
    const bytes = await readFile(raw);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return Float32Array.from({ length: bytes.byteLength >> 1 }, (_, i) => view.getInt16(i * 2, true) / 32768);
  });
}

/** Speakers none of which is among the plugin's background voices (server/background.ts). */
export const SPEAKERS: SyntheticSpeaker[] = [
  { name: 'Alice', voice: 'en+f3', pitch: 70, speed: 160 },
  { name: 'Bob', voice: 'en-us+m2', pitch: 40, speed: 150 },
  { name: 'Carol', voice: 'en+f1', pitch: 58, speed: 170 },
  { name: 'Dave', voice: 'en+m3', pitch: 52, speed: 165 },
  { name: 'Erin', voice: 'en-us+f4', pitch: 64, speed: 155 },
  { name: 'Frank', voice: 'en-gb-scotland+m4', pitch: 45, speed: 160 },
  { name: 'Grace', voice: 'en-029+f2', pitch: 55, speed: 175 },
  { name: 'Heidi', voice: 'en+klatt', pitch: 50, speed: 158 },
  { name: 'Ivan', voice: 'en-us+m7', pitch: 35, speed: 145 },
  { name: 'Judy', voice: 'en-gb+f4', pitch: 75, speed: 168 },
];

/** Sentences to enrol with. */
export const ENROL_TEXTS = [
  'The quick brown fox jumps over the lazy dog near the quiet river bank.',
  'Please send the signed contract to our office before the end of the week.',
  'My favourite season is autumn, when the leaves turn red and gold in the park.',
];

/** Other sentences, never enrolled: identification is tested on these. */
export const HELD_OUT_TEXTS = [
  'Yesterday the train from the northern city arrived almost two hours late.',
  'Could you translate this letter into Spanish and French by Monday morning?',
  'Seven children were playing football in the garden behind the old school.',
  'We need more paper for the printer on the third floor of the building.',
];
