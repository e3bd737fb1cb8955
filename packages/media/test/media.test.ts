import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  burnSubtitles,
  convertMedia,
  cutMedia,
  escapeFilterValue,
  extractAudio,
  MediaError,
  probeMedia,
  readWavPcm,
  runFfmpeg,
} from '../src/media.js';
import { mediaInputArgs } from '@linguaport/spawner';

vi.setConfig({ testTimeout: 60_000 });

// Tiny media made here with ffmpeg's lavfi sources and espeak-ng: nothing is checked in.
let dir: string;
const at = (name: string) => join(dir, name);
const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);

function probeJson(path: string): { format: { duration: string; format_name: string }; streams: { codec_type: string; codec_name: string; sample_rate?: string; channels?: number }[] } {
  return JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path]).toString());
}

/** One grey frame at `seconds` as raw 8-bit pixels. */
function frameAt(path: string, seconds: number): Buffer {
  return execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-ss', String(seconds), '-i', path, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1']);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'media-test-'));
  ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=440:duration=3:sample_rate=44100', '-c:a', 'pcm_s16le', at('tone.wav'));
  // runFfmpeg reads files only (no lavfi source): a minute of tone for the runs that are stopped.
  ffmpeg('-f', 'lavfi', '-i', 'sine=duration=60:sample_rate=8000', '-c:a', 'pcm_s16le', at('minute.wav'));
  ffmpeg(
    '-f', 'lavfi', '-i', 'color=c=blue:size=160x120:duration=3:rate=10',
    '-f', 'lavfi', '-i', 'sine=frequency=330:duration=3',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', at('clip.mp4'),
  );
  execFileSync('espeak-ng', ['-v', 'en', '-w', at('speech.wav'), 'The quick brown fox jumps over the lazy dog.']);
  writeFileSync(at('notes.mp3'), 'This is a plain text file wearing an audio name.\n'.repeat(20));
  ffmpeg('-f', 'lavfi', '-i', 'color=c=red:size=32x32', '-frames:v', '1', at('still.png'));
}, 60_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('probeMedia', () => {
  it('reads a WAV tone: container, duration, sample rate, channels', async () => {
    const info = await probeMedia(at('tone.wav'));
    expect(info.format).toBe('wav');
    expect(info.duration).toBeCloseTo(3, 1);
    expect(info.size).toBe(readFileSync(at('tone.wav')).byteLength);
    expect(info.streams).toEqual([{ index: 0, kind: 'audio', codec: 'pcm_s16le', sampleRate: 44100, channels: 1, duration: expect.closeTo(3, 1) }]);
    expect(info).toMatchObject({ hasAudio: true, hasVideo: false });
  });

  it('reads a video with sound from its bytes: picture size and both streams', async () => {
    const info = await probeMedia(readFileSync(at('clip.mp4')));
    expect(info.format).toContain('mp4');
    expect(info.duration).toBeGreaterThan(2.9);
    expect(info.duration).toBeLessThan(3.2);
    const video = info.streams.find((s) => s.kind === 'video');
    const audio = info.streams.find((s) => s.kind === 'audio');
    expect(video).toMatchObject({ codec: 'h264', width: 160, height: 120 });
    expect(audio).toMatchObject({ codec: 'aac', channels: 1 });
    expect(info).toMatchObject({ hasAudio: true, hasVideo: true });
  });

  it('refuses a text file named .mp3 as unreadable (by content, not by name)', async () => {
    const error = await probeMedia(at('notes.mp3')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaError);
    expect((error as MediaError).code).toBe('unreadable');
    const fromBytes = await probeMedia(Buffer.from('hello, plain words\n')).catch((e: unknown) => e);
    expect((fromBytes as MediaError).code).toBe('unreadable');
  });

  it('refuses a still picture: readable, but no audio or video stream', async () => {
    const error = await probeMedia(at('still.png')).catch((e: unknown) => e);
    expect((error as MediaError).code).toBe('no-media-stream');
  });
});

