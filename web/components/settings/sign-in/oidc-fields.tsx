import { useTranslation } from 'react-i18next';
import type { OidcSettings } from '../../../../server/contract/accounts';
import { Checkbox } from '../checkbox';
import { DirectoryFields } from './directory-fields';
import { ListField, SecretField, TextField } from './text-fields';

/** The settings as answered: the secret blanked, with a marker of whether one is stored. */
export type OidcDraft = OidcSettings & { clientSecretSet?: boolean };

/** OpenID Connect: the provider, the client, which claims name the user and their groups, logout at the provider. */
export function OidcFields({ value, onChange }: { value: OidcDraft; onChange: (v: OidcDraft) => void }) {
  const { t } = useTranslation();
  const set = <K extends keyof OidcSettings>(k: K, v: OidcSettings[K]) => onChange({ ...value, [k]: v });
  return (
    <fieldset className="sign-in-section" data-testid="oidc-fields">
      <legend className="settings-group__title">{t('signIn.oidc.title')}</legend>
      <Checkbox name="oidc-enabled" checked={value.enabled} onChange={(v) => set('enabled', v)} label={t('signIn.oidc.enabled')} />
      {value.enabled && (
        <>
          <TextField name="oidc-name" label={t('signIn.oidc.name')} help={t('signIn.oidc.nameHelp')} value={value.name} onChange={(v) => set('name', v)} />
          <TextField name="oidc-issuer" label={t('signIn.oidc.issuer')} mono value={value.issuer} onChange={(v) => set('issuer', v)} />
          <TextField name="oidc-clientId" label={t('signIn.oidc.clientId')} mono value={value.clientId} onChange={(v) => set('clientId', v)} />
          <SecretField name="oidc-clientSecret" label={t('signIn.oidc.clientSecret')} isSet={!!value.clientSecretSet} value={value.clientSecret} onChange={(v) => set('clientSecret', v)} />
          <ListField name="oidc-scopes" label={t('signIn.oidc.scopes')} value={value.scopes} onChange={(v) => set('scopes', v)} />
          <TextField name="oidc-usernameClaim" label={t('signIn.oidc.usernameClaim')} help={t('signIn.oidc.claimHelp')} mono value={value.usernameClaim} onChange={(v) => set('usernameClaim', v)} />
          <TextField name="oidc-groupsClaim" label={t('signIn.oidc.groupsClaim')} mono value={value.groupsClaim} onChange={(v) => set('groupsClaim', v)} />
          <Checkbox name="oidc-logoutAtProvider" checked={value.logoutAtProvider} onChange={(v) => set('logoutAtProvider', v)} label={t('signIn.oidc.logoutAtProvider')} />
          <DirectoryFields id="oidc" value={value} onChange={onChange} />
        </>
      )}
    </fieldset>
  );
}
