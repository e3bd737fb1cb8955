import { resolveLocale } from '../../shared/locale.js';

/** The kit's own texts (spec 01 gives none for these controls). */
const texts = {
  'zh-CN': {
    search: '搜索',
    reset: '重置',
    cancel: '取消',
    confirm: '确定',
    save: '保存',
    loading: '加载中…',
    empty: '暂无数据',
    loadFailed: '加载失败',
    retry: '重试',
    total: '共 {{total}} 条',
    page: '第 {{page}} / {{pages}} 页',
    prev: '上一页',
    next: '下一页',
    perPage: '{{size}} 条/页',
    selected: '已选 {{count}} 条',
    affects: '此操作将影响 {{count}} 条记录。',
    andMore: '以及另外 {{count}} 条',
    irreversible: '此操作不可撤销。',
    upload: '上传文件',
    uploading: '上传中 {{percent}}%',
    badType: '只能上传 {{types}} 文件',
    tooLarge: '文件不能超过 {{size}} MB',
    select: '请选择',
    yes: '是',
    no: '否',
  },
  'en-US': {
    search: 'Search',
    reset: 'Reset',
    cancel: 'Cancel',
    confirm: 'Confirm',
    save: 'Save',
    loading: 'Loading…',
    empty: 'No data',
    loadFailed: 'Loading failed',
    retry: 'Retry',
    total: '{{total}} in total',
    page: 'Page {{page}} of {{pages}}',
    prev: 'Previous',
    next: 'Next',
    perPage: '{{size}} per page',
    selected: '{{count}} selected',
    affects: 'This affects {{count}} record(s).',
    andMore: 'and {{count}} more',
    irreversible: 'This cannot be undone.',
    upload: 'Upload file',
    uploading: 'Uploading {{percent}}%',
    badType: 'Only {{types}} files can be uploaded',
    tooLarge: 'The file must not exceed {{size}} MB',
    select: 'Select',
    yes: 'Yes',
    no: 'No',
  },
} as const;

export type KitText = keyof (typeof texts)['en-US'];

export function kitText(locale: string | undefined, key: KitText, params: Record<string, unknown> = {}): string {
  return texts[resolveLocale(locale ?? '')][key].replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}
