import { LOCALE_INFO } from '../../i18n/locales';

/**
 * The <option>s of a language select: the stored code as value, each language by its own name and marked with its
 * BCP 47 tag (so a screen reader reads "Українська" as Ukrainian, lang="uk", not as the unknown "ua").
 */
export function LocaleOptions() {
  return (
    <>
      {LOCALE_INFO.map((l) => (
        <option key={l.code} value={l.code} lang={l.tag} dir={l.rtl ? 'rtl' : 'ltr'}>{l.name}</option>
      ))}
    </>
  );
}
