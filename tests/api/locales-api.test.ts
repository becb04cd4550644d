import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { LOCALES, isRtlLocale, localeInfo, localeTag, matchLocale } from '../../server/contract/locales';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { normalizeLocale } from '../../web/i18n/locales';

/** The reference's stored codes and BCP 47 tags both work, in both directions, through the one mapping. */
describe('locale codes and tags', () => {
  test('stored codes map to BCP 47 tags', () => {
    const tags = Object.fromEntries(LOCALES.map((c) => [c, localeTag(c)]));
    expect(tags).toMatchObject({ ua: 'uk', no: 'nb', pt: 'pt-PT', 'pt-br': 'pt-BR', 'zh-cn': 'zh-CN', 'zh-tw': 'zh-TW', 'nl-be': 'nl-BE', nl: 'nl', 'sv-se': 'sv-SE', fa: 'fa', en: 'en' });
    expect(localeTag('klingon')).toBe('en');
    expect(localeTag('de-AT')).toBe('de');
  });

  test('tags, other spellings and aliases map back to the stored code', () => {
    const cases: Record<string, string> = { uk: 'ua', UA: 'ua', 'uk-UA': 'ua', nb: 'no', 'nb-NO': 'no', nn: 'no', pt_BR: 'pt-br', 'pt-PT': 'pt', 'ZH-TW': 'zh-tw', 'zh-Hant': 'zh-tw', 'nl-BE': 'nl-be', nl: 'nl', iw: 'he', ' fa ': 'fa' };
    for (const [input, code] of Object.entries(cases)) expect({ input, code: localeInfo(input)?.code as string | undefined }).toEqual({ input, code });
    for (const bad of ['xx', 'de-AT', '', 'u', 42, null, '../en']) expect(localeInfo(bad)).toBeUndefined();
  });

  test('browser tags fall back to the closest language, else English', () => {
    expect(matchLocale('de-AT')?.code).toBe('de');
    expect(matchLocale('nl-NL')?.code).toBe('nl');
    expect(matchLocale('zh-Hant-HK')?.code).toBe('zh-tw');
    expect(matchLocale('fa-IR')?.code).toBe('fa');
    expect(normalizeLocale('sr-Latn')).toBe('en');
    expect(normalizeLocale('ua')).toBe('ua');
  });

  test('right to left: ar, fa, he by code or tag', () => {
    expect(['ar', 'fa', 'he', 'fa-IR', 'iw'].map(isRtlLocale)).toEqual([true, true, true, true, true]);
    expect(['ua', 'uk', 'en', 'el'].map(isRtlLocale)).toEqual([false, false, false, false]);
  });
});

describe('locale in user records', () => {
  let t: TestApp;
  beforeAll(async () => { t = await makeTestApp(); });
  afterAll(async () => t.close());

  const setLocale = async (token: string, id: number, locale: unknown) =>
    t.req('PUT', `/api/users/${id}`, { token, body: { what: 'user', which: ['locale'], data: { id, locale } } });

  test('a BCP 47 tag is stored as the reference code; the old code is accepted as is', async () => {
    const bob = await t.userToken('bob');
    const id = (await t.s.stores.users.byUsername('bob'))!.id;
    for (const [sent, stored] of <[string, string][]>[['uk', 'ua'], ['ua', 'ua'], ['nb', 'no'], ['pt-BR', 'pt-br'], ['fa', 'fa'], ['el', 'el'], ['zh_TW', 'zh-tw']]) {
      const r = await setLocale(bob, id, sent);
      expect({ sent, status: r.status }).toEqual({ sent, status: 200 });
      expect({ sent, stored: (await t.s.stores.users.byId(id))!.locale }).toEqual({ sent, stored });
    }
  });

  test('an unknown language is a 400 naming the choices, and nothing changes', async () => {
    const admin = await t.adminToken();
    for (const bad of ['klingon', 'de-AT', 7]) {
      const r = await setLocale(admin, 1, bad);
      expect(r.status).toBe(400);
      expect(await r.text()).toContain('must be one of');
    }
    expect((await t.s.stores.users.byId(1))!.locale).toBe('en');
  });

  test('new-user defaults accept tags too', async () => {
    const r = await t.req('PUT', '/api/settings', { token: await t.adminToken(), body: { defaults: { locale: 'uk' } } });
    expect(r.status).toBe(200);
    expect(t.s.settings.get().defaults.locale).toBe('ua');
  });
});
