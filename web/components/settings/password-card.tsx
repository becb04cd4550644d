import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { changePassword } from '../../state/settings.state';
import { needsCurrentPassword } from './confirm-dialog';

/** Changes the user's own password: new password and confirmation must match (green) and not be empty. */
export function PasswordCard() {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [current, setCurrent] = useState('');
  const [busy, setBusy] = useState(false);
  const match = password !== '' && password === confirm;
  const state = confirm === '' ? '' : match ? ' is-valid' : ' is-invalid';

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!match || busy) return; // nothing is sent unless both are equal and non-empty
    if (needsCurrentPassword && !current) return;
    setBusy(true);
    if (await changePassword(password, current)) {
      setPassword('');
      setConfirm('');
      setCurrent('');
    }
    setBusy(false);
  };

  return (
    <form className="settings-card" onSubmit={(e) => void onSubmit(e)} data-testid="password-form">
      <div className="settings-card__head">
        <h2 className="settings-card__title">{t('settings.password.title')}</h2>
      </div>
      <div className="settings-card__body">
        <label className="field">
          <span className="field__label">{t('settings.password.new')}</span>
          <input className={`input${state}`} type="password" name="new-password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">{t('settings.password.confirm')}</span>
          <input
            className={`input${state}`} type="password" name="new-password-confirm" autoComplete="new-password" value={confirm}
            aria-invalid={confirm !== '' && !match} onChange={(e) => setConfirm(e.target.value)}
          />
        </label>
        {confirm !== '' && !match && <p className="settings-field-error" role="alert">{t('settings.password.mismatch')}</p>}
        {needsCurrentPassword && (
          <label className="field">
            <span className="field__label">{t('settings.currentPassword')}</span>
            <input className="input" type="password" name="current-password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
          </label>
        )}
      </div>
      <div className="settings-card__actions">
        <button type="submit" className="btn btn--primary" disabled={busy || !match || (needsCurrentPassword && !current)} data-testid="password-save">
          {t('settings.password.submit')}
        </button>
      </div>
    </form>
  );
}
