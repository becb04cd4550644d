import { useTranslation } from 'react-i18next';
import type { Settings } from '../../../../server/contract/settings';
import { Checkbox } from '../checkbox';
import { LdapFields } from './ldap-fields';
import { OidcFields } from './oidc-fields';
import '../../../styles/account.css';

/** Global settings' "Sign-in" card: local login, two-factor for everyone, OpenID Connect and LDAP. */
export function SignInCard({ draft, onChange, busy, onSave }: { draft: Settings; onChange: (s: Settings) => void; busy: boolean; onSave: () => void }) {
  const { t } = useTranslation();
  return (
    <form className="settings-card" onSubmit={(e) => { e.preventDefault(); onSave(); }} data-testid="sign-in-form" autoComplete="off">
      <div className="settings-card__head">
        <h2 className="settings-card__title">{t('signIn.title')}</h2>
      </div>
      <div className="settings-card__body">
        <Checkbox name="localLogin" checked={draft.localLogin} onChange={(localLogin) => onChange({ ...draft, localLogin })} label={t('signIn.localLogin')} hint={t('signIn.localLoginHelp')} />
        <Checkbox name="twoFactorRequired" checked={draft.twoFactor.required} onChange={(required) => onChange({ ...draft, twoFactor: { required } })} label={t('signIn.twoFactorRequired')} hint={t('signIn.twoFactorRequiredHelp')} />
        <OidcFields value={draft.oidc} onChange={(oidc) => onChange({ ...draft, oidc })} />
        <LdapFields value={draft.ldap} onChange={(ldap) => onChange({ ...draft, ldap })} />
      </div>
      <div className="settings-card__actions">
        <button type="submit" className="btn btn--primary" disabled={busy} data-testid="sign-in-save">{t('settings.save')}</button>
      </div>
    </form>
  );
}
