// Database: none
import { describe, expect, it } from 'vitest';
import { FALLBACK_THRESHOLD, thresholdsFrom } from '../../server/models.js';
import { LEGACY_METHOD } from '../../server/tables.js';

// The decision threshold of a method: the plugin's config per method, the older single `threshold` for
// the local method only, else the engine's suggestion, else the fallback.

const EMBEDDING = 'embedding/paddlespeech/ecapatdnn_voxceleb12';

describe('thresholds per method', () => {
  it("takes the engine's suggestion when the config names none", () => {
    const of = thresholdsFrom({});
    expect(of(LEGACY_METHOD, 1.2)).toBe(1.2);
    expect(of(EMBEDDING, 0.6)).toBe(0.6);
    expect(of(EMBEDDING, null)).toBe(FALLBACK_THRESHOLD);
    expect(of(null, undefined)).toBe(FALLBACK_THRESHOLD);
  });

  it('lets `thresholds` override per method, and the older `threshold` only for the local method', () => {
    const of = thresholdsFrom({ threshold: 1.5, thresholds: { [EMBEDDING]: 0.72 } });
    expect(of(EMBEDDING, 0.5)).toBe(0.72);
    expect(of(LEGACY_METHOD, 1.2)).toBe(1.5);
    expect(of('embedding/other', 0.4)).toBe(0.4);
    expect(thresholdsFrom({ threshold: 1.5, thresholds: { [LEGACY_METHOD]: 1.3 } })(LEGACY_METHOD, 1.2)).toBe(1.3);
  });

  it('ignores a config of the wrong shape, saying so, rather than failing', () => {
    const said: string[] = [];
    const of = thresholdsFrom({ threshold: 'high', thresholds: [1] }, (m) => said.push(m));
    expect(of(LEGACY_METHOD, 1.2)).toBe(1.2);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('ignored');
    thresholdsFrom({ thresholds: { [EMBEDDING]: 0.7 } }, (m) => said.push(m));
    expect(said).toHaveLength(1);
  });
});
