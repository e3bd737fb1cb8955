import type { useApi } from '@linguaport/sdk/console';
import type { StatusIntent } from '@linguaport/sdk/console';

export const INTENTS: Record<string, StatusIntent> = { none: 'none', queued: 'none', running: 'primary', completed: 'success', failed: 'danger', cancelled: 'warning' };

/** Fetches a file through the shared client (the session header goes with it) and saves it under `name`. */
export async function download(api: ReturnType<typeof useApi>, url: string, name: string): Promise<void> {
  const blob = await api.get<Blob>(url, { responseType: 'blob' });
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

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
