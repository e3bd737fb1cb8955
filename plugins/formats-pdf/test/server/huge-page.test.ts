import { describe, expect, it } from 'vitest';
import { DOCUMENT_BUDGETS, MAX_PICTURE_PIXELS, pictureSize, type OcrService } from '@linguaport/sdk/server';
import { pdfOfPages } from '@linguaport/sdk/testing';
import { createPdfFormat, PdfReadError } from '../../server/pdf.js';

// Issue 21 item 8: a PDF of about a kilobyte with one scanned page of 200 × 200 inches drove tesseract to
// 1.17 GB. The page is rendered for OCR at the resolution that keeps it within the picture limit.

describe('OCR of a huge scanned page', () => {
  it('renders the page within the picture limit, a normal page at the asked resolution', async () => {
    const seen: Array<{ width: number; height: number }> = [];
    const ocr: OcrService = {
      languages: async () => ['en'],
      recognize: async ({ image }) => {
        const size = pictureSize(image)!;
        seen.push(size);
        return { ...size, lines: [], languages: ['en'], nodeId: 1, kind: 'recording' };
      },
    };
    const pdf = pdfOfPages([
      [14_400, 14_400],
      [612, 792],
    ]);
    expect(pdf.length).toBeLessThan(2000);
    await createPdfFormat(ocr, { ocrDpi: 150, ocrConcurrency: 1 }).parse(pdf, { fileName: 'huge.pdf' });
    expect(seen).toHaveLength(2);
    expect(seen[0]!.width * seen[0]!.height).toBeLessThanOrEqual(MAX_PICTURE_PIXELS);
    expect(seen[0]!.width).toBeGreaterThan(5000);
    expect(seen[1]).toEqual({ width: 1275, height: 1650 });
  });

  it('reads the text layer in a worker within the document budget, and refuses one over it with its reason', async () => {
    const none: OcrService = { languages: async () => [], recognize: async () => Promise.reject(new Error('no OCR')) };
    const pdf = pdfOfPages([[612, 792, 'The annual report of the company.']]);
    const read = await createPdfFormat(none).parse(pdf);
    expect(read.units.map((u) => u.source)).toEqual(['The annual report of the company.']);
    const err = await createPdfFormat(none, { budgets: { ...DOCUMENT_BUDGETS, maxDocumentMb: 0.0001 } }).parse(pdf).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PdfReadError);
    expect((err as PdfReadError).code).toBe('tooLarge');
    expect((err as PdfReadError).localized!['en-US']).toMatch(/text layer is larger than 0.0001 MB, over the processing limit/);
  });
});
