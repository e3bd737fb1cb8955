import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError, Codes, extractAudio, inScratch, MediaError, readWavPcm, voiceFeatures, type VoiceFeatures } from '@linguaport/sdk/server';

type Say = (zh: string, en: string) => string;

/** Per recording: an upload over this is refused; audio past this length is not read. */
export const RECORDING_MAX_BYTES = 20 * 1024 * 1024;
export const RECORDINGS_MAX = 5;
export const RECORDING_MAX_SECONDS = 120;
/** Speech (after silence is dropped) a recording needs: to enrol with, and to be identified. */
export const ENROL_MIN_SPEECH = 1;
export const IDENTIFY_MIN_SPEECH = 0.5;

/** 16 kHz mono samples of any audio or video file ffmpeg reads (its first audio stream). */
export async function decodeSpeech(path: string, signal?: AbortSignal): Promise<Float32Array> {
  return inScratch(async (dir) => {
    const out = join(dir, 'speech.wav');
    await extractAudio(path, out, { sampleRate: 16000, channels: 1, signal, timeoutMs: 120_000 });
    const wav = readWavPcm(await readFile(out));
    const n = Math.min(wav.samples.length, RECORDING_MAX_SECONDS * 16000);
    const pcm = new Float32Array(n);
    for (let i = 0; i < n; i++) pcm[i] = wav.samples[i]! / 32768;
    return pcm;
  });
}

/**
 * The voice features of an uploaded file, or a 400 that names it: not audio ffmpeg reads, no audio
 * stream, or too little speech once silence is dropped.
 */
export async function featuresOfUpload(file: { filename: string; size: number; path: string }, minSpeech: number, t: Say): Promise<VoiceFeatures> {
  if (file.size === 0) throw new ApiError(Codes.BAD_REQUEST, t(`${file.filename}：不能上传空文件`, `${file.filename}: cannot upload an empty file`));
  if (file.size > RECORDING_MAX_BYTES) throw new ApiError(Codes.BAD_REQUEST, t(`${file.filename}：文件超过 20 MB`, `${file.filename}: the file is over 20 MB`));
  let pcm: Float32Array;
  try {
    pcm = await decodeSpeech(file.path);
  } catch (err) {
    if (err instanceof MediaError && err.code !== 'tool') {
      const reason = err.code === 'no-audio-stream' || err.code === 'no-media-stream' ? t('文件中没有音频', 'the file has no audio') : t('不支持的格式，无法读取为音频', 'not a supported format: it cannot be read as audio');
      throw new ApiError(Codes.BAD_REQUEST, t(`${file.filename}：${reason}`, `${file.filename}: ${reason}`));
    }
    if (err instanceof MediaError) throw new ApiError(Codes.BAD_REQUEST, t(`${file.filename}：无法解码音频`, `${file.filename}: the audio could not be decoded`));
    throw err;
  }
  const features = voiceFeatures(pcm);
  if (features.speechSeconds < minSpeech) {
    throw new ApiError(
      Codes.BAD_REQUEST,
      t(`${file.filename}：语音太少（${features.speechSeconds.toFixed(1)} 秒，至少需要 ${minSpeech} 秒）`, `${file.filename}: too little speech (${features.speechSeconds.toFixed(1)} s; at least ${minSpeech} s is needed)`),
    );
  }
  return features;
}
