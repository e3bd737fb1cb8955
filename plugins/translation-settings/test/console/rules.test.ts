import { describe, expect, it } from 'vitest';
import { ValidationKeys } from '@linguaport/sdk/shared';
import { limitsSchema, ltSchema } from '../../shared/rules.js';

const valid = { TEXT_TRANSLATION_CAP: '5000', API_TRANSLATION_CAP: '100000', FILE_COUNT_LIMIT: '10', FILE_SIZE_LIMIT_MB: '20', QUEUE_LIMIT: '100' };
const issues = (input: object) => {
  const r = limitsSchema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe('translation limits rule', () => {
  it('accepts the seeded values and yields numbers', () => {
    expect(limitsSchema.parse(valid)).toEqual({ TEXT_TRANSLATION_CAP: 5000, API_TRANSLATION_CAP: 100000, FILE_COUNT_LIMIT: 10, FILE_SIZE_LIMIT_MB: 20, QUEUE_LIMIT: 100 });
  });

  it('requires every value', () => {
    expect(issues({ ...valid, QUEUE_LIMIT: '' })).toEqual({ QUEUE_LIMIT: ValidationKeys.required });
  });

  it('refuses zero, negative and fractional values', () => {
    for (const v of ['0', '-3', '2.5', 'ten']) expect(issues({ ...valid, FILE_COUNT_LIMIT: v }), v).toEqual({ FILE_COUNT_LIMIT: ValidationKeys.positiveInteger });
  });

  it('refuses a text cap above the API cap on both fields, and accepts them equal', () => {
    expect(issues({ ...valid, TEXT_TRANSLATION_CAP: '200000' })).toEqual({
      TEXT_TRANSLATION_CAP: 'translationSettings:invalid.textAboveApi',
      API_TRANSLATION_CAP: 'translationSettings:invalid.apiBelowText',
    });
    expect(issues({ ...valid, TEXT_TRANSLATION_CAP: '100000' })).toEqual({});
  });
});

describe('LibreTranslate API settings rule', () => {
  const lt = { LT_KEYLESS: '0', LT_KEYLESS_CAP: '10000', LT_RATE_LIMIT: '600', LT_CORS_ORIGINS: '' };
  const ltIssues = (input: object) => {
    const r = ltSchema.safeParse(input);
    return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
  };

  it('accepts the seeded values, and tidies the origins list', () => {
    expect(ltSchema.parse(lt)).toEqual({ ...lt, LT_KEYLESS_CAP: 10000, LT_RATE_LIMIT: 600 });
    expect(ltSchema.parse({ ...lt, LT_CORS_ORIGINS: ' https://a.example.org/ , http://localhost:5173,' }).LT_CORS_ORIGINS).toBe('https://a.example.org,http://localhost:5173');
    expect(ltSchema.parse({ ...lt, LT_CORS_ORIGINS: '*' }).LT_CORS_ORIGINS).toBe('*');
  });

  it('refuses a limit of zero and an origin that is not one', () => {
    expect(ltIssues({ ...lt, LT_RATE_LIMIT: '0' })).toEqual({ LT_RATE_LIMIT: ValidationKeys.positiveInteger });
    expect(ltIssues({ ...lt, LT_CORS_ORIGINS: 'example.org' })).toEqual({ LT_CORS_ORIGINS: 'translationSettings:invalid.origins' });
    expect(ltIssues({ ...lt, LT_CORS_ORIGINS: 'https://a.example.org/path' })).toEqual({ LT_CORS_ORIGINS: 'translationSettings:invalid.origins' });
    expect(ltIssues({ ...lt, LT_KEYLESS: 'yes' })).toHaveProperty('LT_KEYLESS');
  });
});
