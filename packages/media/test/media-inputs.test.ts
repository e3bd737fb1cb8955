import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { burnSubtitles, convertMedia, cutMedia, extractAudio, MediaError, probeMedia, probeUpload, readWavPcm, runFfmpeg } from '../src/media.js';
import { mediaInputArgs, runTool, startWarmTool, ToolError, unnamedMediaInput } from '@linguaport/spawner';

vi.setConfig({ testTimeout: 60_000 });

// Another user's stored result (secret.mp3, secret.ts) and uploads that only point at it: an HLS
// playlist and an ffconcat list, each under a media name and under none. Made here; nothing checked in.
let dir: string;
const at = (name: string) => join(dir, name);
const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);
const refusals = ['playlist.m3u8', 'voice.mp3', 'upload', 'segments.ts.m3u8', 'list.ffconcat', 'list.wav'];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'media-inputs-test-'));
  execFileSync('espeak-ng', ['-v', 'en', '-w', at('secret.wav'), 'The account number is four four seven.']);
  ffmpeg('-i', at('secret.wav'), '-c:a', 'libmp3lame', at('secret.mp3'));
  ffmpeg('-i', at('secret.wav'), '-c:a', 'mp2', '-f', 'mpegts', at('secret.ts'));
  const hls = (segment: string) => `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\n${segment}\n#EXT-X-ENDLIST\n`;
  for (const name of ['playlist.m3u8', 'voice.mp3', 'upload']) writeFileSync(at(name), hls(at('secret.mp3')));
  writeFileSync(at('segments.ts.m3u8'), hls(at('secret.ts')));
  for (const name of ['list.ffconcat', 'list.wav']) writeFileSync(at(name), `ffconcat version 1.0\nfile ${at('secret.mp3')}\n`);
  ffmpeg('-f', 'lavfi', '-i', 'color=c=blue:size=64x48:duration=2:rate=10', '-f', 'lavfi', '-i', 'sine=duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', at('clip.mp4'));
  ffmpeg('-i', at('clip.mp4'), '-c:v', 'libvpx', '-deadline', 'realtime', '-c:a', 'libopus', at('clip.webm'));
  writeFileSync(at('captions.srt'), '1\n00:00:00,000 --> 00:00:01,000\nHELLO\n');
}, 60_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('media helpers refuse playlists and lists of other files, however they are called', () => {
  it.each(refusals)('probeMedia refuses %s before opening what it names', async (name) => {
    const error = await probeMedia(at(name)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaError);
    expect((error as MediaError).code).toBe('format-refused');
    const fromBytes = await probeMedia(readFileSync(at(name))).catch((e: unknown) => e);
    expect((fromBytes as MediaError).code).toBe('format-refused');
  });

  it.each(refusals)('extract, convert, cut and burn refuse %s and write nothing', async (name) => {
    const out = (what: string) => at(`${name}.${what}`);
    const runs: Array<[string, () => Promise<unknown>]> = [
      ['extract.wav', () => extractAudio(at(name), out('extract.wav'))],
      ['convert.wav', () => convertMedia(at(name), out('convert.wav'), { to: 'wav' })],
      ['cut.mp3', () => cutMedia(at(name), out('cut.mp3'), { startSeconds: 0, endSeconds: 1 })],
      ['burn.mp4', () => burnSubtitles(at(name), at('captions.srt'), out('burn.mp4'))],
    ];
    for (const [what, run] of runs) {
      const error = await run().catch((e: unknown) => e);
      expect((error as MediaError).code, what).toBe('format-refused');
      expect(existsSync(out(what)), what).toBe(false);
    }
  });

  it('probeUpload answers the refusal in both languages', async () => {
    const result = await probeUpload(at('voice.mp3'), 'voice.mp3');
    expect(result.info).toBeUndefined();
    expect(result.refused!['en-US']).toMatch(/^voice\.mp3: playlists .* not accepted/);
    expect(result.refused!['zh-CN']).toMatch(/^voice\.mp3：不接受播放列表/);
    expect((await probeUpload(at('secret.mp3'), 'secret.mp3')).info?.demuxer).toBe('mp3');
  });

  it('runTool, startWarmTool and runFfmpeg refuse ffmpeg and ffprobe left to guess the format', async () => {
    for (const [tool, args] of [
      ['ffprobe', ['-v', 'error', '-show_format', at('playlist.m3u8')]],
      ['ffprobe', ['-protocol_whitelist', 'file', '-show_format', at('playlist.m3u8')]],
      ['/usr/bin/ffmpeg', ['-y', '-i', at('playlist.m3u8'), at('guessed.wav')]],
      ['ffmpeg', ['-y', '-f', 'hls', '-protocol_whitelist', 'file', '-i', at('playlist.m3u8'), at('guessed.wav')]],
    ] as const) {
      const error = await runTool(tool, [...args], { timeoutMs: 20_000 }).catch((e: unknown) => e);
      expect(error, `${tool} ${args.join(' ')}`).toBeInstanceOf(ToolError);
      expect((error as ToolError).exitCode).toBeNull();
    }
    expect(() => startWarmTool('ffmpeg', ['-i', 'pipe:0', at('warm.wav')], { idleMs: 1000 })).toThrow(ToolError);
    const error = await runFfmpeg(['-i', at('playlist.m3u8'), at('guessed.wav')]).catch((e: unknown) => e);
    expect((error as MediaError).code).toBe('bad-request');
    expect(existsSync(at('guessed.wav'))).toBe(false);
  });

  it('names what makes a command line unsafe', () => {
    const named = (...more: string[]) => [...mediaInputArgs(at('secret.wav'), 'wav'), ...more];
    expect(unnamedMediaInput('ffmpeg', named('-f', 'wav', at('o.wav')))).toBeNull();
    expect(unnamedMediaInput('ffmpeg', [...named(), ...mediaInputArgs(at('clip.mp4'), 'mov'), at('o.mp4')])).toBeNull();
    expect(unnamedMediaInput('ffmpeg', ['-f', 'wav', '-protocol_whitelist', 'pipe', '-i', 'pipe:0', at('o.wav')])).toBeNull();
    expect(unnamedMediaInput('pdftotext', ['-i', 'x'])).toBeNull();
    // Each input names its own: the second here guesses.
    expect(unnamedMediaInput('ffmpeg', [...named(), '-i', at('clip.mp4'), at('o.mp4')])).toMatch(/must name its demuxer/);
    for (const demuxer of ['hls', 'concat', 'dash', 'image2', 'tty', 'lavfi']) {
      expect(unnamedMediaInput('ffmpeg', ['-f', demuxer, '-protocol_whitelist', 'file', '-i', at('x'), at('o.wav')]), demuxer).toMatch(/must name its demuxer/);
      expect(() => mediaInputArgs(at('x'), demuxer)).toThrow();
    }
    expect(unnamedMediaInput('ffmpeg', ['-f', 'mp3', '-protocol_whitelist', 'file', '-i', `concat:${at('a.mp3')}|${at('b.mp3')}`, at('o.wav')])).toMatch(/absolute path/);
    expect(unnamedMediaInput('ffmpeg', ['-f', 'mp3', '-i', at('a.mp3'), at('o.wav')])).toMatch(/protocol_whitelist file/);
    expect(unnamedMediaInput('ffmpeg', ['-f', 'mp3', '-protocol_whitelist', 'file,http', '-i', at('a.mp3'), at('o.wav')])).toMatch(/protocol_whitelist file/);
    expect(unnamedMediaInput('ffmpeg', named('-attach', at('secret.mp3'), at('o.mkv')))).toMatch(/-attach/);
    expect(unnamedMediaInput('ffmpeg', named('-filter_complex', `amovie=${at('secret.mp3')}[a]`, at('o.wav')))).toMatch(/movie/);
    expect(unnamedMediaInput('ffmpeg', named('-filter:v', `scale=2:2,movie=${at('clip.mp4')}`, at('o.mp4')))).toMatch(/movie/);
    expect(unnamedMediaInput('ffmpeg', named('-filter_script:a', at('filters.txt'), at('o.wav')))).toMatch(/reads a file/);
    expect(unnamedMediaInput('ffprobe', ['-format_whitelist', 'wav,mp3', '-protocol_whitelist', 'file', at('x')])).toBeNull();
    expect(unnamedMediaInput('ffprobe', ['-format_whitelist', 'wav,hls', '-protocol_whitelist', 'file', at('x')])).toMatch(/must name its demuxer/);
  });
});

