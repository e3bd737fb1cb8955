import { describe, expect, it } from 'vitest';
import { acceptFor, DEFAULT_MIME, extensionOf, MIME_GROUPS, MIME_TYPES, mimeOf } from '../../src/shared/mime.js';

describe('MIME map', () => {
  it.each([
    ['report.doc', 'application/msword'],
    ['report.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['sheet.xls', 'application/vnd.ms-excel'],
    ['sheet.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['deck.ppt', 'application/vnd.ms-powerpoint'],
    ['deck.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ['paper.pdf', 'application/pdf'],
    ['a.odt', 'application/vnd.oasis.opendocument.text'],
    ['a.ods', 'application/vnd.oasis.opendocument.spreadsheet'],
    ['a.odp', 'application/vnd.oasis.opendocument.presentation'],
    ['a.rtf', 'application/rtf'],
    ['a.wps', 'application/vnd.ms-works'],
    ['photo.JPG', 'image/jpeg'],
    ['logo.png', 'image/png'],
    ['icon.svg', 'image/svg+xml'],
    ['talk.mp3', 'audio/mpeg'],
    ['talk.wav', 'audio/wav'],
    ['film.mp4', 'video/mp4'],
    ['film.mkv', 'video/x-matroska'],
    ['notes.txt', 'text/plain'],
    ['table.csv', 'text/csv'],
    ['page.html', 'text/html'],
    ['data.xml', 'application/xml'],
    ['data.json', 'application/json'],
    ['README.md', 'text/markdown'],
    ['movie.srt', 'application/x-subrip'],
    ['movie.vtt', 'text/vtt'],
    ['job.xliff', 'application/xliff+xml'],
    ['memory.tmx', 'application/x-tmx+xml'],
    ['terms.tbx', 'application/x-tbx+xml'],
    ['bundle.zip', 'application/zip'],
    ['bundle.7z', 'application/x-7z-compressed'],
    ['bundle.tar.gz', 'application/gzip'],
  ])('maps %s to %s', (name, mime) => expect(mimeOf(name)).toBe(mime));

  it('falls back to application/octet-stream for unknown, missing and hidden-file extensions', () => {
    expect(mimeOf('program.exe')).toBe(DEFAULT_MIME);
    expect(mimeOf('Makefile')).toBe(DEFAULT_MIME);
    expect(mimeOf('.bashrc')).toBe(DEFAULT_MIME);
    expect(mimeOf('name.')).toBe(DEFAULT_MIME);
    expect(mimeOf('x.constructor')).toBe(DEFAULT_MIME);
  });

  it('takes the extension of the file name, not of a folder in its path', () => {
    expect(extensionOf('/data/v1.2/readme')).toBe('');
    expect(extensionOf('C:\\files\\Report.DOCX')).toBe('docx');
    expect(mimeOf('uploads/2024.01/scan.PDF')).toBe('application/pdf');
  });

  it('has every group in the flat map, lower case without dots', () => {
    for (const group of Object.values(MIME_GROUPS)) {
      for (const [ext, mime] of Object.entries(group)) {
        expect(ext).toMatch(/^[a-z0-9]+$/);
        expect(MIME_TYPES[ext]).toBe(mime);
      }
    }
  });

  it('builds an accept list for upload controls', () => {
    expect(acceptFor('archive')).toBe('.zip,.rar,.7z,.tar,.gz,.tgz,.bz2,.xz');
    expect(acceptFor('office', 'text').split(',')).toEqual(expect.arrayContaining(['.docx', '.pdf', '.tmx', '.srt']));
  });
});
