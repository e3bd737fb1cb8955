import { describe, expect, it } from 'vitest';
import { ValidationKeys } from '@linguaport/sdk/shared';
import { limitsSchema } from '../../shared/rules.js';

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
