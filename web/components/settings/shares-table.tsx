import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Share } from '../../../server/contract/share';
import { encodePath } from '../../api/resources';
import { shareUrl } from '../../api/shares';
import { copyText, removeShare } from '../../state/settings.state';
import { formatExact, formatRelative } from '../ui/format';
import '../../styles/settings-table-stack.css';
import { ExtraIcon } from '../share-page/icons';
import { ConfirmDialog } from './confirm-dialog';

/** The shares table: path, expiry ('Permanent' or relative), owner (admins), copy link and delete. */
export function SharesTable({ shares, showOwner }: { shares: readonly Share[]; showOwner: boolean }) {
  const { t, i18n } = useTranslation();
  const [deleting, setDeleting] = useState<Share | null>(null);

  return (
    <>
      <div className="settings-table-wrap">
        <table className="settings-table settings-table--stack" data-testid="shares-table">
          <thead>
            <tr>
              <th scope="col">{t('settings.shares.path')}</th>
              <th scope="col">{t('settings.shares.expires')}</th>
              {showOwner && <th scope="col">{t('settings.shares.owner')}</th>}
              <th scope="col"><span className="sr-only">{t('settings.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {shares.map((s) => {
              const expire = new Date(s.expire * 1000);
              return (
                <tr key={s.hash} data-testid="share-row" data-hash={s.hash}>
                  <td className="settings-table__main">
                    <Link href={`/files${encodePath(s.path)}`} className="settings-table__link">{s.path}</Link>
                    {s.hasPassword && <span className="settings-badge" title={t('settings.shares.protected')}><ExtraIcon name="lock" /></span>}
                  </td>
                  <td data-label={t('settings.shares.expires')}>
                    {s.expire === 0 ? (
                      t('settings.shares.permanent')
                    ) : (
                      <time dateTime={expire.toISOString()} title={formatExact(expire, i18n.language)}>{formatRelative(expire, i18n.language)}</time>
                    )}
                  </td>
                  {showOwner && (
                    <td data-testid="share-owner" data-label={t('settings.shares.owner')}>
                      {s.username}
                    </td>
                  )}
                  <td className="settings-table__actions">
                    <button type="button" className="settings-icon-btn" onClick={() => void copyText(shareUrl(s.hash))} aria-label={t('settings.shares.copy')} title={t('settings.shares.copy')} data-testid="share-copy">
                      <ExtraIcon name="copy" />
                    </button>
                    <button type="button" className="settings-icon-btn settings-icon-btn--danger" onClick={() => setDeleting(s)} aria-label={t('settings.shares.delete')} title={t('settings.shares.delete')} data-testid="share-delete">
                      <ExtraIcon name="trash" />
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {deleting && (
        <ConfirmDialog
          title={t('settings.shares.deleteTitle')}
          message={t('settings.shares.deleteMessage', { path: deleting.path })}
          confirmLabel={t('settings.shares.delete')}
          danger
          onCancel={() => setDeleting(null)}
          onConfirm={async () => {
            await removeShare(deleting.hash);
            setDeleting(null);
          }}
        />
      )}
    </>
  );
}
