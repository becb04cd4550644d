import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { pageConfig } from '../../api/page-config';
import { Icon } from '../../components/ui/icon';
import { loginFlow, passkeyStep } from '../../state/login-flow.state';
import { safeRedirect } from '../../state/navigation';
import { webAuthnAvailable } from '../../state/webauthn';

/** Where a provider's button goes: its start URL, carrying where to come back to inside the app. */
function ssoHref(url: string): string {
  const back = safeRedirect(new URLSearchParams(window.location.search).get('redirect')) ?? '/files/';
  return `${url}${url.includes('?') ? '&' : '?'}redirect=${encodeURIComponent(back)}`;
}

/** The other ways in: "Sign in with {provider}" links and a passwordless passkey button, under or instead of the form. */
export function SignInOptions() {
  const { t } = useTranslation();
  const { busy } = useSnapshot(loginFlow);
  const passkeys = pageConfig.Passkeys && webAuthnAvailable();
  if (!pageConfig.Sso.length && !passkeys) return null;
  return (
    <div className="login__alternatives" data-testid="sign-in-options">
      {pageConfig.LocalLogin && <p className="login__divider"><span>{t('login.or')}</span></p>}
      {pageConfig.Sso.map((p) => (
        <a key={p.id} className="btn btn--secondary btn--block" href={ssoHref(p.url)} data-testid={`sso-${p.id}`}>
          <Icon name="login" />
          <span>{t('login.ssoButton', { name: p.name })}</span>
        </a>
      ))}
      {passkeys && (
        <button type="button" className="btn btn--secondary btn--block" disabled={busy} onClick={() => void passkeyStep()} data-testid="passkey-login">
          <Icon name="lock" />
          <span>{t('login.passkeyButton')}</span>
        </button>
      )}
    </div>
  );
}
