import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { type OcrAdapterDefinition, ocrCapability } from '@linguaport/sdk/server';
import { createTesseractAdapter } from '@linguaport/ocr';

/**
 * The built-in OCR engine (kind `tesseract-local`): Debian's tesseract on this machine, through the
 * SDK's tesseract adapter (the format tests read pictures with it directly). No process to keep: a node
 * runs tesseract per picture, each one thread (OMP_THREAD_LIMIT=1), as many at once as its container
 * count or the machine's cores up to two, whichever is more (scanned PDF pages come two at a time).
 */
export function tesseractDefinition(options: { command?: string } = {}): OcrAdapterDefinition<Record<string, never>> {
  return {
    kind: 'tesseract-local',
    name: { 'zh-CN': 'Tesseract 文字识别（本机）', 'en-US': 'Tesseract OCR (local)' },
    capability: ocrCapability,
    config: z.object({}),
    local: true,
    create(node, helpers) {
      // A picture takes longer than a translation request: at least five minutes.
      return createTesseractAdapter({ ...options, timeoutMs: Math.max(helpers.timeoutMs, 300_000), parallel: Math.max(node.containers, Math.min(2, availableParallelism())) });
    },
  };
}
