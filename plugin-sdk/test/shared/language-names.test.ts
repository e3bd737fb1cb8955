import { describe, expect, it } from 'vitest';
import { languageDisplayName } from '../../src/shared/language-names.js';

describe('language names', () => {
  it('names standard tags in either interface language', () => {
    expect(languageDisplayName('es')).toBe('Spanish');
    expect(languageDisplayName('en-GB')).toBe('British English');
    expect(languageDisplayName('sr-Latn')).toBe('Serbian (Latin)');
    expect(languageDisplayName('es', 'zh-CN')).toBe('西班牙语');
  });

  it('names the private-use variants engines use, never showing the code', () => {
    expect(languageDisplayName('ca-x-valencia')).toBe('Catalan (Valencian)');
    expect(languageDisplayName('ca-x-valencia', 'zh-CN')).toBe('加泰罗尼亚语（瓦伦西亚）');
    expect(languageDisplayName('pt-x-PTpre1990')).toBe('Portuguese (Portugal, pre-1990 spelling)');
    expect(languageDisplayName('ca-x-valencia-iec2017')).toBe('Catalan (Valencian, IEC 2017 norm)');
    for (const code of ['ca-x-valencia', 'pt-x-PTpre1990', 'oc-x-aran']) expect(languageDisplayName(code)).not.toContain(code);
  });

  it('keeps two unknown variants apart and leaves what is not a language as written', () => {
    expect(languageDisplayName('es-x-foo')).toBe('Spanish (foo)');
    expect(languageDisplayName('es-x-foo')).not.toBe(languageDisplayName('es-x-bar'));
    expect(languageDisplayName('not a tag')).toBe('not a tag');
    expect(languageDisplayName('')).toBe('');
  });
});
