import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { publicShare, submitSharePassword } from '../../state/public-share.state';
import { Icon } from '../ui/icon';
import { ExtraIcon } from './icons';

/** Asked when the share answers 401: the share's password, kept in memory for this visit only. */
export function SharePasswordCard() {
  const { t } = useTranslation();
  const snap = useSnapshot(publicShare);
  const [value, setValue] = useState('');
  const wrong = snap.attempted && !snap.loading && !snap.rateLimited;

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void submitSharePassword(value);
  };

  return (
    <section className="share-card share-password" data-testid="share-password">
      <div className="share-password__badge" aria-hidden="true">
        <ExtraIcon name="lock" />
      </div>
      <h2 className="share-card__title">{t('share.passwordTitle')}</h2>
      <p className="share-card__text">{t('share.passwordText')}</p>
      <form className="share-password__form" onSubmit={onSubmit} noValidate aria-busy={snap.loading}>
        <label className="field">
          <span className="field__label">{t('share.password')}</span>
          <input
            className="input" type="password" name="share-password" autoComplete="off" autoFocus value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        </label>
        {(wrong || snap.rateLimited) && (
          <p className="share-password__error" role="alert" data-testid="share-password-error">
            <Icon name="alert" />
            <span>{t(snap.rateLimited ? 'share.tooManyAttempts' : 'share.wrongCredentials')}</span>
          </p>
        )}
        <button type="submit" className="btn btn--primary btn--block" disabled={snap.loading}>
          {t('share.submitPassword')}
        </button>
      </form>
    </section>
  );
}
