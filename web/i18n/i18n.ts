import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../locales/en.json';
import { pageConfig } from '../api/page-config';
import { DEFAULT_LOCALE, SUPPORTED_LOCALES, isRtl, normalizeLocale, type LocaleCode } from './locales';

/**
 * The one place where the document language and direction follow the active locale:
 * <html lang dir> and the `rtl` class on <body>.
 */
function applyDocumentLanguage(lng: string): void {
  const rtl = isRtl(lng);
  document.documentElement.lang = lng;
  document.documentElement.dir = rtl ? 'rtl' : 'ltr';
  document.body.classList.toggle('rtl', rtl);
}

/** Sets up i18next synchronously with the bundled English catalogue, so the first paint needs no fetch. */
export function initI18n(): void {
  i18next.on('languageChanged', applyDocumentLanguage);
  void i18next.use(initReactI18next).init({
    resources: { en: { translation: en } },
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...SUPPORTED_LOCALES, 'uk'],
    lowerCaseLng: true,
    load: 'currentOnly',
    initAsync: false,
    returnNull: false,
    interpolation: { escapeValue: false }, // React escapes what it renders
  });
}

const failed = new Set<string>();
let latest = 0;

/**
 * The i18next language for an app locale. The product's code for Ukrainian is "ua" (as the reference's), but
 * plural rules and <html lang> need the real code "uk"; every other app code is a valid tag already.
 */
const i18nCode = (lng: string) => (lng === 'ua' ? 'uk' : lng);

async function loadCatalogue(lng: LocaleCode): Promise<boolean> {
  if (lng === DEFAULT_LOCALE || i18next.hasResourceBundle(i18nCode(lng), 'translation')) return true;
  if (failed.has(lng)) return false;
  try {
    const res = await fetch(`${pageConfig.StaticURL}/locales/${lng}.json`, { credentials: 'same-origin' });
    if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
    i18next.addResourceBundle(i18nCode(lng), 'translation', await res.json(), true, true);
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
  const target = ok ? i18nCode(lng) : DEFAULT_LOCALE;
  if (i18next.language !== target) await i18next.changeLanguage(target);
}
