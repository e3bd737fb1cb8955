import { describe, expect, it } from 'vitest';
import { seededRandom as modelRandom } from '@linguaport/speaker-model';
import { seededRandom } from '../../src/testing/formats.js';

// The testing kit's seeded generator is the speaker model's, not a copy of it (issue 24).
describe('testing kit: seededRandom', () => {
  it('is the one implementation of the workspace', () => {
    expect(seededRandom).toBe(modelRandom);
    expect(Array.from({ length: 3 }, seededRandom(7))).toEqual(Array.from({ length: 3 }, modelRandom(7)));
  });
});
