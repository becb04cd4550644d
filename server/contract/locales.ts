/**
 * The interface languages, listed once (spec §1 plus the reference's later ten).
 *
 * Each language has two names that must not be confused:
 * - `code`: what user records store and the API speaks, and the catalogue's file name (locales/<code>.json). These are
 *   the reference's codes ('ua', 'pt-br', 'no'...), kept so records copied from it, and its client, keep working.
 * - `tag`: the BCP 47 language tag for `<html lang>`, `lang` attributes, Intl and plural rules ('uk', 'pt-BR', 'nb').
 * Input in either form (any case, '_' or '-') maps to the code; output to documents and Intl always uses the tag.
 */
const LIST = [
  { code: 'ar', tag: 'ar', name: 'العربية', rtl: true },
  { code: 'bg', tag: 'bg', name: 'Български' },
  { code: 'ca', tag: 'ca', name: 'Català' },
  { code: 'cs', tag: 'cs', name: 'Čeština' },
  { code: 'de', tag: 'de', name: 'Deutsch' },
  { code: 'el', tag: 'el', name: 'Ελληνικά' },
  { code: 'en', tag: 'en', name: 'English' },
  { code: 'es', tag: 'es', name: 'Español' },
  { code: 'fa', tag: 'fa', name: 'فارسی', rtl: true },
  { code: 'fr', tag: 'fr', name: 'Français' },
  { code: 'he', tag: 'he', name: 'עברית', rtl: true },
  { code: 'hr', tag: 'hr', name: 'Hrvatski' },
  { code: 'hu', tag: 'hu', name: 'Magyar' },
  { code: 'is', tag: 'is', name: 'Íslenska' },
  { code: 'it', tag: 'it', name: 'Italiano' },
  { code: 'ja', tag: 'ja', name: '日本語' },
  { code: 'ko', tag: 'ko', name: '한국어' },
  { code: 'lv', tag: 'lv', name: 'Latviešu' },
  { code: 'nl', tag: 'nl', name: 'Nederlands' },
  { code: 'nl-be', tag: 'nl-BE', name: 'Nederlands (België)' },
  { code: 'no', tag: 'nb', name: 'Norsk bokmål' },
  { code: 'pl', tag: 'pl', name: 'Polski' },
  { code: 'pt', tag: 'pt-PT', name: 'Português (Portugal)' },
  { code: 'pt-br', tag: 'pt-BR', name: 'Português (Brasil)' },
  { code: 'ro', tag: 'ro', name: 'Română' },
  { code: 'ru', tag: 'ru', name: 'Русский' },
  { code: 'sk', tag: 'sk', name: 'Slovenčina' },
  { code: 'sv-se', tag: 'sv-SE', name: 'Svenska' },
  { code: 'tr', tag: 'tr', name: 'Türkçe' },
  { code: 'ua', tag: 'uk', name: 'Українська' },
  { code: 'vi', tag: 'vi', name: 'Tiếng Việt' },
  { code: 'zh-cn', tag: 'zh-CN', name: '中文 (简体)' },
  { code: 'zh-tw', tag: 'zh-TW', name: '中文 (繁體)' },
] as const satisfies readonly { code: string; tag: string; name: string; rtl?: true }[];

export type LocaleCode = (typeof LIST)[number]['code'];
export interface LocaleInfo {
  code: LocaleCode;
  /** BCP 47 tag: document language, Intl, plural rules. */
  tag: string;
  /** The language's own name (shown untranslated, so readers find theirs in any interface language). */
  name: string;
  rtl: boolean;
}

export const LOCALE_INFO: readonly LocaleInfo[] = LIST.map((l) => ({ ...l, rtl: 'rtl' in l && l.rtl }));
/** The stored codes; 'en' is the key source and the fallback. */
export const LOCALES: readonly LocaleCode[] = LIST.map((l) => l.code);
export const DEFAULT_LOCALE: LocaleCode = 'en';

/** Other spellings seen in the wild for a language we have (deprecated or macro-language tags, scripts). */
const ALIASES: Record<string, LocaleCode> = {
  iw: 'he', nn: 'no', 'no-no': 'no', 'nb-no': 'no', sv: 'sv-se', zh: 'zh-cn', 'zh-hans': 'zh-cn', 'zh-sg': 'zh-cn',
  'zh-hant': 'zh-tw', 'zh-hk': 'zh-tw', 'zh-mo': 'zh-tw', 'uk-ua': 'ua',
};

const BY_KEY = new Map<string, LocaleInfo>();
for (const l of LOCALE_INFO) BY_KEY.set(l.code, l).set(l.tag.toLowerCase(), l);
for (const [alias, code] of Object.entries(ALIASES)) BY_KEY.set(alias, BY_KEY.get(code)!);

const key = (input: string) => input.trim().toLowerCase().replace(/_/g, '-');

/** The language for a stored code, a tag or a known alias ('ua', 'uk', 'pt_BR', 'nb'); undefined for anything else. */
export function localeInfo(input: unknown): LocaleInfo | undefined {
  return typeof input === 'string' ? BY_KEY.get(key(input)) : undefined;
}

/**
 * The closest language for a browser-style tag, dropping subtags from the end ('de-AT' → de, 'pt-BR-x-y' →
 * pt-br, 'sr-Latn' → undefined); used where any reasonable language beats none (browser preferences).
 */
export function matchLocale(input: unknown): LocaleInfo | undefined {
  if (typeof input !== 'string') return undefined;
  const parts = key(input).split('-');
  for (let n = parts.length; n > 0; n--) {
    const hit = BY_KEY.get(parts.slice(0, n).join('-'));
    if (hit) return hit;
  }
  return undefined;
}

/** The BCP 47 tag of the closest language to a stored code or tag; English's for anything unknown. */
export const localeTag = (input: unknown): string => (matchLocale(input) ?? BY_KEY.get(DEFAULT_LOCALE)!).tag;

/** Whether the closest language to a stored code or tag is written right to left (ar, fa, he). */
export const isRtlLocale = (input: unknown): boolean => matchLocale(input)?.rtl ?? false;

/** Locales written right to left. */
export const RTL_LOCALES: readonly LocaleCode[] = LOCALE_INFO.filter((l) => l.rtl).map((l) => l.code);
