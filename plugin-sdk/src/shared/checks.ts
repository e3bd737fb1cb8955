import { z } from 'zod';

/**
 * The generic input checks of spec 01 section 5 and the term-source rule of spec 02 section 5.
 * Each check is a plain predicate (for ad-hoc use) plus a zod schema built on it whose issue
 * message is a key of `validation-messages.ts`; the server turns the key into a readable 400 msg
 * and the console forms into i18next text. Schemas used for required form fields reject
 * undefined, empty and blank input with `validation.required`.
 */

export const ValidationKeys = {
  required: 'validation.required',
  urlLike: 'validation.urlLike',
  digits: 'validation.digits',
  decimal: 'validation.decimal',
  positiveInteger: 'validation.positiveInteger',
  nonNegativeInteger: 'validation.nonNegativeInteger',
  email: 'validation.email',
  phone: 'validation.phone',
  slashPath: 'validation.slashPath',
  digitsAndPunctuation: 'validation.digitsAndPunctuation',
  termSource: 'validation.termSource',
  reservedMarkers: 'validation.reservedMarkers',
  userNameLength: 'validation.userNameLength',
  passwordMismatch: 'validation.passwordMismatch',
  id: 'validation.id',
  noNul: 'validation.noNul',
  uploadedFile: 'validation.uploadedFile',
  languageTag: 'validation.languageTag',
} as const;

export type ValidationKey = (typeof ValidationKeys)[keyof typeof ValidationKeys];

/** Maximum number of decimals the non-negative number check accepts. */
export const MAX_DECIMALS = 5;

/** Characters one text translation may carry, unless the system configuration says otherwise (TEXT_TRANSLATION_CAP). */
export const DEFAULT_TEXT_TRANSLATION_CAP = 5000;
/** Characters a user may send through the public API in a day, unless configured (API_TRANSLATION_CAP). */
export const DEFAULT_API_TRANSLATION_CAP = 100_000;
/** User/account name length in characters (spec 02 section 9). */
export const USER_NAME_MIN = 2;
export const USER_NAME_MAX = 255;
/** The largest value of a PostgreSQL `integer` column (sort orders, counts stored as integer). */
export const MAX_INTEGER = 2_147_483_647;
/** The largest row id: ids are `integer`/`serial` columns, so a larger one cannot exist. */
export const MAX_ID = MAX_INTEGER;

// Numbers arrive as numbers from JSON bodies and as text from forms and query strings.
type NumberLike = string | number;

function asText(value: NumberLike): string {
  return typeof value === 'number' ? String(value) : value;
}

/** http(s) with a host, mailto with an address, or tel with a number; no white space anywhere. */
export function isUrlLike(text: string): boolean {
  return /^(?:https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?|mailto:[^\s@]+@[^\s@]+|tel:\+?[0-9][0-9()\-.]*)$/i.test(text);
}

/** One or more ASCII digits and nothing else (leading zeros allowed: codes such as 007). */
export function isDigits(text: string): boolean {
  return /^[0-9]+$/.test(text);
}

/** 0, 12, 0.5, 3.14159: no sign, no leading zeros, at most five decimals. */
export function isNonNegativeDecimal(value: NumberLike): boolean {
  const text = asText(value);
  return new RegExp(`^(?:0|[1-9][0-9]*)(?:\\.[0-9]{1,${MAX_DECIMALS}})?$`).test(text) && Number.isFinite(Number(text));
}

/** 1, 2, 3 ...: no sign, no leading zeros, no decimals, within the safe integer range. */
export function isPositiveInteger(value: NumberLike): boolean {
  const text = asText(value);
  return /^[1-9][0-9]*$/.test(text) && Number.isSafeInteger(Number(text));
}

/** 0, 1, 2 ...: as positive integer, plus zero. */
export function isNonNegativeInteger(value: NumberLike): boolean {
  const text = asText(value);
  return (text === '0' || /^[1-9][0-9]*$/.test(text)) && Number.isSafeInteger(Number(text));
}

/** name@domain.suffix where the last label is 2 to 4 letters (spec 02 section 5). */
export function isEmail(text: string): boolean {
  return /^[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,4}$/.test(text);
}

/**
 * A Chinese phone number: a mobile (11 digits from 13x to 19x, optional +86), a landline
 * (area code 0xx or 0xxx, 7 or 8 digits, optional extension) or a 400/800 service number.
 */
export function isChinesePhone(text: string): boolean {
  const mobile = /^(?:\+?86[- ]?)?1[3-9][0-9]{9}$/;
  const landline = /^0[1-9][0-9]{1,2}-?[1-9][0-9]{6,7}(?:-[0-9]{1,6})?$/;
  const service = /^[48]00-?[0-9]{3}-?[0-9]{4}$/;
  return mobile.test(text) || landline.test(text) || service.test(text);
}

/** An in-site path: a slash first, no white space; `//host` is refused because it leaves the site. */
export function isSlashPath(text: string): boolean {
  return /^\/(?!\/)\S*$/.test(text);
}

/** Only digits, punctuation and symbols (white space between them allowed), at least one of them. */
export function isDigitsAndPunctuation(text: string): boolean {
  return /^[\p{Nd}\p{P}\p{S}\s]+$/u.test(text) && /[\p{Nd}\p{P}\p{S}]/u.test(text);
}

/**
 * The term/TM source rule: text that is only special characters, only digits, or a mix of the
 * two (no letter of any script) is not a term. White space is ignored.
 */
export function isOnlySpecialOrDigits(text: string): boolean {
  return !/[\p{L}]/u.test(text);
}

/** Length in characters counted by code point, so an emoji or a CJK character counts once. */
export function characterCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

