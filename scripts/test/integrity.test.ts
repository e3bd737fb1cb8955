import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM build code without type declarations
import { contentHash, integrityOf } from '../lib/integrity.mjs';

describe('integrityOf', () => {
  it('matches the published subresource-integrity example', () => {
    // The example of the W3C/MDN SRI documentation.
    expect(integrityOf("alert('Hello, world.');")).toBe('sha384-H8BRh8j48O9oYatfu5AZzq6A9RINhZO5H16dQZngK7T62em8MUt1FLm52t+eX6xO');
  });

  it('changes when one byte of the bundle changes', () => {
    expect(integrityOf(Buffer.from('System.register([],function(){})'))).not.toBe(integrityOf(Buffer.from('System.register([],function(){}) ')));
  });
});

describe('contentHash', () => {
  it('is short, hex and the same for the same bytes', () => {
    const a = contentHash(Buffer.from('abc'));
    expect(a).toMatch(/^[0-9a-f]{10}$/);
    expect(contentHash('abc')).toBe(a);
    expect(contentHash('abd')).not.toBe(a);
  });
});
