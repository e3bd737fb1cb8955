import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBus, usePlatform } from '../index.js';
import { languageDisplayName } from '../../shared/language-names.js';

/** One enabled language of `GET /api/language/list` (plugin language-sorting), in the admin's order. */
export interface Language {
  code: string;
  nameZh: string;
  nameEn: string;
  sort: number;
}

export type LanguagesState = { state: 'loading' } | { state: 'failed'; msg: string } | { state: 'ready'; languages: Language[] };

/**
 * The enabled languages in their configured order, reloaded when an administrator changes the list
 * (bus event `language.changed`). When the language-sorting plugin is absent the call 404s and the
 * state is `failed`, so callers can say so instead of showing an empty list.
 */
export function useLanguages(): LanguagesState {
  const { api } = usePlatform();
  const [state, setState] = useState<LanguagesState>({ state: 'loading' });
  const load = useCallback(() => {
    api
      .get<Language[]>('/language/list', { silent: true })
      .then((languages) => setState({ state: 'ready', languages }))
      .catch((err: { msg?: string }) => setState({ state: 'failed', msg: err?.msg ?? 'failed' }));
  }, [api]);
  useEffect(load, [load]);
  useBus('language.changed', load);
  return state;
}

/** The language's name in the console's current language. */
/** The engines' languages as options of a select (`{value: code, label: name}`), named in the console's language. */
export function useLanguageOptions(): { value: string; label: string }[] {
  const languages = useLanguages();
  const { i18n } = useTranslation();
  return useMemo(() => (languages.state === 'ready' ? languages.languages.map((l) => ({ value: l.code, label: languageName(l, i18n.language) })) : []), [languages, i18n.language]);
}

export function languageName(language: Pick<Language, 'nameZh' | 'nameEn'>, uiLanguage: string): string {
  return uiLanguage.startsWith('zh') ? language.nameZh : language.nameEn;
}

/** A language outside the enabled list, named in the console's language (`ca-x-valencia` -> 加泰罗尼亚语（瓦伦西亚）). */
function displayName(code: string, uiLanguage: string): string {
  return languageDisplayName(code, uiLanguage);
}

export interface LanguageSelectProps {
  value: string | null | undefined;
  onChange(code: string): void;
  /** Options placed before the languages, e.g. `{ value: 'auto', label: 'Detect' }`. */
  extraOptions?: Array<{ value: string; label: string }>;
  /** Codes left out (e.g. the other side of a pair). */
  exclude?: string[];
  /** Shown as an empty first option while nothing is chosen. */
  placeholder?: string;
  disabled?: boolean;
  fill?: boolean;
  id?: string;
  'data-testid'?: string;
}

/**
 * The one language select of the console: it lists the enabled languages in the order set on
 * /languageSorting. A value no longer enabled stays visible (marked with its code) rather than
 * silently switching the caller's choice.
 */
export function LanguageSelect(props: LanguageSelectProps) {
  const { i18n } = usePlatform();
  const languages = useLanguages();
  const list = languages.state === 'ready' ? languages.languages.filter((l) => !props.exclude?.includes(l.code)) : [];
  const known = new Set(list.map((l) => l.code));
  const extras = props.extraOptions ?? [];
  const options = [
    ...(props.placeholder !== undefined && !props.value ? [{ value: '', label: props.placeholder, disabled: true }] : []),
    ...extras,
    ...list.map((l) => ({ value: l.code, label: languageName(l, i18n.language) })),
    ...(props.value && !known.has(props.value) && !extras.some((e) => e.value === props.value) ? [{ value: props.value, label: displayName(props.value, i18n.language) }] : []),
  ];
  // A plain select with Blueprint's classes: this module is on the host's login path, which is
  // kept free of Blueprint's JavaScript (its CSS is loaded there).
  return (
    <div className={`bp6-html-select${props.fill ? ' bp6-fill' : ''}`}>
      <select
        id={props.id}
        data-testid={props['data-testid']}
        value={props.value ?? ''}
        disabled={props.disabled || languages.state !== 'ready'}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={'disabled' in o ? o.disabled : false}>
            {o.label}
          </option>
        ))}
      </select>
      <span className="bp6-icon" aria-hidden="true">
        {/* Blueprint's double-caret icon, inline: the icon components stay out of this module. */}
        <svg width={16} height={16} viewBox="0 0 16 16" fill="currentColor">
          <path d="M5 7h6a1.003 1.003 0 00.71-1.71l-3-3C8.53 2.11 8.28 2 8 2s-.53.11-.71.29l-3 3A1.003 1.003 0 005 7zm6 2H5a1.003 1.003 0 00-.71 1.71l3 3c.18.18.43.29.71.29s.53-.11.71-.29l3-3A1.003 1.003 0 0011 9z" />
        </svg>
      </span>
    </div>
  );
}
