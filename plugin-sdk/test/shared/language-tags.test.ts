import { describe, expect, it } from 'vitest';
import { languageBase, languageTag, languageTagSchema, platformLanguage, variantMatch } from '../../src/shared/language-tags.js';

describe('language tags (BCP 47)', () => {
  it('normalises case and separators and keeps every subtag', () => {
    const cases: Record<string, string | null> = {
      'en-gb': 'en-GB',
      EN_us: 'en-US',
      'zh-hans-cn': 'zh-Hans-CN',
      'SR-LATN': 'sr-Latn',
      'es-419': 'es-419',
      'de-CH-1996': 'de-CH-1996',
      'en-US-x-Twain': 'en-US-x-twain',
      iw: 'iw',
      'x-Klingon': 'x-klingon',
      '*all*': null,
      'en--GB': null,
      'english language': null,
      '': null,
      'en-GBR': 'en-gbr',
    };
    for (const [code, want] of Object.entries(cases)) expect(languageTag(code), code).toBe(want);
    expect(languageTagSchema.safeParse('zh-hant-tw').data).toBe('zh-Hant-TW');
    expect(languageTagSchema.safeParse('en GB').error?.issues[0]?.message).toBe('validation.languageTag');
  });

  it('groups variants by language and script, the script implied where not written', () => {
    expect(languageBase('en-GB')).toBe(languageBase('en'));
    expect(languageBase('zh-CN')).toBe(languageBase('zh-Hans-SG'));
    expect(languageBase('zh-TW')).not.toBe(languageBase('zh-CN'));
    expect(languageBase('sr-Latn')).not.toBe(languageBase('sr'));
    expect(variantMatch('en-GB', 'en-gb')).toBe('exact');
    expect(variantMatch('zh-CN', 'zh-Hans-CN')).toBe('exact');
    expect(variantMatch('en-GB', 'en')).toBe('generic');
    expect(variantMatch('en', 'en-US')).toBe('generic');
    expect(variantMatch('en-GB', 'en-US')).toBe('variant');
    expect(variantMatch('zh-HK', 'zh-TW')).toBe('variant');
    expect(variantMatch('zh-TW', 'zh-CN')).toBeNull();
    expect(variantMatch('en', 'fr')).toBeNull();
  });

  it("maps language codes as files name them to the platform's (TMX, TBX, term CSV, import forms)", () => {
    const cases: Record<string, string> = { 'en-US': 'en', en: 'en', 'EN-us': 'en', en_GB: 'en', 'ES-es': 'es', zh: 'zh-CN', 'zh-Hans': 'zh-CN', 'zh-CN': 'zh-CN', 'zh-Hant-TW': 'zh-TW', 'ZH-tw': 'zh-TW', 'zh-HK': 'zh-TW', '*all*': '*all*' };
    for (const [code, want] of Object.entries(cases)) expect(platformLanguage(code), code).toBe(want);
  });
});
