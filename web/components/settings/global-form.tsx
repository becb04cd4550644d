import { useTranslation } from 'react-i18next';
import { AUDIT_RETENTION_DAYS_RANGE } from '../../../server/contract/audit';
import type { Settings } from '../../../server/contract/settings';
import { pageConfig } from '../../api/page-config';
import { ExtraIcon } from '../share-page/icons';
import { BrandingFields } from './branding-fields';
import { Checkbox } from './checkbox';
import { ExecSandboxNotice } from './command-runner';
import { RulesEditor } from './rules-editor';
import { TrashFields } from './trash-fields';
import { VersionsFields } from './versions-fields';
import { WebdavFields } from './webdav-fields';
import { WholeNumberField } from './whole-number-field';

interface Props {
  draft: Settings;
  onChange: (s: Settings) => void;
  shell: string;
  onShell: (text: string) => void;
  busy: boolean;
  onSave: () => void;
}

/** The shell setting is typed as one line and split on spaces, empty parts dropped. */
export const splitShell = (text: string) => text.split(' ').map((s) => s.trim()).filter(Boolean);

/** Global settings: sign-up, home folders, password length, audit retention, global rules, trash, versions, WebDAV, shell (exec only) and branding. */
export function GlobalForm({ draft, onChange, shell, onShell, busy, onSave }: Props) {
  const { t } = useTranslation();
  const set = <K extends keyof Settings>(key: K, value: Settings[K]) => onChange({ ...draft, [key]: value });

  return (
    <form className="settings-card" onSubmit={(e) => { e.preventDefault(); onSave(); }} data-testid="global-form">
      <div className="settings-card__head">
        <h2 className="settings-card__title">{t('settings.global.title')}</h2>
      </div>
      <div className="settings-card__body">
        <p className="settings-help" data-testid="auth-method">{t('settings.global.authMethod', { method: draft.authMethod })}</p>
        <Checkbox name="signup" checked={draft.signup} onChange={(v) => set('signup', v)} label={t('settings.global.signup')} />
        <Checkbox name="createUserDir" checked={draft.createUserDir} onChange={(v) => set('createUserDir', v)} label={t('settings.global.createUserDir')} />
        <label className="field">
          <span className="field__label">{t('settings.global.userHomeBasePath')}</span>
          <input className="input" name="userHomeBasePath" spellCheck={false} autoCapitalize="off" value={draft.userHomeBasePath} onChange={(e) => set('userHomeBasePath', e.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">{t('settings.global.minimumPasswordLength')}</span>
          <input
            className="input settings-input--short" name="minimumPasswordLength" type="number" min={1} max={128}
            value={draft.minimumPasswordLength} onChange={(e) => set('minimumPasswordLength', Number(e.target.value) || 0)}
          />
        </label>
        <WholeNumberField
          name="auditRetentionDays" label={t('settings.global.auditRetentionDays')} help={t('settings.global.auditRetentionHelp')}
          value={draft.auditRetentionDays} {...AUDIT_RETENTION_DAYS_RANGE} onChange={(n) => set('auditRetentionDays', n)}
        />
        <RulesEditor id="global" rules={draft.rules} onChange={(rules) => set('rules', rules)} />
        <TrashFields trash={draft.trash} onChange={(trash) => set('trash', trash)} />
        {draft.versions && <VersionsFields versions={draft.versions} onChange={(versions) => set('versions', versions)} />}
        <Checkbox
          name="quotaPrunesTrash" checked={!!draft.quotaPrunesTrash} onChange={(v) => set('quotaPrunesTrash', v)}
          label={t('versions.settings.quotaPrunesTrash')} hint={t('versions.settings.quotaPrunesTrashHint')}
        />
        {draft.webdav && <WebdavFields webdav={draft.webdav} onChange={(webdav) => set('webdav', webdav)} />}
        {pageConfig.EnableExec && (
          <div className="field">
            <label className="field__label" htmlFor="settings-shell">{t('settings.global.shell')}</label>
            <ExecSandboxNotice />
            <div className="settings-warning" role="note" data-testid="shell-warning">
              <ExtraIcon name="warning" />
              <p>{t('settings.global.shellWarning')}</p>
            </div>
            <input id="settings-shell" className="input" name="shell" spellCheck={false} autoCapitalize="off" value={shell} placeholder="bash -c" onChange={(e) => onShell(e.target.value)} />
            <span className="settings-help">{t('settings.global.shellHelp')}</span>
          </div>
        )}
        <BrandingFields branding={draft.branding} onChange={(b) => set('branding', b)} />
      </div>
      <div className="settings-card__actions">
        <button type="submit" className="btn btn--primary" disabled={busy} data-testid="global-save">{t('settings.save')}</button>
      </div>
    </form>
  );
}