const requiredText = () => z.string({ error: ValidationKeys.required });

/** A string schema that applies a check; empty input fails the check like any other bad input. */
function checked(check: (text: string) => boolean, message: ValidationKey) {
  return requiredText().refine(check, { message });
}

/** A number-like schema (string or number) that applies a check and yields a number. */
function checkedNumber(check: (value: NumberLike) => boolean, message: ValidationKey) {
  return z
    .union([z.string(), z.number()], { error: ValidationKeys.required })
    .refine(check, { message })
    .transform((value) => Number(value));
}

export const urlLikeSchema = checked(isUrlLike, ValidationKeys.urlLike);
export const digitsSchema = checked(isDigits, ValidationKeys.digits);
export const nonNegativeDecimalSchema = checkedNumber(isNonNegativeDecimal, ValidationKeys.decimal);
export const positiveIntegerSchema = checkedNumber(isPositiveInteger, ValidationKeys.positiveInteger);
export const nonNegativeIntegerSchema = checkedNumber(isNonNegativeInteger, ValidationKeys.nonNegativeInteger);
export const emailSchema = checked(isEmail, ValidationKeys.email);
export const chinesePhoneSchema = checked(isChinesePhone, ValidationKeys.phone);
export const slashPathSchema = checked(isSlashPath, ValidationKeys.slashPath);
export const digitsAndPunctuationSchema = checked(isDigitsAndPunctuation, ValidationKeys.digitsAndPunctuation);

// `abort` stops at the first failure, so a blank value reads "required" and nothing more.

/** Term and TM source: required (after trimming) and containing at least one letter. */
export const termSourceSchema = requiredText()
  .trim()
  .min(1, { message: ValidationKeys.required, abort: true })
  .refine((text) => !isOnlySpecialOrDigits(text), { message: ValidationKeys.termSource });

/**
 * Markers the platform reserves in term and memory translations (spec 02 section 5): the data, time
 * and number placeholders that stand for protected spans while a text is translated, and the triple
 * pipe that separates fields in line-based exchange. A translation holding one would be read back as
 * a marker, so it is refused.
 */
export const RESERVED_MARKERS = ['|||', '{DATA}', '{TIME}', '{NUMBER}', '{{DATA}}', '{{TIME}}', '{{NUMBER}}'] as const;

export function hasReservedMarker(text: string): boolean {
  const upper = text.toUpperCase();
  return RESERVED_MARKERS.some((m) => upper.includes(m));
}

/** Term and TM translation: required (after trimming) and free of the reserved markers. */
export const termTranslationSchema = requiredText()
  .trim()
  .min(1, { message: ValidationKeys.required, abort: true })
  .refine((text) => !hasReservedMarker(text), { message: ValidationKeys.reservedMarkers });

/** User/account name: trimmed, then 2 to 255 characters (uniqueness is the server's job). */
export const userNameSchema = requiredText()
  .trim()
  .min(1, { message: ValidationKeys.required, abort: true })
  .refine((text) => {
    const n = characterCount(text);
    return n >= USER_NAME_MIN && n <= USER_NAME_MAX;
  }, { message: ValidationKeys.userNameLength });

/** The fields of a password pair, for forms that add more fields before the match check. */
export const passwordPairShape = {
  password: requiredText().min(1, ValidationKeys.required),
  confirmPassword: requiredText().min(1, ValidationKeys.required),
};

/** Password and its confirmation: both required and equal; a mismatch is reported on confirmPassword. */
export function refinePasswordPair<T extends z.ZodType<{ password: string; confirmPassword: string }>>(schema: T) {
  return schema.refine((v) => v.password === v.confirmPassword, { message: ValidationKeys.passwordMismatch, path: ['confirmPassword'] });
}

/**
 * A row id wherever one comes in (path, query, body, id lists): a whole number from 1 to MAX_ID,
 * as a number or as text. Every request schema uses this one, so an id the database column cannot
 * hold is a 400 (validation.id) before any query runs. `idNumberSchema` is the same rule for a
 * value already parsed to a number (id lists).
 */
export const idNumberSchema = z.number({ error: ValidationKeys.id }).int(ValidationKeys.id).min(1, ValidationKeys.id).max(MAX_ID, ValidationKeys.id);
export const idSchema = z.coerce.number({ error: ValidationKeys.id }).pipe(idNumberSchema);

/**
 * Ids of chosen resources (memories, term bases), as a form sends them: a JSON list, a comma list, a
 * number, or repeated multipart fields. Missing or empty is `[]`; at most 20 distinct ids.
 */
export const resourceIdsSchema = z
  .union([z.array(z.union([z.string(), z.number()])), z.string(), z.number()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return [] as number[];
    let list: unknown[] = Array.isArray(v) ? v : typeof v === 'number' ? [v] : v.trim().startsWith('[') ? jsonList(v) : v.split(',');
    list = list.map((x) => (typeof x === 'string' ? x.trim() : x)).filter((x) => x !== '');
    const ids = list.map(Number);
    if (ids.some((n) => !idNumberSchema.safeParse(n).success)) {
      ctx.addIssue({ code: 'custom', message: ValidationKeys.id });
      return z.NEVER;
    }
    return [...new Set(ids)].slice(0, 20);
  });

function jsonList(text: string): unknown[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v : [v];
  } catch {
    return [text];
  }
}

/** Whether text holds a NUL character, which PostgreSQL text cannot store (requests carrying one are refused). */
export function hasNul(text: string): boolean {
  return text.includes('\u0000');
}

export const passwordPairSchema = refinePasswordPair(z.object(passwordPairShape));
export type PasswordPair = z.infer<typeof passwordPairSchema>;
