import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { ApiTokenInfo, SessionInfo } from '../../../server/contract/accounts';
import { endAllUserSessions, loadUserAccess, resetFactors, revokeUserToken, setFactorRequired, userAccess } from '../../state/user-access.state';
import { Checkbox } from '../settings/checkbox';
import { ConfirmDialog } from '../settings/confirm-dialog';
import { SessionsTable } from './sessions-table';
import { TokensTable } from './tokens-table';
import '../../styles/account.css';

type Confirm = { kind: 'sessions' } | { kind: 'factors' } | { kind: 'token'; token: ApiTokenInfo };

/** An admin's view of one user's sign-in: their sessions (end all), second factors (require, reset) and tokens (revoke). */
export function UserAccessCard({ userId, username }: { userId: number; username: string }) {
  const { t } = useTranslation();
  const snap = useSnapshot(userAccess);
  const [confirm, setConfirm] = useState<Confirm | null>(null);

  useEffect(() => {
    void loadUserAccess(userId);
  }, [userId]);

  if (snap.error) return <p className="settings-field-error" role="alert" data-testid="user-access-error">{t('account.admin.unavailable', { status: snap.error.status })}</p>;
  if (!snap.sessions || !snap.factors || !snap.tokens) return <p className="status-text" role="status">{t('settings.loading')}</p>;
  const { factors } = snap;
  const methods = [factors.totp && t('account.admin.totp'), factors.passkeys.length && t('account.admin.passkeys', { count: factors.passkeys.length })].filter(Boolean).join(', ');

  return (
    <section className="settings-card" data-testid="user-access">
      <div className="settings-card__head">
        <h2 className="settings-card__title">{t('account.admin.title')}</h2>
      </div>
      <div className="settings-card__body">
        <div className="settings-group">
          <h3 className="settings-group__title">{t('account.twoFactor.title')}</h3>
          <p data-testid="user-factors">{methods || t('account.admin.noFactors')}</p>
          <Checkbox name="factor-required" checked={factors.required} onChange={(on) => void setFactorRequired(on)} label={t('account.admin.require')} hint={t('account.admin.requireHelp')} />
          <div className="account-actions">
            <button type="button" className="btn settings-btn--danger-outline" disabled={!factors.totp && !factors.passkeys.length} onClick={() => setConfirm({ kind: 'factors' })} data-testid="user-factors-reset">
              {t('account.admin.reset')}
            </button>
          </div>
        </div>
        <div className="settings-group">
          <h3 className="settings-group__title">{t('account.sessions.title')}</h3>
          <div className="account-actions">
            <button type="button" className="btn btn--secondary" disabled={!snap.sessions.length} onClick={() => setConfirm({ kind: 'sessions' })} data-testid="user-sessions-end">
              {t('account.admin.endAll')}
            </button>
          </div>
        </div>
      </div>
      <div className="settings-card__body settings-card__body--flush">
        <SessionsTable sessions={snap.sessions as SessionInfo[]} />
      </div>
      <div className="settings-card__body">
        <h3 className="settings-group__title">{t('account.tokens.title')}</h3>
      </div>
      <div className="settings-card__body settings-card__body--flush">
        <TokensTable tokens={snap.tokens as ApiTokenInfo[]} onRevoke={(token) => setConfirm({ kind: 'token', token })} />
      </div>
      {confirm && (
        <ConfirmDialog
          title={t(confirm.kind === 'sessions' ? 'account.admin.endAll' : confirm.kind === 'factors' ? 'account.admin.reset' : 'account.tokens.revokeTitle')}
          message={confirm.kind === 'token' ? t('account.tokens.revokeMessage', { name: confirm.token.name }) : t(confirm.kind === 'sessions' ? 'account.admin.endAllMessage' : 'account.admin.resetMessage', { username })}
          confirmLabel={t(confirm.kind === 'sessions' ? 'account.sessions.end' : confirm.kind === 'factors' ? 'account.admin.resetConfirm' : 'account.tokens.revoke')}
          danger
          onCancel={() => setConfirm(null)}
          onConfirm={async () => {
            if (confirm.kind === 'sessions') await endAllUserSessions();
            else if (confirm.kind === 'factors') await resetFactors();
            else await revokeUserToken(confirm.token.id);
            setConfirm(null);
          }}
        />
      )}
    </section>
  );
}
