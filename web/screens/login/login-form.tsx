import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { passwordStep } from '../../state/login-flow.state';
import { pageConfig } from '../../api/page-config';
import { Icon } from '../../components/ui/icon';
import { loginErrorMessage, type LoginMessage } from './login-error';

type Mode = 'login' | 'signup';

function initialMode(): Mode {
  return pageConfig.Signup && new URLSearchParams(window.location.search).get('mode') === 'signup' ? 'signup' : 'login';
}

/** Login / sign-up form. On success the session changes and the login route's guard moves the user on. */
export function LoginForm() {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>(initialMode);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [passwordConfirm, setPasswordConfirm] = useState('');
  const [error, setError] = useState<LoginMessage | null>(null);
  const [busy, setBusy] = useState(false);
  const signingUp = mode === 'signup';

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    if (signingUp && password !== passwordConfirm) {
      setError({ key: 'login.passwordsDontMatch' });
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await passwordStep(username, password, signingUp);
    } catch (err) {
      setError(loginErrorMessage(err, signingUp));
    }
    // Signed in: this form is gone already; a second step replaces it. Either way it is no longer busy.
    setBusy(false);
  };

  const toggle = () => {
    setMode(signingUp ? 'login' : 'signup');
    setError(null);
    setPasswordConfirm('');
  };

  return (
    <>
      <div className="login__intro">
        <h1 className="login__title">{t(signingUp ? 'login.signUpTitle' : 'login.signInTitle')}</h1>
        <p className="login__subtitle">{t(signingUp ? 'login.signUpSubtitle' : 'login.signInSubtitle')}</p>
      </div>
      <form className="login__form" onSubmit={(e) => void onSubmit(e)} noValidate aria-busy={busy}>
        <label className="field">
          <span className="field__label">{t('login.username')}</span>
          <input
            className="input" name="username" type="text" autoComplete="username" autoCapitalize="off"
            spellCheck={false} autoFocus value={username} onChange={(e) => setUsername(e.target.value)}
          />
        </label>
        <label className="field">
          <span className="field__label">{t('login.password')}</span>
          <input
            className="input" name="password" type="password" autoComplete={signingUp ? 'new-password' : 'current-password'}
            value={password} onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {signingUp && (
          <label className="field">
            <span className="field__label">{t('login.passwordConfirm')}</span>
            <input
              className="input" name="passwordConfirm" type="password" autoComplete="new-password"
              value={passwordConfirm} onChange={(e) => setPasswordConfirm(e.target.value)}
            />
          </label>
        )}
        {error && (
          <p className="login__error" role="alert" data-testid="login-error">
            <Icon name="alert" />
            <span>{error.key === 'login.signupRejected' ? t(error.key, { reason: error.reason }) : t(error.key)}</span>
          </p>
        )}
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          {busy ? t('login.working') : t(signingUp ? 'login.submitSignup' : 'login.submit')}
        </button>
      </form>
      {pageConfig.Signup && (
        <button type="button" className="link-button login__toggle" data-testid="login-toggle" onClick={toggle}>
          {t(signingUp ? 'login.toLogin' : 'login.toSignup')}
        </button>
      )}
    </>
  );
}
