// Database: none
import { describe, expect, it } from 'vitest';
import { fromLibreCode, languageName, toLibreCode } from '../../src/translation/languages.js';

describe('language codes', () => {
  it('matches LibreTranslate Chinese codes old and new', () => {
    expect(fromLibreCode('zh-Hans')).toBe('zh-CN');
    expect(fromLibreCode('zh')).toBe('zh-CN');
    expect(toLibreCode('zh-CN', ['en', 'zh-Hans'])).toBe('zh-Hans');
    expect(toLibreCode('zh-CN', ['en', 'zh'])).toBe('zh');
    expect(toLibreCode('de', ['en', 'zh'])).toBeNull();
  });

  it('names languages in English for prompts', () => {
    expect(languageName('es')).toBe('Spanish');
    expect(languageName('zh-CN')).toBe('Chinese (China)');
  });
});
