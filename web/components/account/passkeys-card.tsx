import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasskeyInfo } from '../../../server/contract/accounts';
import { addPasskey, removePasskey } from '../../state/account.state';
import { webAuthnAvailable } from '../../state/webauthn';
import { ConfirmDialog } from '../settings/confirm-dialog';
import { PasskeyRow } from './passkey-row';

/** Passkeys: a second factor and a way in without a password; add one on this device, rename, remove. */
export function PasskeysCard({ passkeys }: { passkeys: readonly PasskeyInfo[] }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<PasskeyInfo | null>(null);
  const supported = webAuthnAvailable();

  const add = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!name.trim() || busy) return;
    setBusy(true);
    if (await addPasskey(name)) setName('');
    setBusy(false);
  };

  return (
    <section className="settings-card" data-testid="passkeys-card">
      <div className="settings-card__head">
        <h2 className="settings-card__title">{t('account.passkeys.title')}</h2>
      </div>
      <div className="settings-card__body">
        <p className="settings-help">{t('account.passkeys.help')}</p>
        {passkeys.length ? (
          <ul className="account-list" data-testid="passkey-list">
            {passkeys.map((p) => <PasskeyRow key={p.id} passkey={p} onRemove={() => setRemoving(p)} />)}
          </ul>
        ) : (
          <p className="settings-empty" data-testid="passkeys-empty">{t('account.passkeys.empty')}</p>
        )}
        {supported ? (
          <form className="account-inline-form" onSubmit={(e) => void add(e)} data-testid="passkey-add-form">
            <label className="field">
              <span className="field__label">{t('account.passkeys.name')}</span>
              <input className="input" name="passkey-name" maxLength={64} value={name} placeholder={t('account.passkeys.namePlaceholder')} onChange={(e) => setName(e.target.value)} />
            </label>
            <button type="submit" className="btn btn--primary" disabled={busy || !name.trim()} data-testid="passkey-add">{t('account.passkeys.add')}</button>
          </form>
        ) : (
          <p className="settings-help" data-testid="passkeys-unsupported">{t('account.passkeys.unsupported')}</p>
        )}
      </div>
      {removing && (
        <ConfirmDialog
          title={t('account.passkeys.removeTitle')}
          message={t('account.passkeys.removeMessage', { name: removing.name })}
          confirmLabel={t('account.passkeys.remove')}
          danger
          onCancel={() => setRemoving(null)}
          onConfirm={async () => {
            await removePasskey(removing.id);
            setRemoving(null);
          }}
        />
      )}
    </section>
  );
}
