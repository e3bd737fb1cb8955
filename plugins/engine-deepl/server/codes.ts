/**
 * DeepL names languages in upper case: sources by language only (`EN`, `ZH`, `PT`), targets with
 * the variants it writes (`EN-US`, `EN-GB`, `PT-BR`, `PT-PT`, `ZH-HANS`, `ZH-HANT`; older lists
 * say `ZH`). The platform speaks `en`, `en-GB`, `pt-BR`, `zh-CN`, `zh-TW`.
 */

/** DeepL code (source or target) -> platform code. */
export function fromDeeplCode(code: string): string {
  const c = code.toUpperCase();
  if (c === 'ZH' || c === 'ZH-HANS') return 'zh-CN';
  if (c === 'ZH-HANT') return 'zh-TW';
  const [lang, region] = c.split('-');
  return region ? `${lang!.toLowerCase()}-${region}` : lang!.toLowerCase();
}

/** Platform code -> DeepL source code (the language alone). */
export function toDeeplSource(code: string): string {
  return code.split('-')[0]!.toUpperCase();
}

/**
 * Platform code -> the target code this node offers, or null. A bare `en` or `pt` asks for the
 * variant DeepL chose when those codes were one language (`EN-US`, `PT-PT`).
 */
export function toDeeplTarget(code: string, offered: readonly string[]): string | null {
  const base = code.split('-')[0]!.toLowerCase();
  const candidates =
    code === 'zh-CN' || code === 'zh' ? ['ZH-HANS', 'ZH'] : code === 'zh-TW' ? ['ZH-HANT'] : code === 'en' ? ['EN-US', 'EN'] : code === 'pt' ? ['PT-PT', 'PT'] : [code.toUpperCase(), base.toUpperCase()];
  return candidates.find((c) => offered.includes(c)) ?? null;
}

/** The platform targets a DeepL target serves: its own code, and `en`/`pt` for the default variants. */
export function platformTargets(deeplTarget: string): string[] {
  const own = fromDeeplCode(deeplTarget);
  if (deeplTarget === 'EN-US') return [own, 'en'];
  if (deeplTarget === 'PT-PT') return [own, 'pt'];
  return [own];
}
