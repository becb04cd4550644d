import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TokenUser } from '../../../server/contract/user';
import { pageConfig } from '../../api/page-config';
import { normalizeLocale } from '../../i18n/locales';
import { saveProfile, type ProfilePrefs } from '../../state/settings.state';
import { Checkbox } from './checkbox';
import { LocaleOptions } from './locale-options';

/** Personal preferences: dotfiles, single click, exact dates, theme and language. */
export function ProfileForm({ user }: { user: Pick<TokenUser, keyof ProfilePrefs> }) {
  const { t } = useTranslation();
  const [prefs, setPrefs] = useState<ProfilePrefs>(() => ({
    locale: normalizeLocale(user.locale),
    hideDotfiles: user.hideDotfiles,
    singleClick: user.singleClick,
    dateFormat: user.dateFormat,
    theme: user.theme,
  }));
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof ProfilePrefs>(key: K, value: ProfilePrefs[K]) => setPrefs((p) => ({ ...p, [key]: value }));

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    await saveProfile(prefs);
    setBusy(false);
  };

  return (
    <form className="settings-card" onSubmit={(e) => void onSubmit(e)} data-testid="profile-form">
      <div className="settings-card__head">
        <h2 className="settings-card__title">{t('settings.profile.title')}</h2>
      </div>
      <div className="settings-card__body">
        <Checkbox name="hideDotfiles" checked={prefs.hideDotfiles} onChange={(v) => set('hideDotfiles', v)} label={t('settings.profile.hideDotfiles')} />
        <Checkbox name="singleClick" checked={prefs.singleClick} onChange={(v) => set('singleClick', v)} label={t('settings.profile.singleClick')} />
        <Checkbox name="dateFormat" checked={prefs.dateFormat} onChange={(v) => set('dateFormat', v)} label={t('settings.profile.dateFormat')} />
        <label className="field">
          <span className="field__label">{t('settings.profile.theme')}</span>
          <select className="input" name="theme" value={prefs.theme} onChange={(e) => set('theme', e.target.value as ProfilePrefs['theme'])}>
            {/* '' follows the instance default; with no instance default that is the system's scheme. */}
            <option value="">{pageConfig.Theme ? t('settings.themes.default') : t('settings.themes.system')}</option>
            <option value="light">{t('settings.themes.light')}</option>
            <option value="dark">{t('settings.themes.dark')}</option>
          </select>
        </label>
        <label className="field">
          <span className="field__label">{t('settings.profile.language')}</span>
          <select className="input" name="locale" value={prefs.locale} onChange={(e) => set('locale', e.target.value)}>
            <LocaleOptions />
          </select>
        </label>
      </div>
      <div className="settings-card__actions">
        <button type="submit" className="btn btn--primary" disabled={busy} data-testid="profile-save">{t('settings.save')}</button>
      </div>
    </form>
  );
}
