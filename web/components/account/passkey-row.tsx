import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasskeyInfo } from '../../../server/contract/accounts';
import { renamePasskey } from '../../state/account.state';
import { formatExact, formatRelative } from '../ui/format';
import { ExtraIcon } from '../share-page/icons';

/** One passkey: its name (renamed in place), when it was added and last used, rename and remove buttons. */
export function PasskeyRow({ passkey, onRemove }: { passkey: PasskeyInfo; onRemove: () => void }) {
  const { t, i18n } = useTranslation();
  const [editing, setEditing] = useState<string | null>(null);
  const created = new Date(passkey.createdAt);
  const used = passkey.lastUsedAt ? new Date(passkey.lastUsedAt) : null;

  const save = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (editing === null || !editing.trim()) return;
    if (await renamePasskey(passkey.id, editing)) setEditing(null);
  };

  return (
    <li className="account-list__item" data-testid="passkey-row" data-name={passkey.name}>
      {editing !== null ? (
        <form className="account-inline-form" onSubmit={(e) => void save(e)}>
          <label className="field">
            <span className="sr-only">{t('account.passkeys.name')}</span>
            <input className="input" autoFocus maxLength={64} value={editing} onChange={(e) => setEditing(e.target.value)} data-testid="passkey-rename-input" />
          </label>
          <button type="submit" className="btn btn--primary settings-btn--small" data-testid="passkey-rename-save">{t('settings.save')}</button>
          <button type="button" className="btn btn--secondary settings-btn--small" onClick={() => setEditing(null)}>{t('settings.cancel')}</button>
        </form>
      ) : (
        <>
          <div className="account-list__text">
            <strong>{passkey.name}</strong>
            <span className="settings-help">
              {t('account.passkeys.added', { when: formatRelative(created, i18n.language) })}
              {' · '}
              {used ? <time dateTime={used.toISOString()} title={formatExact(used, i18n.language)}>{t('account.lastUsed', { when: formatRelative(used, i18n.language) })}</time> : t('account.neverUsed')}
            </span>
          </div>
          <div className="account-list__actions">
            <button type="button" className="settings-icon-btn" onClick={() => setEditing(passkey.name)} aria-label={t('account.passkeys.rename', { name: passkey.name })} title={t('account.passkeys.rename', { name: passkey.name })} data-testid="passkey-rename">
              <ExtraIcon name="edit" />
            </button>
            <button type="button" className="settings-icon-btn settings-icon-btn--danger" onClick={onRemove} aria-label={t('account.passkeys.removeOne', { name: passkey.name })} title={t('account.passkeys.removeOne', { name: passkey.name })} data-testid="passkey-remove">
              <ExtraIcon name="trash" />
            </button>
          </div>
        </>
      )}
    </li>
  );
}
