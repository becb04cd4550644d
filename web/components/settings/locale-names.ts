import type { LocaleCode } from '../../i18n/locales';

/** Each interface language by its own name (not translated: a reader finds their language in any locale). */
export const LOCALE_NAMES: Record<LocaleCode, string> = {
  he: 'עברית',
  hu: 'Magyar',
  ar: 'العربية',
  de: 'Deutsch',
  en: 'English',
  es: 'Español',
  fr: 'Français',
  is: 'Íslenska',
  it: 'Italiano',
  ja: '日本語',
  ko: '한국어',
  'nl-be': 'Nederlands (België)',
  pl: 'Polski',
  pt: 'Português',
  'pt-br': 'Português (Brasil)',
  ro: 'Română',
  ru: 'Русский',
  sk: 'Slovenčina',
  'sv-se': 'Svenska',
  tr: 'Türkçe',
  ua: 'Українська',
  'zh-cn': '中文 (简体)',
  'zh-tw': '中文 (繁體)',
};
