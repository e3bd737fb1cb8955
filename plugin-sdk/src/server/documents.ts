import type { Caller } from './index.js';
import { defineService } from './services.js';
import type { UploadedFile } from './uploads.js';

/**
 * Document translation as a service of the area that provides it (`documents.translateFile`), for
 * callers outside that area: the kernel's LibreTranslate-compatible `/api/lt/translate_file` and
 * `/api/lt/download_file/...` delegate to it when a plugin provides it (and answer LibreTranslate's
 * "Files translation are disabled" otherwise). Files go through the provider's own queue.
 */
export interface DocumentTranslationService {
  /** The file extensions it takes (LibreTranslate's `supportedFilesFormat`, with the dot). */
  formats(): string[];
  /**
   * Translates an uploaded file (as the kernel's multipart reader made it) for `caller` and resolves once its result is ready. Rejects with an
   * ApiError: 400 (unsupported, empty, same languages, over a limit), 3027 (queue full), 500/503
   * (the translation failed).
   */
  translateFile(input: { caller: Caller; file: UploadedFile; source: string; target: string; signal?: AbortSignal }): Promise<{ downloadId: string; name: string }>;
  /** A finished file by its download id (unguessable, from `translateFile`), or null. */
  download(downloadId: string): Promise<{ name: string; contentType: string; body: NodeJS.ReadableStream } | null>;
}

export const documentTranslationService = defineService<DocumentTranslationService>('documents.translateFile');
