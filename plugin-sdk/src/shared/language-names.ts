/**
 * A language's name for people, never its code: `ca-x-valencia` -> "Catalan (Valencian)",
 * `pt-x-PTpre1990` -> "Portuguese (Portugal, pre-1990 spelling)", `sr-Latn` -> "Serbian (Latin)".
 * The browser's and Node's `Intl.DisplayNames` name the standard part; private-use subtags (`-x-`,
 * which engines such as Apertium use for their variants) are named here, and one this list does not
 * know is shown as written, in brackets, so that two variants never read the same.
 */

type Ui = 'zh-CN' | 'en-US';

/** Private-use subtags engines use for variants, by lower-cased subtag. */
const PRIVATE_USE: Record<string, { en: string; zh: string }> = {
  valencia: { en: 'Valencian', zh: '瓦伦西亚' },
  valencian: { en: 'Valencian', zh: '瓦伦西亚' },
  iec2017: { en: 'IEC 2017 norm', zh: 'IEC 2017 规范' },
  uni: { en: 'unified', zh: '统一规范' },
  aran: { en: 'Aranese', zh: '阿兰方言' },
  aranes: { en: 'Aranese', zh: '阿兰方言' },
  ptpre1990: { en: 'Portugal, pre-1990 spelling', zh: '葡萄牙，1990 年前拼写' },
  brpre1990: { en: 'Brazil, pre-1990 spelling', zh: '巴西，1990 年前拼写' },
  pre1990: { en: 'pre-1990 spelling', zh: '1990 年前拼写' },
  formal: { en: 'formal', zh: '正式' },
  informal: { en: 'informal', zh: '非正式' },
};

const displayNames = new Map<string, Intl.DisplayNames>();
function standardName(tag: string, ui: Ui): string | null {
  try {
    let names = displayNames.get(ui);
    if (!names) displayNames.set(ui, (names = new Intl.DisplayNames([ui], { type: 'language', fallback: 'none' })));
    return names.of(tag) ?? null;
  } catch {
    return null;
  }
}

/** The name of a language tag in the interface language (`zh…` is Chinese, anything else English). */
export function languageDisplayName(code: string, uiLanguage: string = 'en-US'): string {
  const ui: Ui = uiLanguage.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en-US';
  const trimmed = code.trim();
  if (!trimmed) return code;
  const cut = trimmed.toLowerCase().indexOf('-x-');
  const standard = cut >= 0 ? trimmed.slice(0, cut) : trimmed;
  const privateUse = cut >= 0 ? trimmed.slice(cut + 3).split('-').filter(Boolean) : [];
  const base = standardName(standard, ui);
  if (!base) return trimmed;
  if (!privateUse.length) return base;
  const extras = privateUse.map((s) => PRIVATE_USE[s.toLowerCase()]?.[ui === 'zh-CN' ? 'zh' : 'en'] ?? s);
  return ui === 'zh-CN' ? `${base}（${extras.join('，')}）` : `${base} (${extras.join(', ')})`;
}
