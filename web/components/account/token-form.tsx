import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PERMISSIONS, type PermName, type Permissions } from '../../../server/contract/user';
import { createToken } from '../../state/account.state';
import { Checkbox } from '../settings/checkbox';

/**
 * The permissions a token may carry: the owner's own (the server checks again at every use), never execute (a token
 * never runs commands, decision 0044).
 */
export const grantable = (own: Readonly<Permissions>): PermName[] => PERMISSIONS.filter((p) => own[p] && p !== 'execute');

/** A new API token: name, expiry in days (empty = never), permissions out of the user's own, an optional folder, read-only. */
export function TokenForm({ own, onClose }: { own: Readonly<Permissions>; onClose: () => void }) {
  const { t } = useTranslation();
  const offered = grantable(own);
  const [name, setName] = useState('');
  const [days, setDays] = useState('30');
  const [perm, setPerm] = useState<PermName[]>(offered.filter((p) => p !== 'admin'));
  const [path, setPath] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  const [busy, setBusy] = useState(false);
  const dayCount = days.trim() === '' ? null : Number(days);
  const daysValid = dayCount === null || (Number.isInteger(dayCount) && dayCount >= 1 && dayCount <= 3650);

  // A token limited to a folder is never an admin one (the server refuses it): admin is left out while one is set.
  const folder = path.trim() || null;
  const sent = folder ? perm.filter((p) => p !== 'admin') : perm;

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!name.trim() || !daysValid || busy) return;
    setBusy(true);
    const ok = await createToken({ name: name.trim(), expiresInDays: dayCount, perm: sent, path: folder, readOnly });
    setBusy(false);
    if (ok) onClose();
  };

  const tick = (p: PermName, on: boolean) => setPerm((list) => (on ? [...list, p] : list.filter((x) => x !== p)));

  return (
    <form className="settings-group" onSubmit={(e) => void submit(e)} data-testid="token-form">
      <h3 className="settings-group__title">{t('account.tokens.new')}</h3>
      <label className="field">
        <span className="field__label">{t('account.tokens.name')}</span>
        <input className="input" name="token-name" maxLength={100} autoFocus value={name} placeholder={t('account.tokens.namePlaceholder')} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="field">
        <span className="field__label">{t('account.tokens.expiresInDays')}</span>
        <input
          className="input settings-input--short" name="token-days" type="number" min={1} max={3650} value={days}
          aria-invalid={!daysValid} aria-describedby="token-days-help" onChange={(e) => setDays(e.target.value)}
        />
        <span id="token-days-help" className="settings-help">{t('account.tokens.expiresHelp')}</span>
      </label>
      <fieldset className="settings-perms" data-testid="token-perms">
        <legend className="field__label">{t('users.permissions')}</legend>
        <p className="settings-help">{t('account.tokens.permHelp')}</p>
        <div className="settings-perms__grid">
          {offered.map((p) => (
            <Checkbox
              key={p} name={`token-perm-${p}`} checked={sent.includes(p)} disabled={p === 'admin' && !!folder}
              onChange={(on) => tick(p, on)} label={t(`users.perm.${p}`)}
            />
          ))}
        </div>
      </fieldset>
      <label className="field">
        <span className="field__label">{t('account.tokens.path')}</span>
        <input className="input" name="token-path" dir="ltr" spellCheck={false} autoCapitalize="off" placeholder="/" value={path} onChange={(e) => setPath(e.target.value)} />
        <span className="settings-help">{t('account.tokens.pathHelp')}</span>
      </label>
      <Checkbox name="token-read-only" checked={readOnly} onChange={setReadOnly} label={t('account.tokens.readOnly')} hint={t('account.tokens.readOnlyHelp')} />
      <div className="account-actions">
        <button type="submit" className="btn btn--primary" disabled={busy || !name.trim() || !daysValid} data-testid="token-create">{t('account.tokens.create')}</button>
        <button type="button" className="btn btn--secondary" onClick={onClose}>{t('settings.cancel')}</button>
      </div>
    </form>
  );
}
