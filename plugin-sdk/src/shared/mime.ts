/**
 * File extension -> MIME type (spec 01 section 9), grouped so an upload control can build its
 * `accept` list from a group. Used for download headers on the server and upload checks in the
 * console. Registered IANA types where one exists; the usual x- types otherwise.
 */

export const DEFAULT_MIME = 'application/octet-stream';

export const MIME_GROUPS = {
  office: {
    doc: 'application/msword',
    docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    xls: 'application/vnd.ms-excel',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ppt: 'application/vnd.ms-powerpoint',
    pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    pdf: 'application/pdf',
    odt: 'application/vnd.oasis.opendocument.text',
    ods: 'application/vnd.oasis.opendocument.spreadsheet',
    odp: 'application/vnd.oasis.opendocument.presentation',
    rtf: 'application/rtf',
    // Kingsoft WPS Writer; mime.types files map .wps to the Works type it shares an extension with.
    wps: 'application/vnd.ms-works',
  },
  image: {
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    gif: 'image/gif',
    bmp: 'image/bmp',
    webp: 'image/webp',
    svg: 'image/svg+xml',
    ico: 'image/vnd.microsoft.icon',
    tif: 'image/tiff',
    tiff: 'image/tiff',
    avif: 'image/avif',
    heic: 'image/heic',
  },
  audio: {
    mp3: 'audio/mpeg',
    wav: 'audio/wav',
    ogg: 'audio/ogg',
    oga: 'audio/ogg',
    opus: 'audio/opus',
    m4a: 'audio/mp4',
    aac: 'audio/aac',
    flac: 'audio/flac',
    amr: 'audio/amr',
    wma: 'audio/x-ms-wma',
    weba: 'audio/webm',
  },
  video: {
    mp4: 'video/mp4',
    m4v: 'video/x-m4v',
    webm: 'video/webm',
    ogv: 'video/ogg',
    avi: 'video/x-msvideo',
    mov: 'video/quicktime',
    mkv: 'video/x-matroska',
    flv: 'video/x-flv',
    wmv: 'video/x-ms-wmv',
    mpg: 'video/mpeg',
    mpeg: 'video/mpeg',
    '3gp': 'video/3gpp',
    ts: 'video/mp2t',
  },
  text: {
    txt: 'text/plain',
    log: 'text/plain',
    csv: 'text/csv',
    tsv: 'text/tab-separated-values',
    html: 'text/html',
    htm: 'text/html',
    xml: 'application/xml',
    json: 'application/json',
    md: 'text/markdown',
    srt: 'application/x-subrip',
    vtt: 'text/vtt',
    xliff: 'application/xliff+xml',
    xlf: 'application/xliff+xml',
    tmx: 'application/x-tmx+xml',
    tbx: 'application/x-tbx+xml',
    po: 'text/x-gettext-translation',
  },
  archive: {
    zip: 'application/zip',
    rar: 'application/vnd.rar',
    '7z': 'application/x-7z-compressed',
    tar: 'application/x-tar',
    gz: 'application/gzip',
    tgz: 'application/gzip',
    bz2: 'application/x-bzip2',
    xz: 'application/x-xz',
  },
} as const satisfies Record<string, Record<string, string>>;

export type MimeGroup = keyof typeof MIME_GROUPS;

/** Every extension of every group, lower case, no dot. */
export const MIME_TYPES: Readonly<Record<string, string>> = Object.freeze(
  Object.assign({}, ...Object.values(MIME_GROUPS)) as Record<string, string>,
);

/** The extension of a file name or path, lower case without the dot; '' when it has none. */
export function extensionOf(fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  // `.bashrc` is a hidden file without an extension, not a file of type "bashrc".
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The MIME type of a file by its extension; application/octet-stream when unknown. */
export function mimeOf(fileName: string): string {
  const ext = extensionOf(fileName);
  return Object.prototype.hasOwnProperty.call(MIME_TYPES, ext) ? MIME_TYPES[ext] : DEFAULT_MIME;
}

/** An `accept` attribute for file inputs: '.doc,.docx,...' for the given groups. */
export function acceptFor(...groups: MimeGroup[]): string {
  return groups.flatMap((g) => Object.keys(MIME_GROUPS[g]).map((ext) => `.${ext}`)).join(',');
}
