import { useTranslation } from 'react-i18next';
import type { Branding } from '../../../server/contract/settings';
import { Checkbox } from './checkbox';

/** Branding: external links, disk-usage graph, default theme, instance name, branding folder (custom stylesheet). */
export function BrandingFields({ branding, onChange }: { branding: Readonly<Branding>; onChange: (b: Branding) => void }) {
  const { t } = useTranslation();
  const set = <K extends keyof Branding>(key: K, value: Branding[K]) => onChange({ ...branding, [key]: value });
  return (
    <fieldset className="settings-group" data-testid="branding">
      <legend className="settings-group__title">{t('settings.branding.title')}</legend>
      <p className="settings-help">{t('settings.branding.help')}</p>
      <Checkbox name="disableExternal" checked={branding.disableExternal} onChange={(v) => set('disableExternal', v)} label={t('settings.branding.disableExternal')} />
      <Checkbox name="disableUsedPercentage" checked={branding.disableUsedPercentage} onChange={(v) => set('disableUsedPercentage', v)} label={t('settings.branding.disableUsedPercentage')} />
      <label className="field">
        <span className="field__label">{t('settings.branding.theme')}</span>
        <select className="input" name="brandingTheme" value={branding.theme} onChange={(e) => set('theme', e.target.value as Branding['theme'])}>
          <option value="">{t('settings.themes.system')}</option>
          <option value="light">{t('settings.themes.light')}</option>
          <option value="dark">{t('settings.themes.dark')}</option>
        </select>
      </label>
      <label className="field">
        <span className="field__label">{t('settings.branding.name')}</span>
        <input className="input" name="brandingName" value={branding.name} placeholder="Filedeck" onChange={(e) => set('name', e.target.value)} />
      </label>
      <label className="field">
        <span className="field__label">{t('settings.branding.files')}</span>
        <input className="input" name="brandingFiles" spellCheck={false} autoCapitalize="off" value={branding.files} placeholder="/srv/filedeck/branding" onChange={(e) => set('files', e.target.value)} />
        <span className="settings-help">{t('settings.branding.filesHelp')}</span>
      </label>
    </fieldset>
  );
}
