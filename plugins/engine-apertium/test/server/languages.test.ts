// Database: none
import { describe, expect, it } from 'vitest';
import { fromApertiumCode, fromApertiumMode, toApertiumCode } from '../../server/languages.js';

describe('Apertium language codes', () => {
  it('maps Apertium three-letter and two-letter names to platform codes', () => {
    expect(fromApertiumCode('eng')).toBe('en');
    expect(fromApertiumCode('spa')).toBe('es');
    expect(fromApertiumCode('cat')).toBe('ca');
    expect(fromApertiumCode('fra')).toBe('fr');
    expect(fromApertiumCode('fr')).toBe('fr');
    expect(fromApertiumCode('es')).toBe('es');
    expect(fromApertiumCode('epo')).toBe('eo');
    expect(fromApertiumCode('eo')).toBe('eo');
  });

  it('turns regions into BCP-47 regions and other variants into private-use subtags', () => {
    expect(fromApertiumCode('eng_US')).toBe('en-US');
    expect(fromApertiumCode('cat_valencia')).toBe('ca-x-valencia');
    expect(fromApertiumCode('cat_valencia_iec2017')).toBe('ca-x-valencia-iec2017');
  });

  it('maps platform codes back to the names APy accepts, round-tripping variants', () => {
    for (const code of ['eng', 'spa', 'cat', 'fra', 'epo', 'eng_US', 'cat_valencia', 'cat_valencia_uni_iec2017']) {
      expect(toApertiumCode(fromApertiumCode(code))).toBe(code);
    }
    expect(toApertiumCode('zh-CN')).toBe('zho');
  });

  it('reads mode names of both generations', () => {
    expect(fromApertiumMode('eng-spa')).toEqual({ source: 'en', target: 'es' });
    expect(fromApertiumMode('fr-es')).toEqual({ source: 'fr', target: 'es' });
    expect(fromApertiumMode('eng-cat_valencia')).toEqual({ source: 'en', target: 'ca-x-valencia' });
    expect(fromApertiumMode('not a mode')).toBeNull();
  });

});
