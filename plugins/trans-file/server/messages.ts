import { ApiError, Codes, type LocalizedText } from '@linguaport/sdk/server';

/**
 * The catalogue's messages of this area (spec 02 section 8) in both interface languages, with the
 * envelope code each travels with. The kernel answers the request's language.
 */
const text = (zh: string, en: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en });

export const messages = {
  notSupported: (name: string, formats: string) =>
    text(`${name}：不支持的文件格式（按内容识别；支持 ${formats}）`, `${name}: not a supported format (checked by content; supported: ${formats})`),
  empty: (name: string) => text(`${name}：不能上传空文件`, `${name}: cannot upload an empty file`),
  tooLarge: (name: string, mb: number) => text(`${name}：文件上传错误，单个文件不能超过 ${mb} MB`, `${name}: file upload error, a file may be at most ${mb} MB`),
  tooMany: (max: number) => text(`文件上传错误：一次最多上传 ${max} 个文件`, `File upload error: at most ${max} files at a time`),
  noFiles: text('文件上传错误：请选择要翻译的文件', 'File upload error: choose the files to translate'),
  sameLanguages: text('源语言和目标语言不能相同', 'The source and target languages must differ'),
  queueFull: (length: number) => text(`队列已满（最多 ${length} 个文件排队或翻译中），请稍后再试`, `Queue full (at most ${length} files waiting or translating): try again later`),
  overQuota: (usedMb: string, quotaMb: number) =>
    text(`文件上传错误：存储空间不足（已用 ${usedMb} MB，配额 ${quotaMb} MB），请先删除不需要的文件`, `File upload error: over your storage quota (${usedMb} MB used of ${quotaMb} MB): delete files you no longer need`),
  malformed: (name: string, why: string) => text(`${name}：文件格式不正确，无法读取（${why}）`, `${name}: the file is not well-formed and cannot be read (${why})`),
  splitFailed: (name: string, why: string) => text(`${name}：文件拆分错误（${why}）`, `${name}: file split error (${why})`),
  notFound: (id: number | string) => text(`文件不存在：${id}`, `File not found: ${id}`),
  readFailed: text('服务器读取文档失败', 'Server document read failure'),
  serviceException: text('服务异常，请刷新后重试', 'Service exception: refresh and retry'),
  notAllowed: (action: string, status: string) => text(`当前状态（${status}）不允许${action}`, `Cannot ${action} a file that is ${status}`),
  noUnit: (idx: number) => text(`没有第 ${idx} 段`, `No paragraph ${idx}`),
  notYours: text('权限不足：只能操作自己的文件', 'Insufficient permission: only your own files'),
} as const;

/** Status names as the messages above say them (the console has its own labels). */
export const statusWords: Record<string, LocalizedText> = {
  uploading: text('上传中', 'uploading'),
  uploadInterrupted: text('上传中断', 'upload interrupted'),
  parsing: text('解析中', 'parsing'),
  parseFailed: text('解析失败', 'parse failed'),
  notTranslated: text('未翻译', 'not translated'),
  queued: text('排队中', 'queued'),
  translating: text('翻译中', 'translating'),
  terminated: text('翻译终止', 'terminated'),
  completed: text('翻译完成', 'completed'),
  failed: text('翻译失败', 'failed'),
  unknown: text('未知原因', 'unknown'),
};

const actionWords: Record<string, LocalizedText> = {
  terminate: text('终止', 'terminate'),
  submit: text('重试', 'retry'),
  download: text('下载', 'download'),
  preview: text('预览', 'preview'),
  edit: text('编辑', 'edit'),
  delete: text('删除', 'delete'),
};

export const badRequest = (message: LocalizedText, data: unknown = null) => new ApiError(Codes.BAD_REQUEST, message, data);
export const notFound = (id: number | string) => new ApiError(Codes.NOT_FOUND, messages.notFound(id));

/** 409: the file's state does not allow the action (the SDK machine said no). */
export function stateRefusal(action: string, status: string): ApiError {
  const a = actionWords[action] ?? text(action, action);
  const s = statusWords[status] ?? text(status, status);
  return new ApiError(Codes.CONFLICT, text(messages.notAllowed(a['zh-CN'], s['zh-CN'])['zh-CN'], messages.notAllowed(a['en-US'], s['en-US'])['en-US']));
}
