import { useTranslation } from 'react-i18next';
import type { LdapSettings } from '../../../../server/contract/accounts';
import { Checkbox } from '../checkbox';
import { DirectoryFields } from './directory-fields';
import { SecretField, TextField } from './text-fields';

/** The settings as answered: the bind password blanked, with a marker of whether one is stored. */
export type LdapDraft = LdapSettings & { bindPasswordSet?: boolean };

/** LDAP: the server and TLS, the search account, where users and groups are found and how they are named. */
export function LdapFields({ value, onChange }: { value: LdapDraft; onChange: (v: LdapDraft) => void }) {
  const { t } = useTranslation();
  const set = <K extends keyof LdapSettings>(k: K, v: LdapSettings[K]) => onChange({ ...value, [k]: v });
  const text = (k: 'url' | 'caFile' | 'bindDn' | 'userBase' | 'userFilter' | 'usernameAttribute' | 'groupBase' | 'groupFilter' | 'groupNameAttribute', help?: string) => (
    <TextField name={`ldap-${k}`} label={t(`signIn.ldap.${k}`)} help={help} mono value={value[k]} onChange={(v) => set(k, v)} />
  );
  return (
    <fieldset className="sign-in-section" data-testid="ldap-fields">
      <legend className="settings-group__title">{t('signIn.ldap.title')}</legend>
      <Checkbox name="ldap-enabled" checked={value.enabled} onChange={(v) => set('enabled', v)} label={t('signIn.ldap.enabled')} />
      {value.enabled && (
        <>
          {text('url')}
          <Checkbox name="ldap-startTls" checked={value.startTls} onChange={(v) => set('startTls', v)} label={t('signIn.ldap.startTls')} />
          {text('caFile')}
          {text('bindDn')}
          <SecretField name="ldap-bindPassword" label={t('signIn.ldap.bindPassword')} isSet={!!value.bindPasswordSet} value={value.bindPassword} onChange={(v) => set('bindPassword', v)} />
          {text('userBase')}
          {text('userFilter', t('signIn.ldap.userFilterHelp'))}
          {text('usernameAttribute')}
          {text('groupBase', t('signIn.ldap.groupBaseHelp'))}
          {text('groupFilter', t('signIn.ldap.groupFilterHelp'))}
          {text('groupNameAttribute')}
          <DirectoryFields id="ldap" value={value} onChange={onChange} />
        </>
      )}
    </fieldset>
  );
}
