import i18next, { type FormatterModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../locales/en.json';
import { pageConfig } from '../api/page-config';
import { formatCount, isolateText } from './format';
import { DEFAULT_LOCALE, LOCALE_INFO, isRtl, localeTag, normalizeLocale, type LocaleCode } from './locales';

/**
 * The one place where the document language and direction follow the active locale:
 * <html lang dir> and the `rtl` class on <body>. `lng` is i18next's language, always a BCP 47 tag ('uk', 'pt-BR').
 */
function applyDocumentLanguage(lng: string): void {
  const rtl = isRtl(lng);
  document.documentElement.lang = lng;
  document.documentElement.dir = rtl ? 'rtl' : 'ltr';
  document.body.classList.toggle('rtl', rtl);
}

/**
 * The one place where values enter translated sentences. Every number ({{count}} results, {{percent}}) is written by
 * Intl in the language's digits and grouping, so counts read "١٬٢٣٤ عنصرًا" in Arabic rather than "1234"; plural
 * selection still uses the number itself. Every string (a name, a path, a size) is isolated by `isolateText`, so a
 * left-to-right name keeps its order in a right-to-left sentence and the reverse, in the DOM and in plain-text
 * places (document.title, aria-label) alike.
 */
const valuesFormatter: FormatterModule = {
  type: 'formatter',
  init: () => {},
  add: () => {},
  addCached: () => {},
  format: (value: unknown, _format: string | undefined, lng: string | undefined) => {
    if (!lng) return value as string;
    if (typeof value === 'number') return formatCount(value, lng);
    return typeof value === 'string' ? isolateText(value, lng) : (value as string);
  },
};

/** Sets up i18next synchronously with the bundled English catalogue, so the first paint needs no fetch. */
export function initI18n(): void {
  i18next.on('languageChanged', applyDocumentLanguage);
  void i18next.use(initReactI18next).use(valuesFormatter).init({
    resources: { en: { translation: en } },
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    // i18next speaks BCP 47 tags (its plural rules and i18n.language, used for Intl, come from them); catalogues are
    // fetched by the stored code, which is their file name.
    supportedLngs: LOCALE_INFO.map((l) => l.tag),
    load: 'currentOnly',
    initAsync: false,
    returnNull: false,
    // React escapes what it renders; alwaysFormat sends every value through valuesFormatter.
    interpolation: { escapeValue: false, alwaysFormat: true },
  });
}

const failed = new Set<string>();
let latest = 0;

async function loadCatalogue(lng: LocaleCode): Promise<boolean> {
  if (lng === DEFAULT_LOCALE || i18next.hasResourceBundle(localeTag(lng), 'translation')) return true;
  if (failed.has(lng)) return false;
  try {
    const res = await fetch(`${pageConfig.StaticURL}/locales/${lng}.json`, { credentials: 'same-origin' });
    if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
    i18next.addResourceBundle(localeTag(lng), 'translation', await res.json(), true, true);
    return true;
  } catch (e) {
    failed.add(lng);
    console.warn(`filedeck: no catalogue for locale ${lng}, using English`, e);
    return false;
  }
}

/** Switches the interface language, fetching the catalogue at run time the first time it is needed. */
export async function setLocale(tag: string | null | undefined): Promise<void> {
  const lng = normalizeLocale(tag);
  const mine = ++latest;
  const ok = await loadCatalogue(lng);
  if (mine !== latest) return; // a later switch won
  const target = ok ? localeTag(lng) : DEFAULT_LOCALE;
  if (i18next.language !== target) await i18next.changeLanguage(target);
}
