import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inScratch, mediaInputArgs, runTool } from '@linguaport/sdk/server';

/**
 * Test speech: espeak-ng sentences as 16 kHz mono 16-bit samples (through ffmpeg), with silences between.
 * Slow (120 words a minute) and at half volume: pocketsphinx's front end clips on espeak's full scale.
 */

export async function speak(text: string, voice = 'en-us', speed = 120): Promise<Int16Array> {
  return inScratch(async (dir) => {
    const wav = join(dir, 'speech.wav');
    const raw = join(dir, 'speech.raw');
    await runTool('espeak-ng', ['-v', voice, '-s', String(speed), '-w', wav, text], { timeoutMs: 30_000 });
    await runTool('ffmpeg', ['-hide_banner', '-loglevel', 'error', ...mediaInputArgs(wav, 'wav'), '-af', 'volume=0.5', '-ac', '1', '-ar', '16000', '-f', 's16le', raw], { timeoutMs: 30_000 });
    const bytes = await readFile(raw);
    return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  });
}

export const silence = (seconds: number) => new Int16Array(Math.round(seconds * 16_000));

export function concat(parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Sends the samples in frames of `frameMs`, paced at `speed` times real time. */
export async function stream(send: (frame: Buffer) => void, samples: Int16Array, frameMs = 200, speed = 1): Promise<void> {
  const per = Math.round((16_000 * frameMs) / 1000);
  const started = Date.now();
  for (let at = 0, n = 0; at < samples.length; at += per, n++) {
    const due = started + (n * frameMs) / speed;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const chunk = samples.subarray(at, Math.min(samples.length, at + per));
    send(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
}

/** A 16 kHz mono 16-bit PCM WAV of the samples (the fake microphone's file). */
export function wavFile(samples: Int16Array): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.byteLength, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.byteLength, 40);
  return Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)]);
}
