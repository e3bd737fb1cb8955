// Database: none
import { describe, expect, it } from 'vitest';
import { warmFirst, WARM_LIMIT } from '../../server/apy-process.js';

describe('which directions APy warms at start', () => {
  it('warms English and Spanish directions first, then the others in order, never more than the limit', () => {
    const pairs = ['cat|ita', 'eus|spa', 'eng|spa', 'spa|eng', 'fra|cat', 'eng|cat_valencia', 'por|glg', 'spa|ron', 'ron|spa', 'ita|cat', 'glg|por', 'oci|fra'];
    const warmed = warmFirst(pairs);
    expect(warmed).toHaveLength(WARM_LIMIT);
    expect(warmed.slice(0, 2)).toEqual(['eng|spa', 'spa|eng']);
    expect(warmed.slice(2, 6)).toEqual(['eus|spa', 'eng|cat_valencia', 'spa|ron', 'ron|spa']);
    expect(warmed).not.toContain('oci|fra');
    expect(warmFirst(['eng|spa'])).toEqual(['eng|spa']);
  });
});
