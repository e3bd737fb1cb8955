/**
 * Language codes of Apertium. The platform speaks BCP-47-ish codes (`en`, `es`, `ca`, `zh-CN`,
 * `en-US`); Apertium names languages in ISO 639-3 (`eng`, `spa`), a few older pairs in ISO 639-1
 * (`fr-es`, `en-eo`), with `_` variants (`eng_US`, `cat_valencia`).
 */

// ISO 639-3 -> 639-1 for the languages Apertium pairs and the platform cover.
const ISO3_TO_ISO1: Record<string, string> = {
  afr: 'af', ara: 'ar', arg: 'an', bak: 'ba', bel: 'be', ben: 'bn', bos: 'bs', bre: 'br', bul: 'bg',
  cat: 'ca', ces: 'cs', cym: 'cy', dan: 'da', deu: 'de', ell: 'el', eng: 'en', epo: 'eo', est: 'et',
  eus: 'eu', fao: 'fo', fas: 'fa', fin: 'fi', fra: 'fr', gle: 'ga', gla: 'gd', glg: 'gl', heb: 'he',
  hin: 'hi', hrv: 'hr', hun: 'hu', hye: 'hy', ind: 'id', isl: 'is', ita: 'it', jpn: 'ja', kaz: 'kk',
  kir: 'ky', kor: 'ko', lat: 'la', lav: 'lv', lit: 'lt', mkd: 'mk', mlt: 'mt', msa: 'ms', zlm: 'ms',
  nld: 'nl', nno: 'nn', nob: 'nb', oci: 'oc', pol: 'pl', por: 'pt', ron: 'ro', rus: 'ru', slk: 'sk',
  slv: 'sl', sme: 'se', spa: 'es', sqi: 'sq', srp: 'sr', swe: 'sv', tat: 'tt', tha: 'th', tur: 'tr',
  ukr: 'uk', urd: 'ur', uzb: 'uz', vie: 'vi', zho: 'zh-CN',
};
const ISO1_TO_ISO3: Record<string, string> = Object.fromEntries(
  Object.entries(ISO3_TO_ISO1)
    .filter(([iso3]) => iso3 !== 'zlm')
    .map(([iso3, iso1]) => [iso1, iso3]),
);

/**
 * Apertium language name (`eng`, `en`, `eng_US`, `cat_valencia`) -> platform code (`en`,
 * `en`, `en-US`, `ca-x-valencia`). A two-letter uppercase variant is a region; any other
 * variant becomes private-use subtags, so the mapping can be reversed exactly.
 */
export function fromApertiumCode(code: string): string {
  const [base, ...variants] = code.split('_');
  const lang = ISO3_TO_ISO1[base] ?? base;
  if (variants.length === 0) return lang;
  if (variants.length === 1 && /^[A-Z]{2}$/.test(variants[0])) return `${lang}-${variants[0]}`;
  return `${lang}-x-${variants.join('-')}`;
}

/** Platform code -> Apertium's three-letter name (APy accepts these for every pair). */
export function toApertiumCode(code: string): string {
  if (code === 'zh-CN' || code === 'zh') return 'zho';
  const [lang, ...rest] = code.split('-');
  const base = ISO1_TO_ISO3[lang.toLowerCase()] ?? lang.toLowerCase();
  if (rest.length === 0) return base;
  if (rest[0] === 'x') return [base, ...rest.slice(1)].join('_');
  return `${base}_${rest.join('_')}`;
}

/** Apertium mode name (`eng-spa`, `fr-es`, `eng-cat_valencia`) -> platform pair. */
export function fromApertiumMode(mode: string): { source: string; target: string } | null {
  const m = /^([a-z]{2,3}(?:_[A-Za-z0-9]+)*)-([a-z]{2,3}(?:_[A-Za-z0-9]+)*)$/.exec(mode);
  return m ? { source: fromApertiumCode(m[1]), target: fromApertiumCode(m[2]) } : null;
}
