import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { inScratch, MEDIA_DEMUXERS, mediaDemuxerOf, mediaInputArgs, runTool, ToolError, unnamedMediaInput } from '@linguaport/spawner';

/**
 * Audio and video through ffmpeg and ffprobe (Debian's, /usr/bin): what a file holds (`probeMedia`),
 * ffmpeg with live progress (`runFfmpeg`), 16 kHz mono WAV for speech (`extractAudio`, `readWavPcm`),
 * cutting, converting between containers and burning subtitles into a picture. Every call has a
 * deadline and follows an abort signal (the task's), as `runTool` does. Inputs are read only by a
 * demuxer of `MEDIA_DEMUXERS`, named on every run: a playlist or a list of other files is refused.
 */

export type MediaInput = string | Uint8Array;

export type MediaErrorCode =
  /** ffprobe cannot read the bytes as any container: a text file, a picture format it does not know, a broken file. */
  | 'unreadable'
  /** Read by a demuxer media is not read with here: a playlist (HLS, DASH), a concat list, anything that names other files. */
  | 'format-refused'
  /** Readable, but no audio or video stream in it (a still picture, subtitles alone). */
  | 'no-media-stream'
  /** The operation needs a stream the file does not have (audio to extract, a picture to burn subtitles into). */
  | 'no-audio-stream'
  | 'no-video-stream'
  /** A cut whose start or end is outside the file, or end before start; an unknown target; a bad font. */
  | 'bad-request'
  /** ffmpeg or ffprobe failed or passed its deadline. */
  | 'tool';

export class MediaError extends Error {
  constructor(
    readonly code: MediaErrorCode,
    message: string,
    /** The tool's own last words, when a tool said something. */
    readonly detail = '',
  ) {
    super(message);
    this.name = 'MediaError';
  }
}

export type MediaStreamKind = 'audio' | 'video' | 'subtitle';

export interface MediaStreamInfo {
  index: number;
  kind: MediaStreamKind;
  codec: string;
  /** Video only. */
  width?: number;
  height?: number;
  /** Audio only. */
  sampleRate?: number;
  channels?: number;
  /** Seconds, when the container says. */
  duration?: number;
}

export interface MediaInfo {
  /** ffprobe's format name, e.g. `wav`, `mp3`, `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`. */
  format: string;
  /** The demuxer every later run reads it with (`-f`), one of MEDIA_DEMUXERS: `wav`, `mov`, `matroska`... */
  demuxer: string;
  /** Seconds (0 when the container does not say). */
  duration: number;
  /** Bytes. */
  size: number;
  streams: MediaStreamInfo[];
  hasAudio: boolean;
  hasVideo: boolean;
}

const PROBE_TIMEOUT_MS = 30_000;
const SETPRIV = process.platform === 'linux' && existsSync('/usr/bin/setpriv') ? '/usr/bin/setpriv' : null;
const DEFAULT_TIMEOUT_MS = 30 * 60_000;

// Formats ffprobe reads as "video" that are one still picture: a picture is not media here.
const STILL_IMAGE_FORMAT = /(^|,)(image2|[a-z0-9]+_pipe|gif|apng|webp)(,|$)/;

async function withInputFile<T>(input: MediaInput, fn: (path: string) => Promise<T>): Promise<T> {
  return inScratch(async (dir) => {
    // Without an extension ffprobe decides by content alone (a .txt name would pick its "tty" reader).
    const path = join(dir, 'input');
    if (typeof input === 'string') await symlink(resolve(input), path);
    else await writeFile(path, input);
    return fn(path);
  });
}

// ffmpeg logs from the demuxer it found: "[hls @ 0x55...] Format not on whitelist 'wav,...'".
const NOT_ON_WHITELIST = /\[([^\]\s@]+) @ 0x[0-9a-f]+\] Format not on whitelist/;

/** The MediaError for a format ffprobe recognised but media is not read with (`name`: its demuxer). */
function refusedFormat(name: string, detail: string): MediaError {
  if (STILL_IMAGE_FORMAT.test(name)) return new MediaError('no-media-stream', 'the file holds no audio or video stream (a picture)', detail);
  return new MediaError('format-refused', `${name} is not read as audio or video here (playlists and lists of other files are refused)`, detail);
}

/**
 * What `input` (a path or the bytes) holds, by content, not by name; MediaError when it is not audio or video.
 * Only the demuxers of MEDIA_DEMUXERS may read it, so a playlist is refused before any file it names is opened.
 */
