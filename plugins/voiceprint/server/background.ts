import { join } from 'node:path';
import { floatBytes, floatsOf, inScratch, joinFrames, runTool, voiceFeatures, type FileStorage, type FrameSet, type Logger } from '@linguaport/sdk/server';
import { decodeSpeech } from './audio.js';

/**
 * Background speech for the universal background model: espeak-ng voices no one enrols (the tests and
 * the benchmark use other voices), each reading the same varied paragraph. The background model learns
 * from these and from the department's enrolled speakers what speech in general sounds like, so a
 * speaker's model is scored against speech at large and not only against the other enrolled speakers.
 * Made once and kept in the plugin's storage.
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

const KEY = 'background/espeak-v1.f32';

export function backgroundSpeech(storage: FileStorage, logger: Logger) {
  let pending: Promise<FrameSet | null> | null = null;

  async function make(): Promise<FrameSet | null> {
    if (await storage.exists(KEY)) {
      const bytes = await storage.get(KEY);
      const dims = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
      const data = floatsOf(bytes.subarray(4));
      return { data, dims, frames: data.length / dims };
    }
    try {
      const sets: FrameSet[] = [];
      for (const v of BACKGROUND_VOICES) {
        const pcm = await inScratch(async (dir) => {
          const wav = join(dir, 'background.wav');
          await runTool('espeak-ng', ['-v', v.voice, '-p', String(v.pitch), '-s', String(v.speed), '-w', wav, BACKGROUND_TEXT], { timeoutMs: 60_000 });
          return decodeSpeech(wav);
        });
        sets.push(voiceFeatures(pcm));
      }
      const all = joinFrames(sets);
      const header = Buffer.alloc(4);
      header.writeUInt32LE(all.dims, 0);
      await storage.put(KEY, Buffer.concat([header, Buffer.from(floatBytes(all.data))]));
      return all;
    } catch (err) {
      // Without espeak-ng the background model learns from the enrolled speakers alone.
      logger.warn('voiceprint: no background speech (espeak-ng failed); training on enrolled speakers only', { error: (err as Error).message });
      return null;
    }
  }

  return {
    /** The background frames, made on first use; null when espeak-ng is not there. */
    frames(): Promise<FrameSet | null> {
      pending ??= make().catch((err) => {
        pending = null;
        throw err;
      });
      return pending;
    },
  };
}
