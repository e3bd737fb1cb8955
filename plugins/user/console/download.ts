/** Saves a Blob the API returned under a file name (template, export). */
export { saveBlob } from '@linguaport/sdk/console';

/** `datetime-local` text (browser time) to ISO with offset, and back. */
export const localToIso = (v: unknown) => (typeof v === 'string' && v ? new Date(v).toISOString() : '');
export function isoToLocal(v: string | null): string {
  if (!v) return '';
  const d = new Date(v);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
