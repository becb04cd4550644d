/** Locale codes the interface is translated into (spec §1); 'en' is the key source and the fallback. */
export const LOCALES = [
  'he', 'hu', 'ar', 'de', 'en', 'es', 'fr', 'is', 'it', 'ja', 'ko', 'nl-be', 'pl', 'pt', 'pt-br', 'ro', 'ru', 'sk',
  'sv-se', 'tr', 'ua', 'zh-cn', 'zh-tw',
] as const;
export type LocaleCode = (typeof LOCALES)[number];

/** Locales written right to left. */
export const RTL_LOCALES: readonly LocaleCode[] = ['he', 'ar'];
