import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { requestLocale } from './helpers.js';
import type { RawReply, RequestContext } from './index.js';

/**
 * Files as HTTP answers with byte ranges (RFC 9110 section 14), so that a `<video>` or `<audio>`
 * element plays and seeks without downloading the whole file first, and a download can resume.
 * `GET` with `Range: bytes=a-b`, `a-` or `-n` answers 206 with `Content-Range`; a range past the end
 * answers 416 with `Content-Range: bytes *\/size`; no range, a malformed one, several at once or an
 * `If-Range` that no longer matches answer the whole file (200), as the RFC allows. `HEAD` (fastify
 * answers it for every GET route) gives the same headers with no body and reads nothing.
 */

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/** The one range `header` asks of a `size`-byte file; null to send it whole; `unsatisfiable` for 416. */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  // Another unit, several ranges or nonsense: the whole file (a server may ignore Range).
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (!Number.isSafeInteger(suffix)) return null;
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const last = m[2] === '' ? Infinity : Number(m[2]);
  if (!Number.isSafeInteger(start) || (last !== Infinity && !Number.isSafeInteger(last)) || last < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(last, size - 1) };
}

export interface FileReplyOptions {
  contentType: string;
  /** More headers (`content-disposition` of a download). */
  headers?: Record<string, string>;
}

const single = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The file at `path` (from `ctx.storage.path(key)`) as the answer to `request`, honouring its `Range`
 * header. Return it from a GET route's handler (declare `response: { envelope: false, ... }`).
 */
export async function fileReply(request: Pick<RequestContext, 'headers' | 'raw'>, path: string, options: FileReplyOptions): Promise<RawReply> {
  const info = await stat(path);
  const size = info.size;
  const etag = `"${size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const lastModified = info.mtime.toUTCString();
  const common: Record<string, string> = { ...options.headers, 'accept-ranges': 'bytes', etag, 'last-modified': lastModified };
  const head = (request.raw as { method?: string } | null)?.method === 'HEAD';
  const ifRange = single(request.headers['if-range']);
  // A range of an older version of the file would splice two files together: send the whole one.
  const current = !ifRange || ifRange === etag || ifRange === lastModified;
  const range = current ? parseRange(single(request.headers.range), size) : null;
  if (range === 'unsatisfiable') {
    const locale = requestLocale(request.headers);
    const msg = locale === 'zh-CN' ? `请求的字节范围超出文件大小（${size} 字节）` : `The requested byte range is outside the file (${size} bytes)`;
    return { raw: true, status: 416, contentType: 'application/json; charset=utf-8', headers: { ...common, 'content-range': `bytes */${size}` }, body: JSON.stringify({ code: 416, msg, data: null }) };
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  const length = size === 0 ? 0 : end - start + 1;
  const headers = { ...common, 'content-length': String(length), ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}) };
  // An empty stream for HEAD: fastify would otherwise read the whole file to throw it away.
  const body = head || length === 0 ? Readable.from([]) : createReadStream(path, { start, end });
  return { raw: true, status: range ? 206 : 200, contentType: options.contentType, headers, body };
}
