import { downloadFile, type useApi } from '@linguaport/sdk/console';
import type { StatusIntent } from '@linguaport/sdk/console';

export const INTENTS: Record<string, StatusIntent> = { none: 'none', queued: 'none', running: 'primary', completed: 'success', failed: 'danger', cancelled: 'warning' };

/** Fetches a file through the shared client (the session header goes with it) and saves it under `name`. */
export const download = (api: ReturnType<typeof useApi>, url: string, name: string): Promise<void> => downloadFile(api, url, name);

/** A language code's name in the console's language (`es` -> `Spanish` / `西班牙语`). */
export function languageLabel(code: string, uiLanguage: string): string {
  try {
    const name = new Intl.DisplayNames([uiLanguage], { type: 'language' }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

export function queryId(query: Record<string, string>): number | null {
  const id = Number(query.id);
  return Number.isInteger(id) && id > 0 ? id : null;
}
