import { runTool } from './tools.js';

/**
 * Tesseract (Debian's `tesseract-ocr` and its language packs) as the areas that read pictures and
 * scanned pages call it: which packs are installed, and which to read a given language with.
 */

let installedLanguages: Promise<string[]> | null = null;

/** Tesseract's installed languages, asked once per process. */
export function tesseractLanguages(): Promise<string[]> {
  installedLanguages ??= runTool('tesseract', ['--list-langs'], { timeoutMs: 30_000 })
    .then(({ stdout, stderr }) => (stdout + stderr).split('\n').slice(1).map((l) => l.trim()).filter((l) => /^[\w-]+$/.test(l) && l !== 'osd'))
    .catch(() => []);
  return installedLanguages;
}

/** The platform's language codes as tesseract's packs (`zh-CN` -> chi_sim). */
const TESSERACT_CODES: Record<string, string[]> = {
  en: ['eng'], zh: ['chi_sim', 'chi_tra'], 'zh-cn': ['chi_sim'], 'zh-hans': ['chi_sim'], 'zh-tw': ['chi_tra'], 'zh-hant': ['chi_tra'],
  es: ['spa'], fr: ['fra'], de: ['deu'], it: ['ita'], pt: ['por'], ru: ['rus'], ja: ['jpn'], ko: ['kor'], ar: ['ara'], ca: ['cat'], nl: ['nld'], pl: ['pol'], uk: ['ukr'],
};

/** The languages to read with: the source language's packs that are installed, else the defaults that are. */
export function ocrLanguagesFor(installed: string[], sourceLanguage: string | undefined, fallback: string[]): string[] {
  const code = sourceLanguage?.toLowerCase();
  const wanted = code ? (TESSERACT_CODES[code] ?? TESSERACT_CODES[code.split('-')[0]!] ?? []) : [];
  const own = wanted.filter((l) => installed.includes(l));
  // Latin text (brand names, numbers) shows up in pictures of every language: English goes along.
  if (own.length) return [...new Set([...own, ...(installed.includes('eng') ? ['eng'] : [])])];
  const defaults = fallback.filter((l) => installed.includes(l));
  return defaults.length ? defaults : installed.slice(0, 1);
}
