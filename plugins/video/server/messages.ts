import { ApiError, Codes, type LocalizedText } from '@linguaport/sdk/server';
import { formatSeconds } from '../shared/schemas.js';

/** The area's messages in both interface languages; the kernel answers the request's language. */
const text = (zh: string, en: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en });

export const messages = {
  noFiles: text('请选择要处理的音视频文件', 'Choose the audio or video files to process'),
  tooMany: (max: number) => text(`一次最多上传 ${max} 个文件`, `At most ${max} files at a time`),
  empty: (name: string) => text(`${name}：不能上传空文件`, `${name}: cannot upload an empty file`),
  tooLarge: (name: string, mb: number) => text(`${name}：单个文件不能超过 ${mb} MB`, `${name}: a file may be at most ${mb} MB`),
  notMedia: (name: string) => text(`${name}：不是音频或视频文件（按内容识别）`, `${name}: not an audio or video file (checked by content)`),
  tooLong: (name: string, max: number) => text(`${name}：时长不能超过 ${formatSeconds(max)}`, `${name}: may play at most ${formatSeconds(max)}`),
  noAudio: (name: string) => text(`${name}：文件中没有音频，无法提取或转为音频格式`, `${name}: the file has no sound to extract or to write as audio`),
  cutOutside: (name: string, duration: number) => text(`${name}：剪切的开始时间超出了文件时长（${formatSeconds(duration)}）`, `${name}: the cut starts after the end of the file (${formatSeconds(duration)})`),
  targetNeeded: text('请选择目标格式', 'Choose the format to convert to'),
  audioTargetNeeded: text('提取音频只能输出音频格式（mp3、wav、m4a、ogg、flac）', 'Extracted audio is written as an audio format (mp3, wav, m4a, ogg, flac)'),
  cutRangeNeeded: text('剪切需要开始时间和结束时间', 'A cut needs a start and an end time'),
  cutBackwards: text('结束时间必须晚于开始时间', 'The end time must come after the start time'),
  notFound: (id: number) => text(`任务不存在：${id}`, `Job not found: ${id}`),
  notCancellable: (status: string) => text(`只能取消排队中或处理中的任务（当前：${status}）`, `Only a queued or running job can be cancelled (this one is ${status})`),
  notRetryable: (status: string) => text(`只能重试失败或已取消的任务（当前：${status}）`, `Only a failed or cancelled job can be run again (this one is ${status})`),
  notDone: text('只能下载已完成的任务结果', 'Only a completed job has a result to download'),
  resultGone: text('结果文件已不存在', 'The result file is no longer there'),
} as const;

export const badRequest = (message: LocalizedText) => new ApiError(Codes.BAD_REQUEST, message);
