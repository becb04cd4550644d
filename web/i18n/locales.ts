import { DEFAULT_LOCALE, LOCALES, isRtlLocale, matchLocale, type LocaleCode } from '../../server/contract/locales';

/** The locale list lives once, in server/contract (the server validates user locales against it too). */
export const SUPPORTED_LOCALES = LOCALES;
export { DEFAULT_LOCALE, LOCALE_INFO, localeTag } from '../../server/contract/locales';
export type { LocaleCode };

/**
 * Maps a stored code, a browser tag or an alias ('ua', 'uk', 'pt-BR', 'zh_CN', 'de-AT') to a stored code, else 'en'.
 * Whole tags match first, so 'nl-be' stays Belgian Dutch while 'nl-NL' falls back to Dutch.
 */
export function normalizeLocale(tag: string | null | undefined): LocaleCode {
  return matchLocale(tag)?.code ?? DEFAULT_LOCALE;
}

/** The first browser language we have a catalogue for. */
export function browserLocale(): LocaleCode {
  const tags = typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
  for (const tag of tags) {
    const hit = matchLocale(tag);
    if (hit) return hit.code;
  }
  return DEFAULT_LOCALE;
}

/** Whether a stored code or BCP 47 tag is written right to left. */
export const isRtl = (codeOrTag: string): boolean => isRtlLocale(codeOrTag);
