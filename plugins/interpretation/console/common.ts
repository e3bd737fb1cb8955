import type { InterpretationConfig } from '../shared/schemas.js';

export const NS = 'interpretation';

export interface ConfigAnswer {
  config: InterpretationConfig;
  speechLanguages: string[];
  languages: { code: string; targets: string[] }[];
  voiceprints: { available: boolean; enrolled: boolean };
  docx: boolean;
}

/** Fetches a file through the shared client (the session header goes with it) and saves it under `name`. */
export async function download(api: { get<T>(url: string, options?: { responseType?: 'blob'; params?: Record<string, unknown> }): Promise<T> }, url: string, params: Record<string, unknown>, name: string): Promise<void> {
  const blob = await api.get<Blob>(url, { responseType: 'blob', params });
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