describe('runFfmpeg', () => {
  it('reports rising progress that reaches 1', async () => {
    const seen: number[] = [];
    await runFfmpeg([...mediaInputArgs(at('tone.wav'), 'wav'), '-c:a', 'libmp3lame', '-f', 'mp3', at('progress.mp3')], {
      durationSeconds: 3,
      onProgress: (f) => seen.push(f),
    });
    expect(seen.at(-1)).toBe(1);
    expect(seen.every((f, i) => i === 0 || f >= seen[i - 1]!)).toBe(true);
    expect(probeJson(at('progress.mp3')).streams[0]!.codec_name).toBe('mp3');
  });

  it('stops when aborted, with progress short of the end', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    // -re reads the source at its own pace: 60 s of tone takes 60 s, unless aborted.
    const run = runFfmpeg(['-re', ...mediaInputArgs(at('minute.wav'), 'wav'), '-f', 'wav', at('aborted.wav')], {
      durationSeconds: 60,
      signal: controller.signal,
      onProgress: (f) => {
        seen.push(f);
        if (f > 0) controller.abort(new Error('cancelled by test'));
      },
    });
    const started = Date.now();
    await expect(run).rejects.toThrow('cancelled by test');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(Math.max(...seen)).toBeLessThan(1);
  });

  it('leaves no ffmpeg behind when the process that started it is killed with SIGKILL', async () => {
    const out = at('orphan-check.wav');
    const script = at('orphan.mts');
    writeFileSync(
      script,
      `import { runFfmpeg } from ${JSON.stringify(join(import.meta.dirname, '../src/media.ts'))};\n` +
        `await runFfmpeg(['-re', '-f', 'wav', '-protocol_whitelist', 'file', '-i', ${JSON.stringify(at('minute.wav'))}, '-f', 'wav', ${JSON.stringify(out)}], { durationSeconds: 60, onProgress: () => console.log('progress') });\n`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: join(import.meta.dirname, '../../..'), stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((started) => child.stdout.on('data', (d: Buffer) => d.toString().includes('progress') && started()));
    const ffmpegs = () => execFileSync('ps', ['-eo', 'args']).toString().split('\n').filter((l) => l.startsWith('ffmpeg') && l.includes(out));
    expect(ffmpegs()).toHaveLength(1);
    child.kill('SIGKILL');
    await expect.poll(ffmpegs, { timeout: 5_000, interval: 50 }).toEqual([]);
  });

  it('fails with the tool code and ffmpeg\'s words on a bad argument', async () => {
    const error = await runFfmpeg([...mediaInputArgs(at('missing.wav'), 'wav'), at('x.wav')]).catch((e: unknown) => e);
    expect((error as MediaError).code).toBe('tool');
    expect((error as MediaError).detail).toMatch(/No such file/);
  });
});

describe('extractAudio and readWavPcm', () => {
  it('gives 16 kHz mono 16-bit PCM from speech, which readWavPcm reads back', async () => {
    const out = at('speech-16k.wav');
    const fractions: number[] = [];
    const info = await extractAudio(at('speech.wav'), out, { onProgress: (f) => fractions.push(f) });
    expect(fractions.at(-1)).toBe(1);
    const wav = readWavPcm(readFileSync(out));
    expect(wav.sampleRate).toBe(16000);
    expect(wav.channels).toBe(1);
    expect(Math.abs(wav.samples.length / 16000 - info.duration)).toBeLessThan(0.05);
    // Speech, not silence: a good share of samples are loud.
    const loud = wav.samples.filter((s) => Math.abs(s) > 1000).length;
    expect(loud / wav.samples.length).toBeGreaterThan(0.05);
  });

  it('keeps stereo interleaved at the asked rate, from a video file', async () => {
    const out = at('clip-audio.wav');
    await extractAudio(at('clip.mp4'), out, { sampleRate: 8000, channels: 2 });
    const wav = readWavPcm(readFileSync(out));
    expect(wav).toMatchObject({ sampleRate: 8000, channels: 2 });
    expect(wav.samples.length / 2 / 8000).toBeCloseTo(3, 1);
  });

  it('refuses bytes that are not a 16-bit PCM WAV', async () => {
    expect(() => readWavPcm(Buffer.from('RIFF....WAVEnope'))).toThrow(MediaError);
    ffmpeg('-f', 'lavfi', '-i', 'sine=duration=0.2', '-c:a', 'pcm_f32le', at('float.wav'));
    expect(() => readWavPcm(readFileSync(at('float.wav')))).toThrow(/not 16-bit PCM/);
    const error = await extractAudio(at('still.png'), at('none.wav')).catch((e: unknown) => e);
    expect((error as MediaError).code).toBe('no-media-stream');
  });
});