export async function probeMedia(input: MediaInput, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<MediaInfo> {
  return withInputFile(input, async (path) => {
    let stdout: string;
    try {
      const args = ['-v', 'error', '-protocol_whitelist', 'file', '-format_whitelist', MEDIA_DEMUXERS.join(','), '-print_format', 'json', '-show_format', '-show_streams', path];
      ({ stdout } = await runTool('ffprobe', args, { timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS, signal: options.signal }));
    } catch (e) {
      if (options.signal?.aborted) throw e;
      const refused = e instanceof ToolError ? NOT_ON_WHITELIST.exec(e.detail) : null;
      if (refused) throw refusedFormat(refused[1]!, e instanceof ToolError ? e.detail : '');
      if (e instanceof ToolError && e.exitCode !== null) throw new MediaError('unreadable', 'not an audio or video file', e.detail);
      throw new MediaError('tool', e instanceof Error ? e.message : String(e), e instanceof ToolError ? e.detail : '');
    }
    return readProbe(stdout, typeof input === 'string' ? null : input.byteLength);
  });
}

interface ProbeJson {
  format?: { format_name?: string; duration?: string; size?: string };
  streams?: {
    index?: number;
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    sample_rate?: string;
    channels?: number;
    duration?: string;
    disposition?: { attached_pic?: number };
  }[];
}

function num(value: string | number | undefined): number | undefined {
  const n = typeof value === 'number' ? value : value === undefined ? NaN : Number(value);
  return Number.isFinite(n) ? n : undefined;
}

function readProbe(json: string, byteLength: number | null): MediaInfo {
  let parsed: ProbeJson;
  try {
    parsed = JSON.parse(json) as ProbeJson;
  } catch {
    throw new MediaError('tool', 'ffprobe answered something that is not JSON', json.slice(0, 200));
  }
  const format = parsed.format?.format_name ?? '';
  if (!parsed.format) throw new MediaError('unreadable', 'not an audio or video file');
  const demuxer = mediaDemuxerOf(format);
  if (!demuxer) throw refusedFormat(format, '');
  const still = STILL_IMAGE_FORMAT.test(format);
  const streams: MediaStreamInfo[] = [];
  for (const s of parsed.streams ?? []) {
    const kind = s.codec_type;
    if (kind !== 'audio' && kind !== 'video' && kind !== 'subtitle') continue;
    // A cover picture inside an MP3 or M4A is not the file's video.
    if (kind === 'video' && (still || s.disposition?.attached_pic === 1)) continue;
    const stream: MediaStreamInfo = { index: s.index ?? streams.length, kind, codec: s.codec_name ?? 'unknown' };
    if (kind === 'video') {
      stream.width = s.width;
      stream.height = s.height;
    }
    if (kind === 'audio') {
      stream.sampleRate = num(s.sample_rate);
      stream.channels = s.channels;
    }
    const d = num(s.duration);
    if (d !== undefined) stream.duration = d;
    streams.push(stream);
  }
  const hasAudio = streams.some((s) => s.kind === 'audio');
  const hasVideo = streams.some((s) => s.kind === 'video');
  if (!hasAudio && !hasVideo) throw new MediaError('no-media-stream', 'the file holds no audio or video stream');
  const duration = num(parsed.format.duration) ?? Math.max(0, ...streams.map((s) => s.duration ?? 0));
  return { format, demuxer, duration, size: num(parsed.format.size) ?? byteLength ?? 0, streams, hasAudio, hasVideo };
}

export interface FfmpegOptions {
  /** The output's length in seconds, for the progress fraction; without it progress is not reported. */
  durationSeconds?: number;
  /** 0..1, as ffmpeg reports its position (a few times a second); 1 once it finished. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** Default 30 minutes. */
  timeoutMs?: number;
  cwd?: string;
}

/**
 * Runs ffmpeg with `args` (inputs, filters, outputs: the caller's), adding `-progress pipe:1 -nostats`
 * to follow its position. Rejects with MediaError 'tool' when ffmpeg fails or passes the deadline,
 * with the signal's reason when aborted (the process group is killed either way). Every input must be
 * given as `mediaInputArgs` gives it (its demuxer and protocol named): MediaError 'bad-request' otherwise.
 */
export function runFfmpeg(args: string[], options: FfmpegOptions = {}): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    if (options.signal?.aborted) {
      reject(options.signal.reason ?? new Error('aborted'));
      return;
    }
    const unnamed = unnamedMediaInput('ffmpeg', args);
    if (unnamed) {
      reject(new MediaError('bad-request', unnamed));
      return;
    }
    const ffmpegArgs = ['-hide_banner', '-nostdin', '-y', '-v', 'error', '-progress', 'pipe:1', '-nostats', ...args];
    // ffmpeg outlives a server killed with SIGKILL (its own process group, and it ignores a closed
    // progress pipe): util-linux's setpriv has the kernel kill it when its parent dies.
    const [command, commandArgs] = SETPRIV ? [SETPRIV, ['--pdeathsig', 'KILL', '--', 'ffmpeg', ...ffmpegArgs]] : ['ffmpeg', ffmpegArgs];
    const child = spawn(command, commandArgs, {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let timedOut = false;
    let stderr = '';
    let pending = '';
    let last = -1;
    const report = (fraction: number) => {
      const f = Math.max(0, Math.min(1, fraction));
      if (f === last || !options.onProgress) return;
      last = f;
      options.onProgress(f);
    };
    const total = options.durationSeconds && options.durationSeconds > 0 ? options.durationSeconds * 1e6 : 0;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const eq = line.indexOf('=');
        if (eq < 0) continue;
        const key = line.slice(0, eq).trim();
        const value = line.slice(eq + 1).trim();
        // ffmpeg 5 writes microseconds under both names (out_time_ms is misnamed); N/A before the first frame.
        if ((key === 'out_time_us' || key === 'out_time_ms') && total > 0) {
          const us = Number(value);
          if (Number.isFinite(us) && us >= 0) report(Math.min(us / total, 0.999));
        } else if (key === 'progress' && value === 'end') report(1);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    const onAbort = () => kill();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (e) => {
      done();
      reject(new MediaError('tool', `ffmpeg could not start: ${e.message}`, e.message));
    });
    child.on('close', (code, sig) => {
      done();
      const detail = stderr.trim().split('\n').slice(-3).join(' ').slice(0, 400);
      if (options.signal?.aborted) reject(options.signal.reason ?? new Error('aborted'));
      else if (timedOut) reject(new MediaError('tool', `ffmpeg took longer than ${Math.round(timeoutMs / 1000)} s`, detail));
      else if (code === 0) {
        report(1);
        resolvePromise();
      } else reject(new MediaError('tool', `ffmpeg ended with ${sig ?? `code ${code}`}: ${detail}`, detail));
    });
  });
}

