import { describe, expect, test } from 'bun:test';
import { LOCALE_INFO, LOCALES } from '../../server/contract/locales';
import { catalogueFiles, placeholders, pluralParts, readCatalogue, type Flat } from '../helpers/catalogues';

/**
 * Every interface language carries exactly en.json's keys, with the plural forms its language uses (i18next picks
 * `key_<Intl.PluralRules category>`: a missing form shows English, an extra one is dead text), the same
 * placeholders, and a canonical BCP 47 tag.
 */
const en = readCatalogue('en');
const enPlurals = new Set(Object.keys(en).map(pluralParts).filter((p) => p.form).map((p) => p.base));

/** Base keys of a catalogue → the plural forms it provides (empty for plain keys). */
function shape(cat: Flat): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const key of Object.keys(cat)) {
    const p = pluralParts(key);
    const base = p.form && enPlurals.has(p.base) ? p.base : key;
    const forms = out.get(base) ?? new Set<string>();
    if (base !== key) forms.add(p.form!);
    out.set(base, forms);
  }
  return out;
}

const enShape = shape(en);

describe('locale catalogues', () => {
  test('one catalogue per listed locale and no other', () => {
    expect(catalogueFiles()).toEqual([...LOCALES].sort());
    expect(LOCALES.length).toBe(33);
  });

  test('tags are canonical BCP 47 and unique; codes unique', () => {
    for (const l of LOCALE_INFO) expect(Intl.getCanonicalLocales(l.tag)).toEqual([l.tag]);
    expect(new Set(LOCALE_INFO.map((l) => l.tag)).size).toBe(LOCALE_INFO.length);
    expect(LOCALE_INFO.filter((l) => l.rtl).map((l) => l.tag).sort()).toEqual(['ar', 'fa', 'he']);
  });

  for (const { code, tag } of LOCALE_INFO) {
    describe(`${code} (${tag})`, () => {
      // Read lazily, so a missing or malformed catalogue fails its own tests instead of the whole file.
      let cached: Flat | undefined;
      const catalogue = () => (cached ??= readCatalogue(code));
      const categories = new Set(new Intl.PluralRules(tag).resolvedOptions().pluralCategories);

      test('has exactly the keys of en.json', () => {
        expect([...shape(catalogue()).keys()].sort()).toEqual([...enShape.keys()].sort());
      });

      test("plural keys have exactly the language's plural forms", () => {
        for (const base of enPlurals) {
          const forms = shape(catalogue()).get(base);
          expect({ base, forms: [...(forms ?? [])].sort() }).toEqual({ base, forms: [...categories].sort() });
        }
      });

      test('no empty text; placeholders as in English', () => {
        for (const [key, text] of Object.entries(catalogue())) {
          expect({ key, type: typeof text, empty: String(text).trim() === '' }).toEqual({ key, type: 'string', empty: false });
          const p = pluralParts(key);
          if (p.form && enPlurals.has(p.base)) {
            // A plural form may leave the number out ("one file" written as a word) but may not invent a placeholder.
            const allowed = new Set(placeholders(en[`${p.base}_other`]!));
            expect({ key, extra: placeholders(text).filter((x) => !allowed.has(x)) }).toEqual({ key, extra: [] });
          } else {
            expect({ key, placeholders: placeholders(text) }).toEqual({ key, placeholders: placeholders(en[key]!) });
          }
        }
      });

      if (code !== 'en') {
        test('is translated (most texts differ from English)', () => {
          const cat = catalogue();
          const same = Object.entries(cat).filter(([k, v]) => en[k] === v && !/[{}]|^[\w .+/\\$-]{1,12}$/.test(v)).length;
          expect(same / Object.keys(cat).length).toBeLessThan(0.05);
        });
      }
    });
  }
});
