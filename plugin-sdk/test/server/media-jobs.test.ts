import { describe, expect, it } from 'vitest';
import { attachmentDisposition, uploadedMedia } from '../../src/server/media-jobs.js';

// The pure parts of the media-job kit; its routes are exercised through video's and trans-video's API tests.

describe('media-job kit', () => {
  it('names a download in ASCII and in UTF-8, with quotes and backslashes made harmless', () => {
    expect(attachmentDisposition('讲话 "a\\b".mp3')).toBe(`attachment; filename="__ _a_b_.mp3"; filename*=UTF-8''${encodeURIComponent('讲话 "a\\b".mp3')}`);
  });

  it('takes the files of both multipart fields with their bare names', () => {
    const file = (filename: string) => ({ filename, path: `/tmp/${filename.length}`, size: 1, mimetype: 'audio/wav' }) as never;
    expect(uploadedMedia({ files: [file('C:\\music\\a.wav')], file: [file('dir/b.mp3')] }).map((f) => f.name)).toEqual(['a.wav', 'b.mp3']);
    expect(uploadedMedia({})).toEqual([]);
  });
});
