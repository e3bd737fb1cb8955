import { describe, expect, it } from 'vitest';
import { MAX_PICTURE_BYTES, checkPicture } from '../../shared/pictures.js';

const logo = { width: 142, height: 35 };

describe('picture check', () => {
  it('refuses a picture of 2 MB or more', () => {
    expect(checkPicture({ size: MAX_PICTURE_BYTES, type: 'image/png' }, logo, logo)).toEqual({ ok: false, reason: 'size' });
    expect(checkPicture({ size: MAX_PICTURE_BYTES - 1, type: 'image/png' }, logo, logo)).toEqual({ ok: true, warning: null });
  });

  it('refuses a file that is not a picture type', () => {
    expect(checkPicture({ size: 10, type: 'application/pdf' }, null, logo)).toEqual({ ok: false, reason: 'type' });
  });

  it('accepts other dimensions with a warning that names them', () => {
    expect(checkPicture({ size: 10, type: 'image/jpeg' }, { width: 284, height: 70 }, logo)).toEqual({ ok: true, warning: { width: 284, height: 70 } });
  });
});
