import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { emailSchema, passwordPairSchema, userNameSchema, ValidationKeys } from '../../src/shared/checks.js';
import { describeIssues, validationMessage, validationMessages } from '../../src/shared/validation-messages.js';

describe('validation messages', () => {
  it('has a zh-CN and an en-US text for every check key', () => {
    for (const key of Object.values(ValidationKeys)) {
      expect(validationMessages['zh-CN'][key], key).toMatch(/\S/);
      expect(validationMessages['en-US'][key], key).toMatch(/\S/);
      expect(validationMessages['zh-CN'][key]).not.toBe(validationMessages['en-US'][key]);
    }
  });

  it('gives the text of a key in the asked locale', () => {
    expect(validationMessage('validation.email', 'en-US')).toBe('Enter a valid email address');
    expect(validationMessage('validation.email', 'zh-CN')).toBe('请输入正确的邮箱地址');
  });

  it('falls back to zh-CN for an unknown locale and returns unknown keys unchanged', () => {
    expect(validationMessage('validation.digits', 'fr-FR')).toBe(validationMessages['zh-CN']['validation.digits']);
    expect(validationMessage('Invalid input: expected string', 'en-US')).toBe('Invalid input: expected string');
  });

  it('writes the user name limits into the text', () => {
    expect(validationMessage('validation.userNameLength', 'en-US')).toBe('The user name must be 2 to 255 characters long');
  });

  it('fills {{name}} placeholders from params and leaves missing ones', () => {
    const original = validationMessages['en-US']['validation.required'];
    validationMessages['en-US']['validation.required'] = '{{field}} is required ({{other}})';
    try {
      expect(validationMessage('validation.required', 'en-US', { field: 'Name' })).toBe('Name is required ({{other}})');
    } finally {
      validationMessages['en-US']['validation.required'] = original;
    }
  });

  it('describes the issues of a failed parse as one line naming each field', () => {
    const r = passwordPairSchema.safeParse({ password: 'a', confirmPassword: 'b' });
    expect(describeIssues(r.error!.issues, 'en-US')).toBe('confirmPassword: The two passwords do not match');
    const e = emailSchema.safeParse('nope');
    expect(describeIssues(e.error!.issues, 'zh-CN')).toBe('请输入正确的邮箱地址');
    const u = userNameSchema.safeParse(5);
    expect(describeIssues(u.error!.issues, 'en-US')).toBe('This field is required');
  });

  it('loads into i18next as is and resolves the dotted keys', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: 'en-US',
      fallbackLng: 'zh-CN',
      resources: { 'zh-CN': { translation: validationMessages['zh-CN'] }, 'en-US': { translation: validationMessages['en-US'] } },
    });
    expect(i18n.t('validation.passwordMismatch')).toBe('The two passwords do not match');
    await i18n.changeLanguage('zh-CN');
    expect(i18n.t('validation.passwordMismatch')).toBe('两次输入的密码不一致');
  });
});
