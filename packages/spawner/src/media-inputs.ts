import { basename } from 'node:path';
/** Picture types by their header (the SDK's `pictureKind` answers these and passes the type on). */
export type PictureKind = 'png' | 'jpeg' | 'webp' | 'tiff' | 'bmp';

/**
 * What ffmpeg and ffprobe may open. Left to guess, ffmpeg picks a demuxer by content, and some
 * demuxers read other files named inside the input: an HLS playlist whose segment is a local `.mp3`
 * is read even with `-protocol_whitelist file`. So every input names its demuxer (`-f`) from these
 * lists of formats that hold their own media, and its protocol (`-protocol_whitelist file` or `pipe`).
 * `runTool`, `startWarmTool` and `runFfmpeg` refuse an ffmpeg or ffprobe call that does not.
 */

/**
 * Containers that hold their own audio or video, by ffmpeg's demuxer names. Not here: playlists and
 * reference formats (hls, dash, concat, ffconcat), image sequences (image2), text (tty), lavfi, raw streams.
 */
export const MEDIA_DEMUXERS: readonly string[] = Object.freeze([
  'wav', 'w64', 'mp3', 'ogg', 'flac', 'aac', 'aiff', 'amr', 'caf',
  'matroska', 'webm', 'mov', 'mp4', 'm4a', '3gp', 'avi', 'mpegts', 'mpeg', 'asf', 'flv',
]);

/** Demuxers of one picture each, by type (the image2 pattern reader is not one of them). */
export const PICTURE_DEMUXERS: Readonly<Record<PictureKind, string>> = Object.freeze({
  png: 'png_pipe',
  jpeg: 'jpeg_pipe',
  webp: 'webp_pipe',
  tiff: 'tiff_pipe',
  bmp: 'bmp_pipe',
});

const ALLOWED = new Set([...MEDIA_DEMUXERS, ...Object.values(PICTURE_DEMUXERS)]);

/** The first of ffprobe's names for a format (`mov,mp4,m4a,...` -> `mov`) that is on the media list, or null. */
export function mediaDemuxerOf(formatName: string): string | null {
  return formatName.split(',').find((n) => MEDIA_DEMUXERS.includes(n)) ?? null;
}

/**
 * ffmpeg's options to read `path` (absolute) with `demuxer` and nothing else: no other protocol,
 * no other demuxer, even nested. Put them where the input goes (`ffmpeg ... <these> ...outputs`).
 */
export function mediaInputArgs(path: string, demuxer: string): string[] {
  if (!ALLOWED.has(demuxer)) throw new Error(`${demuxer} is not a demuxer media is read with`);
  return ['-f', demuxer, '-protocol_whitelist', 'file', '-format_whitelist', demuxer, '-i', path];
}

/** `mediaInputArgs` for a picture of this type. */
export const pictureInputArgs = (path: string, kind: PictureKind): string[] => mediaInputArgs(path, PICTURE_DEMUXERS[kind]);

// Options that make ffmpeg read a file that is not one of its inputs, and the filters that open files.
// (A stream specifier may follow: -filter:a, -filter_script:v.)
const READS_FILES = /^-(attach|dump_attachment|filter(_complex)?_script)(:|$)/;
const FILE_FILTERS = /(^|[,;\]\s])a?movie\s*=/;
const FILTER_OPTIONS = /^-(vf|af|lavfi|filter(_complex)?)(:|$)/;

function onlyProtocols(value: string | undefined, allowed: string): boolean {
  return value !== undefined && value.split(',').every((p) => p === allowed);
}

/**
 * Why an ffmpeg or ffprobe command line may read something it was not given, or null when every input
 * names an allowed demuxer and only the file (or pipe) protocol. Other commands: null.
 */
export function unnamedMediaInput(command: string, args: readonly string[]): string | null {
  const tool = basename(command);
  if (tool !== 'ffmpeg' && tool !== 'ffprobe') return null;
  let demuxer: string | undefined;
  let formats: string | undefined;
  let protocols: string | undefined;
  const check = (input: string): string | null => {
    const named = demuxer !== undefined ? ALLOWED.has(demuxer) : formats !== undefined && formats.split(',').every((f) => ALLOWED.has(f));
    if (!named) return `${tool}: the input ${input} must name its demuxer (-f) from the media list, not ${demuxer ?? formats ?? 'a guess'}`;
    const pipe = input === '-' || /^pipe:\d*$/.test(input);
    if (!pipe && !input.startsWith('/')) return `${tool}: the input ${input} must be an absolute path or a pipe`;
    if (!onlyProtocols(protocols, pipe ? 'pipe' : 'file')) return `${tool}: the input ${input} must come with -protocol_whitelist ${pipe ? 'pipe' : 'file'}`;
    return null;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = args[i + 1];
    if (READS_FILES.test(arg)) return `${tool}: ${arg} reads a file that is not an input`;
    if (FILTER_OPTIONS.test(arg) && value !== undefined && FILE_FILTERS.test(value)) return `${tool}: a filter may not open files (movie, amovie)`;
    if (arg === '-f') demuxer = args[++i];
    else if (arg === '-format_whitelist') formats = args[++i];
    else if (arg === '-protocol_whitelist') protocols = args[++i];
    else if (arg === '-i' && tool === 'ffmpeg') {
      const why = check(value ?? '');
      if (why) return why;
      i++;
      // The next input's options start after this one: nothing carries over.
      demuxer = formats = protocols = undefined;
    }
  }
  if (tool === 'ffprobe') {
    // ffprobe reads one input, named by its last argument or -i.
    const at = args.indexOf('-i');
    return check(at >= 0 ? (args[at + 1] ?? '') : (args.at(-1) ?? ''));
  }
  return null;
}
