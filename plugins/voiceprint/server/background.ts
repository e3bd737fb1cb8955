import { join } from 'node:path';
import { inScratch, runTool, VOICE_SAMPLE_RATE, type FileStorage, type Logger } from '@linguaport/sdk/server';
import { writeWavPcm } from '@linguaport/media';
import { decodeSpeech } from './audio.js';

/**
 * Background speech given to the speaker engine's `train` with the department's recordings: espeak-ng
 * voices no one enrols (the tests and the benchmark use other voices), each reading the same varied
 * paragraph. A method with a background model (the local GMM-UBM) learns from these and from the enrolled
 * speakers what speech in general sounds like, so a speaker is scored against speech at large and not only
 * against the other enrolled speakers; an embedding method ignores them. Made once, kept in the plugin's
 * storage as 16 kHz WAV.
 */
export const BACKGROUND_VOICES = [
  { voice: 'en-gb-x-rp+m6', pitch: 48, speed: 160 },
  { voice: 'en-gb-x-gbclan+f5', pitch: 66, speed: 165 },
  { voice: 'en-gb-x-gbcwmd+m8', pitch: 42, speed: 155 },
  { voice: 'en-us+f2', pitch: 60, speed: 170 },
  { voice: 'en+m5', pitch: 50, speed: 150 },
  { voice: 'en-029+m3', pitch: 38, speed: 160 },
  { voice: 'en-gb-scotland+f1', pitch: 72, speed: 158 },
  { voice: 'en-us+klatt3', pitch: 55, speed: 165 },
];

export const BACKGROUND_TEXT =
  'A rainbow is a meteorological phenomenon caused by reflection, refraction and dispersion of light in water droplets. ' +
  'It takes the form of a multicoloured circular arc. Numbers such as one hundred and forty two, dates like the fourth of July, ' +
  'and names of places like Birmingham or Zurich are all part of everyday speech.';

/** Kept in the plugin's storage, one 16 kHz WAV per voice (v1 held MFCC frames; it is no longer read). */
const keyOf = (i: number) => `background/espeak-v2/${i}.wav`;

export function backgroundSpeech(storage: FileStorage, logger: Logger) {
  let pending: Promise<Uint8Array[]> | null = null;

  async function make(): Promise<Uint8Array[]> {
    const out: Uint8Array[] = [];
    try {
      for (const [i, v] of BACKGROUND_VOICES.entries()) {
        const key = keyOf(i);
        if (await storage.exists(key)) {
          out.push(new Uint8Array(await storage.get(key)));
          continue;
        }
        const samples = await inScratch(async (dir) => {
          const wav = join(dir, 'background.wav');
          await runTool('espeak-ng', ['-v', v.voice, '-p', String(v.pitch), '-s', String(v.speed), '-w', wav, BACKGROUND_TEXT], { timeoutMs: 60_000 });
          return decodeSpeech(wav);
        });
        const wav = writeWavPcm(samples, VOICE_SAMPLE_RATE);
        await storage.put(key, Buffer.from(wav));
        out.push(wav);
      }
      return out;
    } catch (err) {
      // Without espeak-ng the background model learns from the enrolled speakers alone.
      logger.warn('voiceprint: no background speech (espeak-ng failed); training on enrolled speakers only', { error: (err as Error).message });
      return [];
    }
  }

  return {
    /** The background recordings (16 kHz mono WAV), made on first use; none when espeak-ng is not there. */
    recordings(): Promise<Uint8Array[]> {
      pending ??= make().catch((err) => {
        pending = null;
        throw err;
      });
      return pending;
    },
  };
}
