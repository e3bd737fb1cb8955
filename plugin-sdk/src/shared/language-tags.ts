/**
 * Language tags as BCP 47 (RFC 5646) writes them, for every resource that keeps language variants
 * (memories, their imports and exports): `en-GB`, `zh-Hans-CN`, `sr-Latn`. Case is normalised as the
 * RFC recommends (language lower, script title, region upper), `_` read as `-`, and nothing else is
 * changed (no alias replacement: `iw` stays `iw`), so a tag written by another tool comes back as written.
 *
 * Two tags name the same language when their primary language and script agree, the script being the
 * one written or the likely one (`zh-TW` is Hant, `zh-CN` and `zh` Hans, `sr` Cyrl): Simplified and
 * Traditional Chinese, Latin and Cyrillic Serbian are different languages, British and US English are
 * variants of one.
 */
import { z } from 'zod';
import { ValidationKeys } from './checks.js';

// RFC 5646 section 2.1 (langtag and privateuse; the irregular grandfathered tags are not accepted).
const ALNUM = '[a-z0-9]';
const LANGTAG = new RegExp(
  `^(?:(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4,8})(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?(?:-(?:${ALNUM}{5,8}|[0-9]${ALNUM}{3}))*(?:-[0-9a-wy-z](?:-${ALNUM}{2,8})+)*(?:-x(?:-${ALNUM}{1,8})+)?|x(?:-${ALNUM}{1,8})+)$`,
  'i',
);

/** The tag case-normalised (`EN_gb` -> `en-GB`, `zh-hans-cn` -> `zh-Hans-CN`), or null when it is not a well-formed BCP 47 tag. */
export function languageTag(code: string): string | null {
  const c = code.trim().replace(/_/g, '-');
  if (!c || c.length > 64 || !LANGTAG.test(c)) return null;
  const parts = c.toLowerCase().split('-');
  // Subtags after a singleton (an extension or private use) stay lower case.
  let singleton = parts[0]!.length === 1;
  return parts
    .map((p, i) => {
      if (i === 0 || singleton) return p;
      if (p.length === 1) {
        singleton = true;
        return p;
      }
      if (p.length === 4 && /^[a-z]+$/.test(p)) return p[0]!.toUpperCase() + p.slice(1);
      if (p.length === 2) return p.toUpperCase();
      return p;
    })
    .join('-');
}

interface TagParts {
  language: string;
  script: string;
  /** Region, variants and extensions: what tells variants of one language apart. */
  rest: string;
}

const likelyScripts = new Map<string, string>();

function likelyScript(language: string): string {
  let s = likelyScripts.get(language);
  if (s === undefined) {
    try {
      s = new Intl.Locale(language).maximize().script ?? '';
    } catch {
      s = '';
    }
    likelyScripts.set(language, s);
  }
  return s;
}

function partsOf(code: string): TagParts | null {
  const tag = languageTag(code);
  if (!tag || tag.startsWith('x-')) return null;
  const subtags = tag.split('-');
  const language = subtags.shift()!;
  let script = '';
  if (subtags[0] && /^[A-Z][a-z]{3}$/.test(subtags[0])) script = subtags.shift()!;
  // Chinese written without a script: its region says which (as the platform's `zh-CN` and `zh-TW` always did).
  if (!script && language === 'zh') script = subtags[0] && /^(TW|HK|MO)$/.test(subtags[0]) ? 'Hant' : 'Hans';
  return { language, script: script || likelyScript(language), rest: subtags.join('-') };
}

/**
 * The language a tag is a variant of, as one key (`en-GB` and `en` -> `en-Latn`, `zh-CN` and
 * `zh-Hans-SG` -> `zh-Hans`, `sr` -> `sr-Cyrl`): what lookups group entries by. The tag itself for
 * a private-use or malformed one.
 */
export function languageBase(code: string): string {
  const p = partsOf(code);
  if (!p) return languageTag(code) ?? code.trim();
  return p.script ? `${p.language}-${p.script}` : p.language;
}

/**
 * The platform's code of a language as files name it (TMX, TBX, term CSV, import forms):
 * `en-US`, `EN-us`, `en_GB` -> `en`; `zh`, `zh-Hans`, `zh-CN` -> `zh-CN`; `zh-Hant`, `zh-TW`, `zh-HK` -> `zh-TW`; `*all*` stays.
 */
export function platformLanguage(code: string): string {
  const c = code.trim();
  if (c === '*all*') return c;
  const [primary = '', ...rest] = c.split(/[-_]/);
  const p = primary.toLowerCase();
  if (p === 'zh' || p === 'zho' || p === 'chi') {
    const sub = rest.map((r) => r.toLowerCase());
    return sub.includes('tw') || sub.includes('hk') || sub.includes('mo') || sub.includes('hant') ? 'zh-TW' : 'zh-CN';
  }
  return p;
}

/**
 * How a tag `have` answers a tag `wanted`:
 * - `exact`: the same variant (`en-GB` for `en-GB`; `zh-Hans-CN` for `zh-CN`, whose script is implied);
 * - `generic`: one of the two names the language without a variant (`en` for `en-GB`, or `en-GB` for `en`);
 * - `variant`: another variant of the language (`en-US` for `en-GB`);
 * - null: another language.
 */
export type VariantMatch = 'exact' | 'generic' | 'variant';

export function variantMatch(wanted: string, have: string): VariantMatch | null {
  const w = partsOf(wanted);
  const h = partsOf(have);
  if (!w || !h) return languageTag(wanted) !== null && languageTag(wanted) === languageTag(have) ? 'exact' : null;
  if (w.language !== h.language || w.script !== h.script) return null;
  if (w.rest === h.rest) return 'exact';
  if (!w.rest || !h.rest) return 'generic';
  return 'variant';
}

/** The order in which matches are preferred: the exact variant, then the language's generic tag, then another variant. */
export const VARIANT_PREFERENCE: Record<VariantMatch, number> = { exact: 0, generic: 1, variant: 2 };

/** The worse of two matches (the source's and the target's). */
export function worseMatch(a: VariantMatch, b: VariantMatch): VariantMatch {
  return VARIANT_PREFERENCE[a] >= VARIANT_PREFERENCE[b] ? a : b;
}

/** A language tag field: required, well-formed, and answered case-normalised (`EN-gb` arrives as `en-GB`). */
export const languageTagSchema = z
  .string({ error: ValidationKeys.required })
  .trim()
  .min(1, ValidationKeys.required)
  .max(64, ValidationKeys.languageTag)
  .refine((v) => languageTag(v) !== null, ValidationKeys.languageTag)
  .transform((v) => languageTag(v)!);