export interface MediaJobOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Output length for progress: the caller's, else the probe's. */
async function lengthOf(path: string, options: MediaJobOptions): Promise<MediaInfo> {
  return probeMedia(path, { signal: options.signal });
}

/**
 * The first audio stream of `input` as 16-bit PCM WAV (16 kHz mono by default: what speech
 * recognisers take). MediaError 'no-audio-stream' when there is none.
 */
export async function extractAudio(
  input: MediaInput,
  outPath: string,
  options: MediaJobOptions & { sampleRate?: number; channels?: number } = {},
): Promise<MediaInfo> {
  return withInputFile(input, async (path) => {
    const info = await lengthOf(path, options);
    if (!info.hasAudio) throw new MediaError('no-audio-stream', 'the file has no audio to extract');
    await runFfmpeg(
      [...mediaInputArgs(resolve(path), info.demuxer), '-map', '0:a:0', '-vn', '-sn', '-ac', String(options.channels ?? 1), '-ar', String(options.sampleRate ?? 16000), '-c:a', 'pcm_s16le', '-f', 'wav', outPath],
      { durationSeconds: info.duration, onProgress: options.onProgress, signal: options.signal, timeoutMs: options.timeoutMs },
    );
    return info;
  });
}

export interface WavPcm {
  sampleRate: number;
  channels: number;
  /** Interleaved samples (frame after frame, a sample per channel each). */
  samples: Int16Array;
}

