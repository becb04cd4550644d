import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Share } from '../../../server/contract/share';
import { linkName, setLinkDisabled } from '../../actions/share-edit';
import { encodePath } from '../../api/resources';
import { shareUrl } from '../../api/shares';
import { showPrompt } from '../../state/prompts.state';
import { copyText, loadShares, removeShare } from '../../state/settings.state';
import { formatCount } from '../ui/format';
import { RelativeTime } from '../ui/relative-time';
import '../../styles/settings-table-stack.css';
import '../../styles/share-edit.css';
import { ExtraIcon } from '../share-page/icons';
import { ConfirmDialog } from './confirm-dialog';

/** How a listed link stands: switched off by its owner first, else what the server says (ok when it says nothing). */
const stateOf = (s: Share) => (s.disabled ? 'disabled' : (s.state ?? 'ok'));

/** The link's tools as text buttons under its path, so they wrap on a phone instead of widening the row. */
function Tools({ share }: { share: Share }) {
  const { t } = useTranslation();
  const open = (view: 'edit' | 'log' | 'regenerate') => showPrompt('shareManage', { share, view, onDone: () => void loadShares() });
  const toggle = async () => {
    if (await setLinkDisabled(share.hash, !share.disabled)) await loadShares();
  };
  return (
    <span className="share__tools shares-table__tools">
      <button type="button" className="link-button" onClick={() => open('edit')} data-testid="share-edit">
        {t('shareEdit.edit')}
      </button>
      <button type="button" className="link-button" onClick={() => void toggle()} data-testid="share-toggle">
        {share.disabled ? t('shareEdit.enable') : t('shareEdit.disable')}
      </button>
      <button type="button" className="link-button" onClick={() => open('regenerate')} data-testid="share-regenerate">
        {t('shareEdit.regenerate')}
      </button>
      <button type="button" className="link-button" onClick={() => open('log')} data-testid="share-log">
        {t('shareEdit.log')}
      </button>
    </span>
  );
}

/**
 * The shares table: path (with the link's tools), mode, state, use (views, downloads, uploads), last access,
 * expiry, owner (admins), copy link and delete. On a phone each row is a card (settings-table-stack.css).
 */
export function SharesTable({ shares, showOwner }: { shares: readonly Share[]; showOwner: boolean }) {
  const { t, i18n } = useTranslation();
  const [deleting, setDeleting] = useState<Share | null>(null);
  const n = (v: number) => formatCount(v, i18n.language);

  return (
    <>
      <div className="settings-table-wrap">
        <table className="settings-table settings-table--stack shares-table" data-testid="shares-table">
          <thead>
            <tr>
              <th scope="col">{t('settings.shares.path')}</th>
              <th scope="col">{t('shareEdit.modeColumn')}</th>
              <th scope="col">{t('shareEdit.stateColumn')}</th>
              <th scope="col">{t('shareEdit.useColumn')}</th>
              <th scope="col">{t('shareEdit.lastAccess')}</th>
              <th scope="col">{t('settings.shares.expires')}</th>
              {showOwner && <th scope="col">{t('settings.shares.owner')}</th>}
              <th scope="col"><span className="sr-only">{t('settings.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {shares.map((s) => {
              const state = stateOf(s);
              const c = s.counters;
              return (
                <tr key={s.hash} data-testid="share-row" data-hash={s.hash} data-state={state}>
                  <td className="settings-table__main">
                    <Link href={`/files${encodePath(s.path)}`} className="settings-table__link">{s.path}</Link>
                    {s.hasPassword && <span className="settings-badge" title={t('settings.shares.protected')}><ExtraIcon name="lock" /></span>}
                    {s.slug && <span className="shares-table__slug" dir="ltr">/{s.slug}</span>}
                    <Tools share={s} />
                  </td>
                  <td data-label={t('shareEdit.modeColumn')} data-testid="share-mode">{t(`shareEdit.modeShort.${s.mode ?? 'view'}`)}</td>
                  <td data-label={t('shareEdit.stateColumn')} data-testid="share-state">
                    <span className={state === 'ok' ? undefined : 'share__tag share__tag--off'}>{t(`shareEdit.states.${state}`)}</span>
                  </td>
                  <td data-label={t('shareEdit.useColumn')} data-testid="share-use">
                    {c ? (
                      <span className="shares-table__use">
                        <span>{`${t('shareEdit.views')} ${n(c.views)}`}</span>
                        <span>{`${t('shareEdit.downloads')} ${s.maxDownloads ? `${n(c.downloads)}/${n(s.maxDownloads)}` : n(c.downloads)}`}</span>
                        {s.mode && s.mode !== 'view' && <span>{`${t('shareEdit.uploads')} ${n(c.uploads)}`}</span>}
                      </span>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td data-label={t('shareEdit.lastAccess')}>
                    <RelativeTime at={c?.lastAccess ? c.lastAccess * 1000 : 0} empty={t('shareEdit.never')} />
                  </td>
                  <td data-label={t('settings.shares.expires')}>
                    <RelativeTime at={s.expire * 1000} empty={t('settings.shares.permanent')} />
                  </td>
                  {showOwner && (
                    <td data-testid="share-owner" data-label={t('settings.shares.owner')}>
                      {s.username}
                    </td>
                  )}
                  <td className="settings-table__actions">
                    <button type="button" className="settings-icon-btn" onClick={() => void copyText(shareUrl(linkName(s)))} aria-label={t('settings.shares.copy')} title={t('settings.shares.copy')} data-testid="share-copy">
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
