import { lstatSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { z } from 'zod';

/**
 * Uploaded files as a route's handler receives them. Only the kernel's multipart reader makes
 * them, each in the call's own upload folder; a request body cannot forge one (JSON has no way to
 * make an object the kernel registered), and the file's path is checked again whenever it is read.
 * Route schemas name files with `uploadedFileSchema` / `uploadedFilesSchema`, never with an object
 * of `{filename, size, path}`.
 */
export interface UploadedFile {
  readonly filename: string;
  readonly mimetype: string;
  readonly size: number;
  /** The temporary file, inside the call's upload folder; removed when the call ends. */
  readonly path: string;
  /** The bytes, read from disk on first use. */
  readonly data: Buffer;
}

// One registry for every copy of the SDK in the process (an uploaded plugin carries its own).
const REGISTRY = Symbol.for('linguaport.uploadedFiles');
type Registry = WeakMap<object, { folder: string; path: string }>;
const registry = (): Registry => ((globalThis as Record<symbol, Registry>)[REGISTRY] ??= new WeakMap());

/** Whether a value is a file the kernel's multipart reader made for this process. */
export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && registry().has(value);
}

/** Thrown when something not made by the kernel's reader is used as an upload, or its file moved out of its folder. */
export class NotAnUploadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotAnUploadError';
  }
}

function checkedPath(entry: { folder: string; path: string }): string {
  const rel = relative(entry.folder, resolve(entry.path));
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) throw new NotAnUploadError(`upload path ${entry.path} is outside its upload folder`);
  // A link put in its place would lead elsewhere: the kernel wrote a plain file there.
  let stat;
  try {
    stat = lstatSync(entry.path);
  } catch {
    throw new NotAnUploadError(`upload ${entry.path} is gone`);
  }
  if (!stat.isFile()) throw new NotAnUploadError(`upload ${entry.path} is not a plain file`);
  return entry.path;
}

/**
 * The path of an uploaded file, checked: the value was made by the kernel's reader, and its file is
 * a plain file inside the call's upload folder. Every place that opens an upload goes through this
 * (the `path` of an `UploadedFile` does it on each read).
 */
export function uploadPath(file: unknown): string {
  const entry = typeof file === 'object' && file !== null ? registry().get(file) : undefined;
  if (!entry) throw new NotAnUploadError('not an uploaded file');
  return checkedPath(entry);
}

/**
 * Kernel only: makes the handler's view of a file the multipart reader wrote at `path` inside the
 * call's own `folder`. Frozen, so a handler cannot point it elsewhere either.
 */
export function registerUploadedFile(info: { filename: string; mimetype: string; size: number; path: string; folder: string }, read: (path: string) => Buffer): UploadedFile {
  const entry = { folder: resolve(info.folder), path: resolve(info.path) };
  checkedPath(entry);
  let data: Buffer | null = null;
  const file = {} as UploadedFile;
  Object.defineProperties(file, {
    filename: { value: info.filename, enumerable: true },
    mimetype: { value: info.mimetype, enumerable: true },
    size: { value: info.size, enumerable: true },
    path: { get: () => checkedPath(entry), enumerable: true },
    // Not enumerable: walks over the body (logging, checks) do not load it.
    data: { get: () => (data ??= read(checkedPath(entry))), enumerable: false },
  });
  Object.freeze(file);
  registry().set(file, entry);
  return file;
}

/** The validation key of a value that is not an uploaded file (validation-messages.ts). */
export const NOT_AN_UPLOAD_KEY = 'validation.uploadedFile';

/** One uploaded file in a route's body schema. */
export const uploadedFileSchema = z.custom<UploadedFile>((v) => isUploadedFile(v), { message: NOT_AN_UPLOAD_KEY });

/** One or several files under one field name, always as a list (each item says why when it is no upload). */
export const uploadedFilesSchema = z.preprocess((f) => (f === undefined || Array.isArray(f) ? f : [f]), z.array(uploadedFileSchema));

/** Like `uploadedFilesSchema`, and an absent field is an empty list. */
export const optionalUploadedFilesSchema = z.preprocess((f) => (f === undefined ? [] : Array.isArray(f) ? f : [f]), z.array(uploadedFileSchema));