describe('real media still reads and converts', () => {
  it.each([
    ['secret.wav', 'wav', false],
    ['secret.mp3', 'mp3', false],
    ['secret.ts', 'mpegts', false],
    ['clip.mp4', 'mov', true],
    ['clip.webm', 'matroska', true],
  ] as const)('%s: probed as %s, converted and its sound extracted', async (name, demuxer, video) => {
    const info = await probeMedia(at(name));
    expect(info.demuxer).toBe(demuxer);
    expect(info.hasVideo).toBe(video);
    await convertMedia(at(name), at(`${name}.flac`), { to: 'flac' });
    expect((await probeMedia(at(`${name}.flac`))).demuxer).toBe('flac');
    await extractAudio(readFileSync(at(name)), at(`${name}.16k.wav`));
    expect(readWavPcm(readFileSync(at(`${name}.16k.wav`))).sampleRate).toBe(16000);
    await cutMedia(at(name), at(`${name}.cut.wav`), { startSeconds: 0.5, endSeconds: 1.5 });
    expect((await probeMedia(at(`${name}.cut.wav`))).duration).toBeCloseTo(1, 1);
  });

  it('burns SRT into a WebM, and refuses subtitles that are not SRT, WebVTT or ASS', async () => {
    await burnSubtitles(at('clip.webm'), at('captions.srt'), at('burned.webm'));
    expect((await probeMedia(at('burned.webm'))).hasVideo).toBe(true);
    const error = await burnSubtitles(at('clip.mp4'), at('playlist.m3u8'), at('burned-playlist.mp4')).catch((e: unknown) => e);
    expect((error as MediaError).code).toBe('bad-request');
    expect(existsSync(at('burned-playlist.mp4'))).toBe(false);
  });
});
