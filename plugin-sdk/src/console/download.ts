import type { ApiClient } from './index.js';

/** Saves a Blob (an export, a template, a result) under a file name, as the browser's download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked later: the browser reads the object URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** Fetches a file through the platform's client (the session goes with it) and saves it under `fileName`. */
export async function downloadFile(api: Pick<ApiClient, 'get'>, url: string, fileName: string, params?: Record<string, unknown>): Promise<void> {
  const blob = await api.get<Blob>(url, { responseType: 'blob', ...(params ? { params } : {}) });
  saveBlob(blob, fileName);
}
