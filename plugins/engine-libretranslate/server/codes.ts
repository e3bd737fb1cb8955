/** LibreTranslate uses ISO 639-1 plus `zh-Hans`/`zh-Hant` (older servers: `zh`, `zt`). */

/** LibreTranslate code -> platform code. */
export function fromLibreCode(code: string): string {
  if (code === 'zh' || code === 'zh-Hans') return 'zh-CN';
  if (code === 'zh-Hant' || code === 'zt') return 'zh-TW';
  return code;
}

/** Platform code -> the code this LibreTranslate server lists (it may list `zh` or `zh-Hans`). */
export function toLibreCode(code: string, offered: readonly string[]): string | null {
  const candidates = code === 'zh-CN' ? ['zh-Hans', 'zh'] : code === 'zh-TW' ? ['zh-Hant', 'zt'] : [code, code.split('-')[0]!];
  return candidates.find((c) => offered.includes(c)) ?? null;
}
