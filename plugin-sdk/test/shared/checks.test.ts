import { describe, expect, it } from 'vitest';
import {
  chinesePhoneSchema,
  digitsAndPunctuationSchema,
  digitsSchema,
  emailSchema,
  isChinesePhone,
  isDigits,
  isDigitsAndPunctuation,
  isEmail,
  isNonNegativeDecimal,
  isNonNegativeInteger,
  isOnlySpecialOrDigits,
  isPositiveInteger,
  isSlashPath,
  isUrlLike,
  nonNegativeDecimalSchema,
  nonNegativeIntegerSchema,
  passwordPairSchema,
  positiveIntegerSchema,
  slashPathSchema,
  termSourceSchema,
  urlLikeSchema,
  userNameSchema,
  ValidationKeys,
} from '../../src/shared/checks.js';
import type { z } from 'zod';

/** The issue messages (keys) a schema reports for an input; [] when the input passes. */
function keysOf(schema: z.ZodType, input: unknown): string[] {
  const r = schema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

describe('url-like check', () => {
  it.each(['http://example.com', 'https://example.com/a?b=1#c', 'HTTPS://Example.com:8443', 'mailto:someone@example.com', 'tel:+86-10-12345678'])(
    'accepts %s',
    (text) => expect(isUrlLike(text)).toBe(true),
  );
  it.each(['', 'example.com', 'ftp://example.com', 'http://', 'https:// example.com', 'mailto:nobody', 'tel:call-me', 'javascript:alert(1)'])(
    'rejects %j',
    (text) => expect(isUrlLike(text)).toBe(false),
  );
  it('reports the url key through its schema', () => {
    expect(keysOf(urlLikeSchema, 'example.com')).toEqual([ValidationKeys.urlLike]);
    expect(keysOf(urlLikeSchema, 'https://example.com')).toEqual([]);
  });
});

describe('digits-only check', () => {
  it('accepts digits including leading zeros', () => {
    expect(isDigits('0')).toBe(true);
    expect(isDigits('007')).toBe(true);
  });
  it.each(['', '1.5', '-1', '12a', ' 12', '١٢'])('rejects %j', (text) => expect(isDigits(text)).toBe(false));
  it('reports required for a missing value and the digits key for letters', () => {
    expect(keysOf(digitsSchema, undefined)).toEqual([ValidationKeys.required]);
    expect(keysOf(digitsSchema, 'abc')).toEqual([ValidationKeys.digits]);
  });
});

describe('non-negative number with up to 5 decimals', () => {
  it.each(['0', '12', '0.5', '3.14159', 7, 2.5])('accepts %j', (v) => expect(isNonNegativeDecimal(v)).toBe(true));
  it.each(['', '-1', '1.123456', '01', '1.', '.5', 'abc', -0.5, '1e3'])('rejects %j', (v) => expect(isNonNegativeDecimal(v)).toBe(false));
  it('turns accepted text into a number', () => {
    expect(nonNegativeDecimalSchema.parse('3.25')).toBe(3.25);
    expect(keysOf(nonNegativeDecimalSchema, '1.123456')).toEqual([ValidationKeys.decimal]);
  });
});

describe('positive integer', () => {
  it.each(['1', '42', 9007199254740991, 3])('accepts %j', (v) => expect(isPositiveInteger(v)).toBe(true));
  it.each(['0', '-3', '1.5', '01', '', '9007199254740993', 0, 2.5])('rejects %j', (v) => expect(isPositiveInteger(v)).toBe(false));
  it('parses a sort value from text and rejects zero', () => {
    expect(positiveIntegerSchema.parse('12')).toBe(12);
    expect(keysOf(positiveIntegerSchema, 0)).toEqual([ValidationKeys.positiveInteger]);
    expect(keysOf(positiveIntegerSchema, null)).toEqual([ValidationKeys.required]);
  });
});

describe('non-negative integer', () => {
  it.each(['0', '10', 0, 5])('accepts %j', (v) => expect(isNonNegativeInteger(v)).toBe(true));
  it.each(['-1', '00', '1.0', '', -1, 0.5])('rejects %j', (v) => expect(isNonNegativeInteger(v)).toBe(false));
  it('reports its own key', () => {
    expect(nonNegativeIntegerSchema.parse('0')).toBe(0);
    expect(keysOf(nonNegativeIntegerSchema, '-1')).toEqual([ValidationKeys.nonNegativeInteger]);
  });
});

describe('email with a 2-4 letter suffix', () => {
  it.each(['a@b.cn', 'first.last+tag@mail.example.com', 'x_y@sub-domain.info'])('accepts %s', (t) => expect(isEmail(t)).toBe(true));
  it.each(['a@b.c', 'a@b.museum', 'a@b', 'a b@c.com', '@b.com', 'a@-b.com', 'a@b..com', 'a@b.c0m'])('rejects %s', (t) =>
    expect(isEmail(t)).toBe(false),
  );
  it('reports the email key', () => expect(keysOf(emailSchema, 'a@b.c')).toEqual([ValidationKeys.email]));
});

describe('Chinese phone numbers', () => {
  it.each(['13812345678', '+8613812345678', '19912345678', '010-12345678', '0755-1234567', '02112345678', '010-12345678-123', '400-123-4567', '8001234567'])(
    'accepts %s',
    (t) => expect(isChinesePhone(t)).toBe(true),
  );
  it.each(['12812345678', '1381234567', '138123456789', '010-0123456', '500-123-4567', '400-12-34567', 'phone'])('rejects %s', (t) =>
    expect(isChinesePhone(t)).toBe(false),
  );
  it('reports the phone key', () => expect(keysOf(chinesePhoneSchema, '123')).toEqual([ValidationKeys.phone]));
});

describe('path starting with a slash', () => {
  it.each(['/', '/system/user', '/a?b=1'])('accepts %s', (t) => expect(isSlashPath(t)).toBe(true));
  it.each(['', 'system/user', '//evil.example.com', '/a b', 'http://x'])('rejects %j', (t) => expect(isSlashPath(t)).toBe(false));
  it('reports the path key', () => expect(keysOf(slashPathSchema, 'user')).toEqual([ValidationKeys.slashPath]));
});

describe('digits and punctuation only', () => {
  it.each(['123', '1,234.5', '(010) 1234-5678', '...', '2024-01-01', '１２３。', '100%'])('accepts %s', (t) =>
    expect(isDigitsAndPunctuation(t)).toBe(true),
  );
  it.each(['', '   ', 'abc', '12 apples', '一二三'])('rejects %j', (t) => expect(isDigitsAndPunctuation(t)).toBe(false));
  it('reports its key', () => expect(keysOf(digitsAndPunctuationSchema, 'a1')).toEqual([ValidationKeys.digitsAndPunctuation]));
});

describe('term source rule', () => {
  it.each(['12345', '!!!', '#@%&', '123-456', '12 %% 34', '😀😀', '【】'])('treats %j as only special characters or digits', (t) =>
    expect(isOnlySpecialOrDigits(t)).toBe(true),
  );
  it.each(['cloud', '云计算', 'COVID-19', 'C++', 'Ünïcode', '3D打印'])('treats %j as a term', (t) => expect(isOnlySpecialOrDigits(t)).toBe(false));
  it('rejects a term whose source is only digits and one that is blank', () => {
    expect(keysOf(termSourceSchema, '2024')).toEqual([ValidationKeys.termSource]);
    expect(keysOf(termSourceSchema, '   ')).toEqual([ValidationKeys.required]);
    expect(termSourceSchema.parse('  machine translation ')).toBe('machine translation');
  });
});

describe('user name', () => {
  it('trims and accepts 2 to 255 characters', () => {
    expect(userNameSchema.parse('  li ')).toBe('li');
    expect(userNameSchema.parse('x'.repeat(255))).toHaveLength(255);
    expect(userNameSchema.parse('张三')).toBe('张三');
  });
  it('rejects 1 and 256 characters, counting emoji once each', () => {
    expect(keysOf(userNameSchema, ' a ')).toEqual([ValidationKeys.userNameLength]);
    expect(keysOf(userNameSchema, 'x'.repeat(256))).toEqual([ValidationKeys.userNameLength]);
    expect(keysOf(userNameSchema, '😀'.repeat(255))).toEqual([]);
    expect(keysOf(userNameSchema, '😀'.repeat(256))).toEqual([ValidationKeys.userNameLength]);
  });
  it('reports required for empty and missing names', () => {
    expect(keysOf(userNameSchema, '   ')).toEqual([ValidationKeys.required]);
    expect(keysOf(userNameSchema, undefined)).toEqual([ValidationKeys.required]);
  });
});

describe('password pair', () => {
  it('accepts two equal passwords', () => {
    expect(passwordPairSchema.parse({ password: 's3cret!', confirmPassword: 's3cret!' })).toEqual({ password: 's3cret!', confirmPassword: 's3cret!' });
  });
  it('reports a mismatch on confirmPassword', () => {
    const r = passwordPairSchema.safeParse({ password: 'a1', confirmPassword: 'a2' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['confirmPassword', ValidationKeys.passwordMismatch]]);
  });
  it('requires both fields', () => {
    const r = passwordPairSchema.safeParse({ password: '' });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['password', ValidationKeys.required],
      ['confirmPassword', ValidationKeys.required],
    ]);
  });
});
