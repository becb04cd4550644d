import { useTranslation } from 'react-i18next';
import type { WebdavSettings } from '../../../server/contract/dav';
import { Checkbox } from './checkbox';

/**
 * The global WebDAV settings (issue 36): the endpoint on or off, account passwords accepted as WebDAV passwords (else
 * API tokens only), and what happens to macOS `._*` and `.DS_Store` files.
 */
export function WebdavFields({ webdav, onChange }: { webdav: WebdavSettings; onChange: (w: WebdavSettings) => void }) {
  const { t } = useTranslation();
  const set = <K extends keyof WebdavSettings>(key: K, value: WebdavSettings[K]) => onChange({ ...webdav, [key]: value });
  return (
    <div className="field" role="group" aria-labelledby="settings-webdav-title" data-testid="webdav-fields">
      <span className="field__label" id="settings-webdav-title">{t('settings.webdav.title')}</span>
      <Checkbox name="webdavEnabled" checked={webdav.enabled} onChange={(v) => set('enabled', v)} label={t('settings.webdav.enabled')} hint={t('settings.webdav.enabledHint')} />
      <Checkbox
        name="webdavAllowPasswords" checked={webdav.allowPasswords} disabled={!webdav.enabled} onChange={(v) => set('allowPasswords', v)}
        label={t('settings.webdav.allowPasswords')} hint={t('settings.webdav.allowPasswordsHint')}
      />
      <label className="field">
        <span className="field__label">{t('settings.webdav.macMetadata')}</span>
        <select className="input" name="webdavMacMetadata" value={webdav.macMetadata} disabled={!webdav.enabled} onChange={(e) => set('macMetadata', e.target.value === 'keep' ? 'keep' : 'ignore')}>
          <option value="ignore">{t('settings.webdav.macIgnore')}</option>
          <option value="keep">{t('settings.webdav.macKeep')}</option>
        </select>
      </label>
    </div>
  );
}
