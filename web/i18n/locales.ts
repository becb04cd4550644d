import { LOCALES, RTL_LOCALES as RTL, type LocaleCode } from '../../server/contract/locales';

/** The locale list lives once, in server/contract (the server validates user locales against it too). */
export const SUPPORTED_LOCALES = LOCALES;
export type { LocaleCode };

export const DEFAULT_LOCALE: LocaleCode = 'en';

const RTL_LOCALES: ReadonlySet<string> = new Set(RTL);
const SUPPORTED: ReadonlySet<string> = new Set(SUPPORTED_LOCALES);

/** Regional or legacy tags whose catalogue lives under another code. */
const ALIASES: Record<string, LocaleCode> = {
  uk: 'ua',
  iw: 'he',
  nl: 'nl-be',
  sv: 'sv-se',
  zh: 'zh-cn',
  'zh-hans': 'zh-cn',
  'zh-sg': 'zh-cn',
  'zh-hant': 'zh-tw',
  'zh-hk': 'zh-tw',
  'zh-mo': 'zh-tw',
};

const isSupported = (code: string): code is LocaleCode => SUPPORTED.has(code);

/** Maps a browser or stored language tag ('pt-BR', 'zh_CN', 'uk', 'nl-BE') to a supported code, else 'en'. */
export function normalizeLocale(tag: string | null | undefined): LocaleCode {
  if (!tag) return DEFAULT_LOCALE;
  const code = tag.trim().toLowerCase().replace(/_/g, '-');
  if (isSupported(code)) return code;
  const parts = code.split('-');
  const lang = parts[0] ?? '';
  for (const candidate of [parts.slice(0, 2).join('-'), `${lang}-${parts[parts.length - 1] ?? ''}`, lang]) {
    if (isSupported(candidate)) return candidate;
    const alias = ALIASES[candidate];
    if (alias) return alias;
  }
  return DEFAULT_LOCALE;
}

/** The first browser language we have a catalogue for. */
export function browserLocale(): LocaleCode {
  const tags = typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
  for (const tag of tags) {
    const code = normalizeLocale(tag);
    if (code !== DEFAULT_LOCALE || tag.toLowerCase().startsWith('en')) return code;
  }
  return DEFAULT_LOCALE;
}

export const isRtl = (code: string): boolean => RTL_LOCALES.has(code);
