import type { LocalizedText } from '@linguaport/sdk/server';

/** The area's messages in both interface languages (the server answers the request's). */
export const M = {
  sameLanguage: { 'zh-CN': '源语言和目标语言不能相同', 'en-US': 'The source and target languages must differ' },
  noSpeech: (language: string): LocalizedText => ({ 'zh-CN': `没有可识别 ${language} 语音的语音节点`, 'en-US': `No speech node recognises ${language}` }),
  noTranslation: (source: string, target: string): LocalizedText => ({ 'zh-CN': `没有可从 ${source} 翻译为 ${target} 的引擎`, 'en-US': `No engine translates ${source} into ${target}` }),
  notFound: { 'zh-CN': '传译记录不存在', 'en-US': 'No such interpretation session' },
  stillLive: { 'zh-CN': '会话仍在进行，结束后才能删除', 'en-US': 'The session is still live; end it before deleting it' },
  noDocx: { 'zh-CN': '未启用 Word 文档格式（formats-office），无法导出 DOCX；请导出 TXT 或 SRT', 'en-US': 'The Word document format (formats-office) is not enabled, so DOCX cannot be written; export TXT or SRT instead' },
  badFrame: { 'zh-CN': '音频帧无效：应为 16 kHz 单声道 16 位 PCM，每帧不超过 64 KB', 'en-US': 'Invalid audio frame: send 16 kHz mono 16-bit PCM, at most 64 KB a frame' },
  badMessage: { 'zh-CN': '无法识别的消息', 'en-US': 'Unrecognised message' },
  recognitionFailed: (why: string): LocalizedText => ({ 'zh-CN': `语音识别失败：${why}`, 'en-US': `Speech recognition failed: ${why}` }),
  translationFailed: (why: string): LocalizedText => ({ 'zh-CN': `翻译失败：${why}`, 'en-US': `Translation failed: ${why}` }),
  tooLong: { 'zh-CN': '会话已达最长时长，已结束', 'en-US': 'The session reached its longest duration and ended' },
  speechNodeUnusable: (id: number, language: string): LocalizedText => ({ 'zh-CN': `语音识别节点 ${id} 不可选用：它不存在、已停止或不能识别 ${language}`, 'en-US': `Speech node ${id} cannot be chosen: it does not exist, is stopped or does not recognise ${language}` }),
  engineUnusable: (id: number, source: string, target: string): LocalizedText => ({ 'zh-CN': `翻译引擎 ${id} 不可选用：它不存在、已停用或过期，或不能将 ${source} 翻译为 ${target}（领域）`, 'en-US': `Translation engine ${id} cannot be chosen: it does not exist, is disabled or expired, or does not translate ${source} into ${target} (for the domain)` }),
  speechNodeGone: { 'zh-CN': '所选的语音识别节点已不可用，本次会话改由平台自动选择', 'en-US': 'The chosen speech node is no longer available; the platform chooses one for this session' },
  engineGone: { 'zh-CN': '所选的翻译引擎已不可用，本次会话改由平台自动选择', 'en-US': 'The chosen translation engine is no longer available; the platform chooses one for this session' },
  badDate: { 'zh-CN': '日期格式应为 YYYY-MM-DD', 'en-US': 'Dates read YYYY-MM-DD' },
} as const;
