import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { pageConfig } from '../../api/page-config';

interface Props {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  /** Ask for the caller's own password (sent as current_password); only with the json login method. */
  askPassword?: boolean;
  onConfirm: (password: string) => Promise<unknown> | void;
  onCancel: () => void;
}

/** Whether the server checks the caller's current password (json login only). */
export const needsCurrentPassword = pageConfig.AuthMethod === 'json' && !pageConfig.NoAuth;

/** A modal confirmation card; Esc or a backdrop click cancels. */
export function ConfirmDialog({ title, message, confirmLabel, danger, askPassword, onConfirm, onCancel }: Props) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const withPassword = !!askPassword && needsCurrentPassword;

  const cancel = useRef(onCancel);
  cancel.current = onCancel;

  useEffect(() => {
    form.current?.querySelector<HTMLElement>('input, [data-testid=confirm-ok]')?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && cancel.current();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy || (withPassword && !password)) return;
    setBusy(true);
    try {
      await onConfirm(password);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="settings-overlay" onClick={(e) => e.target === e.currentTarget && onCancel()}>
      <form ref={form} className="settings-dialog" role="dialog" aria-modal="true" aria-labelledby="settings-dialog-title" onSubmit={(e) => void submit(e)} data-testid="confirm-dialog">
        <h2 id="settings-dialog-title" className="settings-dialog__title">{title}</h2>
        <div className="settings-dialog__message">{message}</div>
        {withPassword && (
          <label className="field">
            <span className="field__label">{t('settings.currentPassword')}</span>
            <input className="input" type="password" name="current-password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </label>
        )}
        <div className="settings-dialog__actions">
          <button type="button" className="btn btn--secondary" onClick={onCancel} data-testid="confirm-cancel">
            {t('settings.cancel')}
          </button>
          <button type="submit" className={danger ? 'btn settings-btn--danger' : 'btn btn--primary'} disabled={busy || (withPassword && !password)} data-testid="confirm-ok">
            {confirmLabel}
          </button>
        </div>
      </form>
    </div>
  );
}
