// Audio and video through Debian's ffmpeg and ffprobe: probe, convert, cut, burn subtitles, WAV for speech.
export { probeMedia, probeUpload, mediaRefusal, runFfmpeg, extractAudio, readWavPcm, writeWavPcm, cutMedia, convertMedia, burnSubtitles, escapeFilterValue, isMediaTarget, mediaTargetOf, MEDIA_TARGETS, MediaError } from './media.js';
export type { MediaInput, MediaInfo, MediaStreamInfo, MediaStreamKind, MediaErrorCode, MediaTarget, FfmpegOptions, MediaJobOptions, WavPcm } from './media.js';
