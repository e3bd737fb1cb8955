/**
 * The languages a fresh deployment knows, in their initial order: the Apertium pairs on this
 * platform (European languages, hi/ur, id/ms, eo) plus the major languages engines usually offer.
 * Those without a built-in pair start disabled so selects do not offer what cannot be translated.
 */
export const SEED_LANGUAGES: Array<{ code: string; nameZh: string; nameEn: string; enabled: boolean }> = [
  { code: 'zh-CN', nameZh: '中文（简体）', nameEn: 'Chinese (Simplified)', enabled: true },
  { code: 'en', nameZh: '英语', nameEn: 'English', enabled: true },
  { code: 'es', nameZh: '西班牙语', nameEn: 'Spanish', enabled: true },
  { code: 'ca', nameZh: '加泰罗尼亚语', nameEn: 'Catalan', enabled: true },
  { code: 'fr', nameZh: '法语', nameEn: 'French', enabled: true },
  { code: 'de', nameZh: '德语', nameEn: 'German', enabled: true },
  { code: 'it', nameZh: '意大利语', nameEn: 'Italian', enabled: true },
  { code: 'pt', nameZh: '葡萄牙语', nameEn: 'Portuguese', enabled: true },
  { code: 'ru', nameZh: '俄语', nameEn: 'Russian', enabled: true },
  { code: 'eo', nameZh: '世界语', nameEn: 'Esperanto', enabled: true },
  { code: 'hi', nameZh: '印地语', nameEn: 'Hindi', enabled: true },
  { code: 'ur', nameZh: '乌尔都语', nameEn: 'Urdu', enabled: true },
  { code: 'id', nameZh: '印度尼西亚语', nameEn: 'Indonesian', enabled: true },
  { code: 'ms', nameZh: '马来语', nameEn: 'Malay', enabled: true },
  { code: 'gl', nameZh: '加利西亚语', nameEn: 'Galician', enabled: true },
  { code: 'oc', nameZh: '奥克语', nameEn: 'Occitan', enabled: true },
  { code: 'eu', nameZh: '巴斯克语', nameEn: 'Basque', enabled: true },
  { code: 'nl', nameZh: '荷兰语', nameEn: 'Dutch', enabled: true },
  { code: 'sv', nameZh: '瑞典语', nameEn: 'Swedish', enabled: true },
  { code: 'da', nameZh: '丹麦语', nameEn: 'Danish', enabled: true },
  { code: 'nb', nameZh: '书面挪威语', nameEn: 'Norwegian Bokmål', enabled: true },
  { code: 'ro', nameZh: '罗马尼亚语', nameEn: 'Romanian', enabled: true },
  { code: 'pl', nameZh: '波兰语', nameEn: 'Polish', enabled: true },
  { code: 'uk', nameZh: '乌克兰语', nameEn: 'Ukrainian', enabled: true },
  { code: 'ar', nameZh: '阿拉伯语', nameEn: 'Arabic', enabled: true },
  { code: 'zh-TW', nameZh: '中文（繁体）', nameEn: 'Chinese (Traditional)', enabled: false },
  { code: 'ja', nameZh: '日语', nameEn: 'Japanese', enabled: false },
  { code: 'ko', nameZh: '韩语', nameEn: 'Korean', enabled: false },
  { code: 'th', nameZh: '泰语', nameEn: 'Thai', enabled: false },
  { code: 'vi', nameZh: '越南语', nameEn: 'Vietnamese', enabled: false },
  { code: 'tr', nameZh: '土耳其语', nameEn: 'Turkish', enabled: false },
];