/** Reads a 16-bit PCM WAV (RIFF), as `extractAudio` and most recorders write it. MediaError 'unreadable' otherwise. */
export function readWavPcm(bytes: Uint8Array): WavPcm {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
  if (bytes.byteLength < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new MediaError('unreadable', 'not a WAV file');
  let fmt: { format: number; channels: number; sampleRate: number; bits: number } | null = null;
  let at = 12;
  while (at + 8 <= bytes.byteLength) {
    const id = tag(at);
    const declared = view.getUint32(at + 4, true);
    const start = at + 8;
    // A streamed WAV says 0 or 0xFFFFFFFF for its data: the rest of the file is the data then.
    const size = Math.min(declared, bytes.byteLength - start);
    if (id === 'fmt ') {
      if (size < 16) throw new MediaError('unreadable', 'WAV format chunk too short');
      let format = view.getUint16(start, true);
      // WAVE_FORMAT_EXTENSIBLE: the real format is the sub-format GUID's first two bytes.
      if (format === 0xfffe && size >= 26) format = view.getUint16(start + 24, true);
      fmt = { format, channels: view.getUint16(start + 2, true), sampleRate: view.getUint32(start + 4, true), bits: view.getUint16(start + 14, true) };
    } else if (id === 'data') {
      if (!fmt) throw new MediaError('unreadable', 'WAV data before its format');
      if (fmt.format !== 1 || fmt.bits !== 16) throw new MediaError('unreadable', `WAV is not 16-bit PCM (format ${fmt.format}, ${fmt.bits} bits)`);
      if (fmt.channels < 1) throw new MediaError('unreadable', 'WAV without channels');
      const dataSize = declared === 0 || declared === 0xffffffff ? bytes.byteLength - start : size;
      const count = Math.floor(dataSize / 2);
      const samples = new Int16Array(count);
      for (let i = 0; i < count; i++) samples[i] = view.getInt16(start + i * 2, true);
      return { sampleRate: fmt.sampleRate, channels: fmt.channels, samples };
    }
    at = start + size + (size % 2);
  }
  throw new MediaError('unreadable', 'WAV without data');
}

export type MediaTarget = 'mp4' | 'mkv' | 'webm' | 'mov' | 'mp3' | 'wav' | 'm4a' | 'ogg' | 'flac';

/** The targets `convertMedia` writes: whether each holds pictures, its MIME type, the codecs it is written with. */
export const MEDIA_TARGETS: Readonly<Record<MediaTarget, { video: boolean; mime: string; videoArgs: string[]; audioArgs: string[]; muxer: string }>> = {
  mp4: { video: true, mime: 'video/mp4', muxer: 'mp4', videoArgs: h264(), audioArgs: ['-c:a', 'aac', '-b:a', '160k'] },
  mov: { video: true, mime: 'video/quicktime', muxer: 'mov', videoArgs: h264(), audioArgs: ['-c:a', 'aac', '-b:a', '160k'] },
  mkv: { video: true, mime: 'video/x-matroska', muxer: 'matroska', videoArgs: h264(), audioArgs: ['-c:a', 'libopus', '-b:a', '128k'] },
  // VP8 at realtime speed: VP9's encoder is several times slower on two cores.
  webm: { video: true, mime: 'video/webm', muxer: 'webm', videoArgs: ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1M', '-pix_fmt', 'yuv420p'], audioArgs: ['-c:a', 'libopus', '-b:a', '128k'] },
  mp3: { video: false, mime: 'audio/mpeg', muxer: 'mp3', videoArgs: [], audioArgs: ['-c:a', 'libmp3lame', '-q:a', '2'] },
  wav: { video: false, mime: 'audio/wav', muxer: 'wav', videoArgs: [], audioArgs: ['-c:a', 'pcm_s16le'] },
  m4a: { video: false, mime: 'audio/mp4', muxer: 'ipod', videoArgs: [], audioArgs: ['-c:a', 'aac', '-b:a', '192k'] },
  ogg: { video: false, mime: 'audio/ogg', muxer: 'ogg', videoArgs: [], audioArgs: ['-c:a', 'libvorbis', '-q:a', '5'] },
  flac: { video: false, mime: 'audio/flac', muxer: 'flac', videoArgs: [], audioArgs: ['-c:a', 'flac'] },
};

function h264(): string[] {
  // yuv420p for every player; libx264 wants even sides.
  return ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2'];
}

export function isMediaTarget(value: string): value is MediaTarget {
  return Object.prototype.hasOwnProperty.call(MEDIA_TARGETS, value);
}

/** The target named by a path's extension (`clip.mp4` -> mp4), or null. */
export function mediaTargetOf(path: string): MediaTarget | null {
  const ext = extname(path).slice(1).toLowerCase();
  return isMediaTarget(ext) ? ext : null;
}

function encodeArgs(to: MediaTarget, info: MediaInfo): string[] {
  const target = MEDIA_TARGETS[to];
  const args: string[] = [];
  const video = target.video && info.hasVideo;
  if (!video && !info.hasAudio) throw new MediaError('no-audio-stream', `a ${to} file needs audio and this file has only pictures`);
  if (video) args.push('-map', '0:v:0', ...target.videoArgs);
  if (info.hasAudio) args.push('-map', '0:a:0', ...target.audioArgs);
  args.push('-sn', '-dn', '-map_metadata', '-1');
  if (to === 'mp4' || to === 'mov' || to === 'm4a') args.push('-movflags', '+faststart');
  args.push('-f', target.muxer);
  return args;
}

/**
 * `input` written as `to` at `outPath` with the container's usual codecs (H.264 + AAC in MP4 and MOV,
 * H.264 + Opus in MKV, VP8 + Opus in WebM; MP3, PCM WAV, AAC M4A, Vorbis OGG, FLAC). An audio target
 * keeps the sound only. Returns the input's probe.
 */
export async function convertMedia(
  input: string,
  outPath: string,
  options: MediaJobOptions & { to: MediaTarget },
): Promise<MediaInfo> {
  if (!isMediaTarget(options.to)) throw new MediaError('bad-request', `unknown target format ${String(options.to)}`);
  const info = await lengthOf(input, options);
  await runFfmpeg([...mediaInputArgs(resolve(input), info.demuxer), ...encodeArgs(options.to, info), outPath], {
    durationSeconds: info.duration,
    onProgress: options.onProgress,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
  });
  return info;
}

/**
 * The part of `input` from `startSeconds` to `endSeconds` (clamped to the file's end), re-encoded so the
 * cut is exact rather than at the nearest key frame; the output's container follows `outPath`'s
 * extension (else the `to` given). MediaError 'bad-request' for a range outside the file.
 */
export async function cutMedia(
  input: string,
  outPath: string,
  options: MediaJobOptions & { startSeconds: number; endSeconds: number; to?: MediaTarget },
): Promise<MediaInfo> {
  const { startSeconds: start, endSeconds } = options;
  const to = options.to ?? mediaTargetOf(outPath);
  if (!to) throw new MediaError('bad-request', `no known container for ${outPath}`);
  if (!Number.isFinite(start) || !Number.isFinite(endSeconds) || start < 0 || endSeconds <= start) {
    throw new MediaError('bad-request', 'the cut must start at 0 s or later and end after it starts');
  }
  const info = await lengthOf(input, options);
  if (info.duration > 0 && start >= info.duration) throw new MediaError('bad-request', `the cut starts after the end of the file (${info.duration.toFixed(2)} s)`);
  const end = info.duration > 0 ? Math.min(endSeconds, info.duration) : endSeconds;
  const length = end - start;
  await runFfmpeg(['-ss', start.toFixed(3), ...mediaInputArgs(resolve(input), info.demuxer), '-t', length.toFixed(3), ...encodeArgs(to, info), outPath], {
    durationSeconds: length,
    onProgress: options.onProgress,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
  });
  return info;
}

/**
 * A value escaped twice for ffmpeg's filter syntax: once as an option value (`\`, `'`, `:`), then for the
 * filter graph (`\`, `'`, `[`, `]`, `,`, `;`). Paths with quotes, colons or commas survive it.
 */
export function escapeFilterValue(value: string): string {
  const asOption = value.replace(/[\\':]/g, (c) => `\\${c}`);
  return asOption.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}

const SUBTITLE_START = /^\uFEFF?\s*(\d+\s*\r?\n|WEBVTT|\[Script Info\]|$)/;

/**
 * Subtitles (SRT, WebVTT or ASS) drawn into the picture of `video` through ffmpeg's `subtitles` filter
 * (libass); the sound is re-encoded into the output's container (from `outPath`'s extension, MP4 otherwise).
 */
export async function burnSubtitles(
  video: string,
  subtitlesPath: string,
  outPath: string,
  options: MediaJobOptions & { fontName?: string; fontSize?: number } = {},
): Promise<MediaInfo> {
  const to = mediaTargetOf(outPath) ?? 'mp4';
  if (!MEDIA_TARGETS[to].video) throw new MediaError('bad-request', `subtitles are burned into a video container, not ${to}`);
  if (options.fontName !== undefined && !/^[\p{L}\p{N} ._-]{1,80}$/u.test(options.fontName)) throw new MediaError('bad-request', 'font name with characters a font name does not have');
  if (options.fontSize !== undefined && !(options.fontSize >= 4 && options.fontSize <= 200)) throw new MediaError('bad-request', 'font size must be between 4 and 200');
  // The filter guesses the subtitles' format by content, with no way to name it: only text that starts
  // as SRT, WebVTT or ASS reaches it (a playlist named .srt would otherwise be followed).
  const head = (await readFile(subtitlesPath)).subarray(0, 64).toString('utf8');
  if (!SUBTITLE_START.test(head)) throw new MediaError('bad-request', 'subtitles must be SRT, WebVTT or ASS');
  const info = await lengthOf(video, options);
  if (!info.hasVideo) throw new MediaError('no-video-stream', 'the file has no picture to burn subtitles into');
  const style: string[] = [];
  if (options.fontName) style.push(`FontName=${options.fontName}`);
  if (options.fontSize) style.push(`FontSize=${options.fontSize}`);
  let filter = `subtitles=filename=${escapeFilterValue(resolve(subtitlesPath))}`;
  if (style.length) filter += `:force_style=${escapeFilterValue(style.join(','))}`;
  filter += ',scale=trunc(iw/2)*2:trunc(ih/2)*2';
  const target = MEDIA_TARGETS[to];
  const videoArgs = target.videoArgs.filter((_, i, all) => all[i] !== '-vf' && all[i - 1] !== '-vf');
  const args = [...mediaInputArgs(resolve(video), info.demuxer), '-map', '0:v:0', '-vf', filter, ...videoArgs];
  if (info.hasAudio) args.push('-map', '0:a:0', ...target.audioArgs);
  args.push('-sn', '-dn', '-f', target.muxer, outPath);
  await runFfmpeg(args, { durationSeconds: info.duration, onProgress: options.onProgress, signal: options.signal, timeoutMs: options.timeoutMs });
  return info;
}

/** A 16-bit mono PCM WAV file of these samples (what readWavPcm reads and speech engines take). */
export function writeWavPcm(samples: Int16Array, sampleRate = 16_000): Uint8Array {
  const out = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(out.buffer);
  const tag = (at: number, s: string) => [...s].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  tag(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  tag(8, 'WAVE');
  tag(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  tag(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) view.setInt16(44 + i * 2, samples[i]!, true);
  return out;
}

type Bilingual = Readonly<Record<'zh-CN' | 'en-US', string>>;

/**
 * Why an uploaded file `name` is refused as audio or video, in both languages, for a MediaError from
 * `probeMedia` (or any media helper). Every area that takes audio or video answers these.
 */
export function mediaRefusal(name: string, error: MediaError): Bilingual {
  const say = (zh: string, en: string): Bilingual => ({ 'zh-CN': `${name}：${zh}`, 'en-US': `${name}: ${en}` });
  switch (error.code) {
    case 'format-refused':
      return say('不接受播放列表（如 HLS、DASH）或引用其他文件的列表，请上传音视频文件本身', 'playlists (HLS, DASH) and lists that point to other files are not accepted; upload the audio or video file itself');
    case 'no-media-stream':
      return say('文件中没有音频或视频', 'the file holds no audio or video');
    case 'no-audio-stream':
      return say('文件中没有音频', 'the file has no audio');
    case 'no-video-stream':
      return say('文件中没有视频画面', 'the file has no picture');
    case 'tool':
      return say('无法读取该音视频文件', 'the audio or video could not be read');
    default:
      return say('不是音频或视频文件（按内容识别）', 'not an audio or video file (checked by content)');
  }
}

/**
 * The upload check every area runs on an audio or video file before storing anything: its probe, or
 * the reason it is refused in both languages (not media, a playlist or other list of files, no stream).
 * `notMedia` is the area's own words for every refusal but a playlist's, which is always said the same.
 */
export async function probeUpload(
  path: string,
  name: string,
  options: { signal?: AbortSignal; timeoutMs?: number; notMedia?: Bilingual } = {},
): Promise<{ info: MediaInfo; refused?: undefined } | { info?: undefined; refused: Bilingual }> {
  try {
    return { info: await probeMedia(path, options) };
  } catch (err) {
    if (!(err instanceof MediaError)) throw err;
    return { refused: err.code !== 'format-refused' && options.notMedia ? options.notMedia : mediaRefusal(name, err) };
  }
}
