import { ApiError, Codes, type LocalizedText } from '@linguaport/sdk/server';
import { formatSeconds } from '../shared/schemas.js';

/** The area's messages in both interface languages; the kernel answers the request's language. */
const text = (zh: string, en: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en });

export const messages = {
  noFile: text('请选择要翻译的音频或视频文件', 'Choose the audio or video file to translate'),
  oneFile: text('一次只能上传一个文件', 'Upload one file at a time'),
  empty: (name: string) => text(`${name}：不能上传空文件`, `${name}: cannot upload an empty file`),
  tooLarge: (name: string, mb: number) => text(`${name}：文件不能超过 ${mb} MB`, `${name}: a file may be at most ${mb} MB`),
  notMedia: (name: string) => text(`${name}：不是支持的音频或视频文件（wav、mp3、m4a、ogg、flac、mp4、mkv、webm、mov，按内容识别）`, `${name}: not a supported audio or video file (wav, mp3, m4a, ogg, flac, mp4, mkv, webm, mov; checked by content)`),
  noAudio: (name: string) => text(`${name}：文件中没有声音，无法识别语音`, `${name}: the file has no sound to recognise`),
  tooLong: (name: string, max: number) => text(`${name}：时长不能超过 ${formatSeconds(max)}`, `${name}: may play at most ${formatSeconds(max)}`),
  noSpeechEngine: (language: string) => text(`没有能识别该语言（${language}）语音的语音引擎`, `No speech engine recognises ${language}`),
  noTranslation: (source: string, target: string) => text(`没有能将 ${source} 翻译为 ${target} 的翻译引擎`, `No engine translates ${source} to ${target}`),
  sameLanguage: text('源语言和目标语言不能相同', 'The source and target languages must differ'),
  burnNeedsVideo: text('只有视频才能烧录字幕', 'Subtitles can be burned into a video only'),
  notFound: (id: number) => text(`任务不存在：${id}`, `Job not found: ${id}`),
  cueNotFound: (index: number) => text(`字幕行不存在：${index}`, `Subtitle line not found: ${index}`),
  notDone: text('任务尚未完成', 'The job has not finished'),
  notCancellable: (status: string) => text(`只能取消排队中或处理中的任务（当前：${status}）`, `Only a queued or running job can be cancelled (this one is ${status})`),
  notRetryable: (status: string) => text(`只能重试失败或已取消的任务（当前：${status}）`, `Only a failed or cancelled job can be run again (this one is ${status})`),
  burning: text('字幕正在烧录中', 'Subtitles are being burned in already'),
  notBurned: text('还没有烧录字幕的视频', 'There is no video with burned-in subtitles yet'),
  resultGone: text('文件已不存在', 'The file is no longer there'),
  emptySource: text('识别文本不能为空', 'The recognised text cannot be empty'),
} as const;

export const badRequest = (message: LocalizedText) => new ApiError(Codes.BAD_REQUEST, message);
