import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError, Codes, inScratch, VOICE_SAMPLE_RATE } from '@linguaport/sdk/server';
import { extractAudio, MediaError, mediaRefusal, readWavPcm, writeWavPcm } from '@linguaport/media';
import { voiceFeatures } from '@linguaport/speaker-model';

type Say = (zh: string, en: string) => string;

/** Per recording: an upload over this is refused; audio past this length is not read. */
export const RECORDING_MAX_BYTES = 20 * 1024 * 1024;
export const RECORDINGS_MAX = 5;
export const RECORDING_MAX_SECONDS = 120;
/** Speech (after silence is dropped) a recording needs: to enrol with, and to be identified. */
export const ENROL_MIN_SPEECH = 1;
export const IDENTIFY_MIN_SPEECH = 0.5;

/** A recording as speaker engines take it: 16 kHz mono 16-bit WAV, and the seconds of speech it holds. */
export interface SpeechRecording {
  wav: Uint8Array;
  speechSeconds: number;
}

/** 16 kHz mono 16-bit samples of any audio or video file ffmpeg reads (its first audio stream), at most RECORDING_MAX_SECONDS. */
export async function decodeSpeech(path: string, signal?: AbortSignal): Promise<Int16Array> {
  return inScratch(async (dir) => {
    const out = join(dir, 'speech.wav');
    await extractAudio(path, out, { sampleRate: VOICE_SAMPLE_RATE, channels: 1, signal, timeoutMs: 120_000 });
    const wav = readWavPcm(await readFile(out));
    return wav.samples.subarray(0, RECORDING_MAX_SECONDS * VOICE_SAMPLE_RATE);
  });
}

/** Seconds of speech in 16 kHz samples once silence is dropped (the speaker model's voice activity). */
export const speechSecondsOf = (samples: Int16Array): number => voiceFeatures(Float32Array.from(samples, (s) => s / 32768)).speechSeconds;

/**
 * 16 kHz samples (-1..1, as the voiceprint service takes them from other areas) as a recording, or a
 * 400 in both languages when they hold too little speech.
 */
export function recordingOfSamples(pcm: Float32Array, minSpeech: number): SpeechRecording {
  const samples = Int16Array.from(pcm.subarray(0, RECORDING_MAX_SECONDS * VOICE_SAMPLE_RATE), (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32768))));
  const speechSeconds = speechSecondsOf(samples);
  if (speechSeconds < minSpeech) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': '录音中的语音太少，无法识别说话人', 'en-US': 'Too little speech in the recording to tell who speaks' });
  return { wav: writeWavPcm(samples, VOICE_SAMPLE_RATE), speechSeconds };
}

/**
 * An uploaded file as a recording, or a 400 that names it: not audio ffmpeg reads, a playlist or list of
 * other files (refused before ffmpeg opens what it names), no audio stream, or too little speech once silence is dropped.
 */
export async function recordingOfUpload(file: { filename: string; size: number; path: string }, minSpeech: number, t: Say): Promise<SpeechRecording> {
  if (file.size === 0) throw new ApiError(Codes.BAD_REQUEST, t(`${file.filename}：不能上传空文件`, `${file.filename}: cannot upload an empty file`));
  if (file.size > RECORDING_MAX_BYTES) throw new ApiError(Codes.BAD_REQUEST, t(`${file.filename}：文件超过 20 MB`, `${file.filename}: the file is over 20 MB`));
  let samples: Int16Array;
  try {
    samples = await decodeSpeech(file.path);
  } catch (err) {
    // A playlist or list of other files: the SDK's refusal, said the same in every area that takes media.
    if (err instanceof MediaError && err.code === 'format-refused') throw new ApiError(Codes.BAD_REQUEST, mediaRefusal(file.filename, err));
    if (err instanceof MediaError && err.code !== 'tool') {
      const reason = err.code === 'no-audio-stream' || err.code === 'no-media-stream' ? t('文件中没有音频', 'the file has no audio') : t('不支持的格式，无法读取为音频', 'not a supported format: it cannot be read as audio');
      throw new ApiError(Codes.BAD_REQUEST, t(`${file.filename}：${reason}`, `${file.filename}: ${reason}`));
    }
    if (err instanceof MediaError) throw new ApiError(Codes.BAD_REQUEST, t(`${file.filename}：无法解码音频`, `${file.filename}: the audio could not be decoded`));
    throw err;
  }
  const speechSeconds = speechSecondsOf(samples);
  if (speechSeconds < minSpeech) {
    throw new ApiError(
      Codes.BAD_REQUEST,
      t(`${file.filename}：语音太少（${speechSeconds.toFixed(1)} 秒，至少需要 ${minSpeech} 秒）`, `${file.filename}: too little speech (${speechSeconds.toFixed(1)} s; at least ${minSpeech} s is needed)`),
    );
  }
  return { wav: writeWavPcm(samples, VOICE_SAMPLE_RATE), speechSeconds };
}
