import { useTranslation } from 'react-i18next';
import type { ApiTokenInfo } from '../../../server/contract/accounts';
import { RelativeTime } from '../ui/relative-time';
import { ExtraIcon } from '../share-page/icons';
import '../../styles/settings-table-stack.css';

/** API tokens (never their secrets): name, what they may do, where, expiry, last use; a revoke button each. */
export function TokensTable({ tokens, onRevoke }: { tokens: readonly ApiTokenInfo[]; onRevoke: (token: ApiTokenInfo) => void }) {
  const { t } = useTranslation();
  if (!tokens.length) return <p className="settings-empty" data-testid="tokens-empty">{t('account.tokens.empty')}</p>;
  return (
    <div className="settings-table-wrap">
      <table className="settings-table settings-table--stack" data-testid="tokens-table">
        <thead>
          <tr>
            <th scope="col">{t('account.tokens.name')}</th>
            <th scope="col">{t('account.tokens.access')}</th>
            <th scope="col">{t('account.tokens.expires')}</th>
            <th scope="col">{t('account.tokens.lastUsed')}</th>
            <th scope="col"><span className="sr-only">{t('settings.actions')}</span></th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((tk) => (
            <tr key={tk.id} data-testid="token-row" data-name={tk.name}>
              <td className="settings-table__main">{tk.name}</td>
              <td data-label={t('account.tokens.access')}>
                <span>{tk.perm.length ? tk.perm.map((p) => t(`users.perm.${p}`)).join(', ') : t('account.tokens.noPerm')}</span>
                <span className="settings-help">
                  {' · '}<bdi className="settings-table__mono">{tk.path ?? '/'}</bdi>
                  {tk.readOnly && <>{' · '}{t('account.tokens.readOnly')}</>}
                </span>
              </td>
              <td data-label={t('account.tokens.expires')}><RelativeTime at={tk.expiresAt} empty={t('account.tokens.never')} /></td>
              <td data-label={t('account.tokens.lastUsed')}><RelativeTime at={tk.lastUsedAt} empty={t('account.neverUsed')} /></td>
              <td className="settings-table__actions">
                <button type="button" className="settings-icon-btn settings-icon-btn--danger" onClick={() => onRevoke(tk)} aria-label={t('account.tokens.revokeOne', { name: tk.name })} title={t('account.tokens.revokeOne', { name: tk.name })} data-testid="token-revoke">
                  <ExtraIcon name="trash" />
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
