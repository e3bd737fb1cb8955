import { describe, expect, it } from 'vitest';
import { pdfPages } from '../../src/server/office.js';
import { MAX_PICTURE_PIXELS, pictureSize, renderDpi } from '../../src/server/pictures.js';
import { pdfOfPages } from '../../src/testing/pdf-pages.js';

// A PDF of about a kilobyte can declare a page of 200 × 200 inches; rendered at the asked resolution it
// would be 900 million pixels (tesseract took 1.17 GB on one). Each page is rendered within the limit.

describe('page renderings within the picture limit', () => {
  it('renders a huge page at a lower resolution, and a normal page beside it at the asked one', async () => {
    const pdf = pdfOfPages([
      [612, 792],
      [14_400, 14_400],
    ]);
    expect(pdf.length).toBeLessThan(2000);
    const [normal, huge] = await pdfPages(pdf, { dpi: 150, maxPages: 2 });
    expect(pictureSize(normal!)).toEqual({ width: 1275, height: 1650 });
    const size = pictureSize(huge!)!;
    expect(size.width * size.height).toBeLessThanOrEqual(MAX_PICTURE_PIXELS);
    expect(size.width).toBeGreaterThan(5000);
  }, 60_000);

  it('chooses the resolution from the page size', () => {
    expect(renderDpi(612, 792, 150)).toBe(150);
    const dpi = renderDpi(14_400, 14_400, 150);
    expect(((14_400 * dpi) / 72) ** 2).toBeLessThanOrEqual(MAX_PICTURE_PIXELS);
    expect(renderDpi(0, 0, 150)).toBe(150);
  });
});
