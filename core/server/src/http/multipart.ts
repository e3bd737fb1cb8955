import { randomUUID } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { ApiError, registerUploadedFile, requestLocale, type RouteUpload } from '@linguaport/sdk/server';
import { Codes, type Locale } from '@linguaport/sdk/shared';

/**
 * Multipart bodies, read for every route by one rule. A route takes files only when it declares
 * `upload: {maxBytes}`: each file streams to a temporary file in the call's own folder with that limit
 * counted while reading, and the handler gets an `UploadedFile` (SDK `uploads.ts`: `{filename, mimetype,
 * size, path, data}`, registered so no request body can forge one, its path checked on each read). Any other route accepts
 * form fields only (the console's sign-in form is multipart) within a small limit; a file part is
 * refused. Temporary files are removed when the call ends, whatever its outcome.
 */

/** One form field's largest value, and how many fields a form may have. */
export const FIELD_BYTES = 64 * 1024;
export const MAX_FIELDS = 50;
/** What a body may hold beyond its files: fields and part headers. */
const FORM_OVERHEAD = 1024 * 1024;

const texts: Record<Locale, { tooLarge: (limit: string) => string; noFiles: string; malformed: string }> = {
  'zh-CN': {
    tooLarge: (limit) => `请求内容过大：此接口最多接收 ${limit}`,
    noFiles: '此接口不接收文件',
    malformed: '请求体不是有效的 multipart/form-data（缺少 boundary 或格式错误）',
  },
  'en-US': {
    tooLarge: (limit) => `Request too large: this call takes at most ${limit}`,
    noFiles: 'This call takes no files',
    malformed: 'The body is not valid multipart/form-data (no boundary, or malformed)',
  },
};

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(1)} MB` : bytes >= 1024 ? `${+(bytes / 1024).toFixed(1)} KB` : `${bytes} B`;
}

/** HTTP 413 with the catalogue's bad-input code (sendError maps a framework-style 4xx to it). */
class TooLarge extends Error {
  readonly statusCode = 413;
}

/** HTTP 415, also with the bad-input code: a route that takes files takes them only as multipart. */
export class NotMultipart extends Error {
  readonly statusCode = 415;
}

export function notMultipart(locale: Locale): NotMultipart {
  return new NotMultipart(
    locale === 'en-US'
      ? 'This call takes files: send them as multipart/form-data (other bodies are refused)'
      : '此接口接收文件：请以 multipart/form-data 上传（不接受其他请求体）',
  );
}

/** Fails the stream as soon as more than `limit` bytes have passed. */
function counting(limit: number, onBytes: (n: number) => void, error: () => Error) {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, callback) {
      seen += chunk.length;
      onBytes(chunk.length);
      if (seen > limit) callback(error());
      else callback(null, chunk);
    },
  });
}

export async function readMultipart(request: FastifyRequest, upload: RouteUpload | undefined, tempDir: string): Promise<{ body: Record<string, unknown>; cleanup: () => Promise<void> }> {
  const say = texts[requestLocale(request.headers)];
  const maxFiles = upload?.maxBytes ?? 0;
  const ceiling = maxFiles + FORM_OVERHEAD;
  const tooLarge = () => new TooLarge(say.tooLarge(size(upload ? upload.maxBytes : FORM_OVERHEAD)));
  // A declared length over the limit is refused before a byte is read.
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > ceiling) throw tooLarge();
  // busboy throws a bare Error on a missing boundary; that is the caller's fault, not ours.
  if (!/;\s*boundary=("[^"]+"|[^;\s]+)/i.test(String(request.headers['content-type'] ?? ''))) throw new ApiError(Codes.BAD_REQUEST, say.malformed);

  // Each call has a folder of its own: an uploaded file's path is checked to lie inside it wherever it is read.
  const folder = join(tempDir, randomUUID());
  let made = false;
  const cleanup = async () => {
    if (made) await rm(folder, { recursive: true, force: true });
  };
  const body: Record<string, unknown> = {};
  const put = (name: string, value: unknown) => {
    const prev = body[name];
    body[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  };
  let fileBytes = 0;
  try {
    const parts = request.parts({ limits: { fileSize: Math.max(maxFiles, 1), fieldSize: FIELD_BYTES, fields: MAX_FIELDS, parts: MAX_FIELDS + 20 } });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw tooLarge();
        put(part.fieldname, part.value);
        continue;
      }
      if (!upload) {
        part.file.resume();
        throw new ApiError(Codes.BAD_REQUEST, say.noFiles);
      }
      if (!made) {
        await mkdir(folder, { recursive: true, mode: 0o700 });
        made = true;
      }
      const path = join(folder, `${randomUUID()}.upload`);
      const before = fileBytes;
      await pipeline(
        part.file,
        counting(upload.maxBytes - before, (n) => void (fileBytes += n), tooLarge),
        createWriteStream(path, { flags: 'wx' }),
      );
      // busboy stops at fileSize and marks the stream truncated rather than failing it.
      if (part.file.truncated) throw tooLarge();
      put(part.fieldname, registerUploadedFile({ filename: part.filename, mimetype: part.mimetype, size: fileBytes - before, path, folder }, (p) => readFileSync(p)));
    }
  } catch (err) {
    await cleanup();
    throw refusal(err, say.malformed, tooLarge);
  }
  return { body, cleanup };
}

/** Parser failures (busboy's bare Errors) are malformed input; every limit is one 413; disk errors stay ours (500). */
function refusal(err: unknown, malformed: string, tooLarge: () => Error): unknown {
  const e = err as { statusCode?: number; syscall?: string; name?: string };
  if (err instanceof TooLarge || e?.name === 'ApiError' || e?.syscall) return err;
  if (e?.statusCode === 413) return tooLarge();
  return new ApiError(Codes.BAD_REQUEST, `${malformed}: ${(err as Error)?.message ?? String(err)}`);
}
