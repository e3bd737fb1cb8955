/**
 * Language codes of the LibreTranslate-compatible API the kernel serves (`/api/lt`): 639-1 plus
 * `zh-Hans`/`zh-Hant` (older servers: `zh`). Engines map their own codes in their plugins.
 */

/** LibreTranslate code -> platform code. */
export function fromLibreCode(code: string): string {
  if (code === 'zh' || code === 'zh-Hans') return 'zh-CN';
  if (code === 'zh-Hant' || code === 'zt') return 'zh-TW';
  return code;
}

/** Platform code -> the code this LibreTranslate server lists (it may list `zh` or `zh-Hans`). */
export function toLibreCode(code: string, offered: readonly string[]): string | null {
  const candidates =
    code === 'zh-CN' ? ['zh-Hans', 'zh'] : code === 'zh-TW' ? ['zh-Hant', 'zt'] : [code, code.split('-')[0]];
  return candidates.find((c) => offered.includes(c)) ?? null;
}

export { languageName } from '@linguaport/sdk/server';
