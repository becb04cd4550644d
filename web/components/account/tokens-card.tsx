import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { ApiTokenInfo } from '../../../server/contract/accounts';
import type { Permissions } from '../../../server/contract/user';
import { account, closeCreatedToken, revokeToken } from '../../state/account.state';
import { ConfirmDialog } from '../settings/confirm-dialog';
import { ExtraIcon } from '../share-page/icons';
import { SecretBox } from './secret-box';
import { TokenForm } from './token-form';
import { TokensTable } from './tokens-table';

/** Personal API tokens for scripts and WebDAV clients: create (the secret shown once), list, revoke. */
export function TokensCard({ tokens, own }: { tokens: readonly ApiTokenInfo[]; own: Readonly<Permissions> }) {
  const { t } = useTranslation();
  const { created } = useSnapshot(account);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiTokenInfo | null>(null);

  return (
    <section className="settings-card" data-testid="tokens-card">
      <div className="settings-card__head account-card-head">
        <h2 className="settings-card__title">{t('account.tokens.title')}</h2>
        {!creating && (
          <button type="button" className="btn btn--primary settings-btn--small" onClick={() => setCreating(true)} data-testid="token-new">
            <ExtraIcon name="plus" />
            <span>{t('account.tokens.new')}</span>
          </button>
        )}
      </div>
      <div className="settings-card__body">
        <p className="settings-help">{t('account.tokens.help')}</p>
        {created && <SecretBox value={created.token} title={t('account.tokens.createdTitle', { name: created.name })} onClose={closeCreatedToken} testId="token-secret" />}
        {creating && <TokenForm own={own} onClose={() => setCreating(false)} />}
      </div>
      <div className="settings-card__body settings-card__body--flush">
        <TokensTable tokens={tokens} onRevoke={setRevoking} />
      </div>
      {revoking && (
        <ConfirmDialog
          title={t('account.tokens.revokeTitle')}
          message={t('account.tokens.revokeMessage', { name: revoking.name })}
          confirmLabel={t('account.tokens.revoke')}
          danger
          onCancel={() => setRevoking(null)}
          onConfirm={async () => {
            await revokeToken(revoking.id);
            setRevoking(null);
          }}
        />
      )}
    </section>
  );
}