describe('cutMedia', () => {
  it.each([
    ['clip.mp4', 'cut.mp4', 0.5, 2.0],
    ['tone.wav', 'cut.wav', 1.2, 2.7],
    ['tone.wav', 'cut-mp3.mp3', 0.25, 1.0],
  ])('cuts %s to %s from %s s to %s s, within 0.1 s', async (source, target, start, end) => {
    const fractions: number[] = [];
    await cutMedia(at(source), at(target), { startSeconds: start, endSeconds: end, onProgress: (f) => fractions.push(f) });
    const duration = Number(probeJson(at(target)).format.duration);
    expect(Math.abs(duration - (end - start))).toBeLessThan(0.1);
    expect(fractions.at(-1)).toBe(1);
  });

  it('refuses a range outside the file or backwards', async () => {
    const after = await cutMedia(at('tone.wav'), at('bad.wav'), { startSeconds: 5, endSeconds: 6 }).catch((e: unknown) => e);
    expect((after as MediaError).code).toBe('bad-request');
    const backwards = await cutMedia(at('tone.wav'), at('bad.wav'), { startSeconds: 2, endSeconds: 1 }).catch((e: unknown) => e);
    expect((backwards as MediaError).code).toBe('bad-request');
  });
});

describe('convertMedia', () => {
  it.each([
    ['tone.wav', 'mp3', 'mp3', null],
    ['tone.wav', 'ogg', 'vorbis', null],
    ['tone.wav', 'flac', 'flac', null],
    ['tone.wav', 'm4a', 'aac', null],
    ['clip.mp4', 'webm', 'opus', 'vp8'],
    ['clip.mp4', 'mkv', 'opus', 'h264'],
    ['clip.mp4', 'mov', 'aac', 'h264'],
    ['clip.mp4', 'wav', 'pcm_s16le', null],
  ] as const)('writes %s as %s, read back by ffprobe', async (source, to, audioCodec, videoCodec) => {
    const out = at(`converted-${source}.${to}`);
    await convertMedia(at(source), out, { to });
    const probed = probeJson(out);
    expect(probed.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe(audioCodec);
    expect(probed.streams.find((s) => s.codec_type === 'video')?.codec_name).toBe(videoCodec ?? undefined);
    expect(Number(probed.format.duration)).toBeCloseTo(3, 0);
  });
});

describe('burnSubtitles', () => {
  it('escapes quotes, colons, commas and brackets for the filter syntax', () => {
    expect(escapeFilterValue("/a/it's: [x], y;z")).toBe("/a/it\\\\\\'s\\\\: \\[x\\]\\, y\\;z");
  });

  it('draws the subtitles into the picture, from a path the filter syntax needs escaped', async () => {
    const odd = at("subs, it's: [odd]");
    mkdirSync(odd);
    const srt = join(odd, 'captions.srt');
    writeFileSync(srt, '1\n00:00:00,000 --> 00:00:03,000\nHELLO SUBTITLES\n');
    await burnSubtitles(at('clip.mp4'), srt, at('burned.mp4'), { fontName: 'DejaVu Sans', fontSize: 28 });
    await convertMedia(at('clip.mp4'), at('plain.mp4'), { to: 'mp4' });
    const burned = frameAt(at('burned.mp4'), 1);
    const plain = frameAt(at('plain.mp4'), 1);
    expect(burned.length).toBe(160 * 120);
    expect(plain.length).toBe(burned.length);
    let changed = 0;
    for (let i = 0; i < plain.length; i++) if (Math.abs(burned[i]! - plain[i]!) > 40) changed++;
    // White letters on blue: hundreds of pixels change, all of them in the lower half where libass draws.
    expect(changed).toBeGreaterThan(150);
    let upper = 0;
    for (let i = 0; i < plain.length / 2; i++) if (Math.abs(burned[i]! - plain[i]!) > 40) upper++;
    expect(upper).toBe(0);
  });

  it('burns WebVTT too, and refuses a file without a picture', async () => {
    const vtt = at('captions.vtt');
    writeFileSync(vtt, 'WEBVTT\n\n00:00.000 --> 00:03.000\nSECOND TRACK\n');
    await burnSubtitles(at('clip.mp4'), vtt, at('burned-vtt.mp4'));
    const burned = frameAt(at('burned-vtt.mp4'), 1);
    const plain = frameAt(at('clip.mp4'), 1);
    let changed = 0;
    for (let i = 0; i < plain.length; i++) if (Math.abs(burned[i]! - plain[i]!) > 40) changed++;
    expect(changed).toBeGreaterThan(100);
    const error = await burnSubtitles(at('tone.wav'), vtt, at('no.mp4')).catch((e: unknown) => e);
    expect((error as MediaError).code).toBe('no-video-stream');
  });
});
