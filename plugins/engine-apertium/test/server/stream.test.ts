// Database: none
import { describe, expect, it } from 'vitest';
import { seededRandom } from '@linguaport/sdk/testing';
import { fromStream, toStream } from '../../server/stream.js';

describe("Apertium's stream format for plain text", () => {
  it('escapes what the format reserves and closes the text as apertium-destxt does', () => {
    expect(toStream('A [b] ^c$ @d /e \\f <g> {h} *i #j.')).toBe('A \\[b\\] \\^c\\$ \\@d \\/e \\\\f \\<g\\> \\{h\\} *i #j..[]');
    expect(toStream('A b\tc  d.\n\n\nE f')).toBe('A b[\t]c[  ]d..[][\n\n\n]E f.[]');
  });

  it('reads back what it wrote, whatever the text (seeded)', () => {
    const random = seededRandom(13);
    const alphabet = ['a', 'b', ' ', ' ', '.', '\n', '\t', '[', ']', '^', '$', '@', '/', '\\', '<', '>', '{', '}', '*', '#', 'é', '中', '.[]', '[]'];
    for (let i = 0; i < 500; i++) {
      let text = '';
      for (let k = Math.floor(random() * 20); k > 0; k--) text += alphabet[Math.floor(random() * alphabet.length)];
      expect(fromStream(toStream(text)), JSON.stringify(text)).toBe(text);
    }
  });
});
