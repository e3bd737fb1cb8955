/** Spec 02 section 9: setting images under 2 MB, suggested sizes 142x35, 1600x300 and 1670x660. */
export const MAX_PICTURE_BYTES = 2 * 1024 * 1024;
export const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'];

export type PictureCheck = { ok: true; warning: null | { width: number; height: number } } | { ok: false; reason: 'size' | 'type' };

/**
 * Checks a chosen picture before upload: the size limit and type refuse it; dimensions other than
 * the suggested ones only warn (the console scales pictures into their slot), naming both sizes.
 */
export function checkPicture(file: { size: number; type: string }, actual: { width: number; height: number } | null, suggested: { width: number | null; height: number | null }): PictureCheck {
  if (file.size >= MAX_PICTURE_BYTES) return { ok: false, reason: 'size' };
  if (!PICTURE_TYPES.includes(file.type)) return { ok: false, reason: 'type' };
  if (actual && suggested.width && suggested.height && (actual.width !== suggested.width || actual.height !== suggested.height)) {
    return { ok: true, warning: actual };
  }
  return { ok: true, warning: null };
}

export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
