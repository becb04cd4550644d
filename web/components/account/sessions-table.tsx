import { useTranslation } from 'react-i18next';
import type { SessionInfo } from '../../../server/contract/accounts';
import { RelativeTime } from '../ui/relative-time';
import { ExtraIcon } from '../share-page/icons';
import '../../styles/settings-table-stack.css';

/** Sessions as a table (stacked on phones): device, address, how it signed in, last seen; an end button unless current. */
export function SessionsTable({ sessions, onEnd }: { sessions: readonly SessionInfo[]; onEnd?: (s: SessionInfo) => void }) {
  const { t } = useTranslation();
  if (!sessions.length) return <p className="settings-empty" data-testid="sessions-empty">{t('account.sessions.empty')}</p>;
  return (
    <div className="settings-table-wrap">
      <table className="settings-table settings-table--stack" data-testid="sessions-table">
        <thead>
          <tr>
            <th scope="col">{t('account.sessions.device')}</th>
            <th scope="col">{t('account.sessions.address')}</th>
            <th scope="col">{t('account.sessions.method')}</th>
            <th scope="col">{t('account.sessions.lastSeen')}</th>
            {onEnd && <th scope="col"><span className="sr-only">{t('settings.actions')}</span></th>}
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => {
            return (
              <tr key={s.id} data-testid="session-row" data-current={s.current || undefined}>
                <td className="settings-table__main">
                  <span>{s.device || t('account.sessions.unknownDevice')}</span>
                  {s.current && <span className="account-current" data-testid="session-current">{t('account.sessions.current')}</span>}
                </td>
                <td data-label={t('account.sessions.address')}><bdi className="settings-table__mono">{s.address}</bdi></td>
                <td data-label={t('account.sessions.method')}>{t(`account.method.${s.method}`)}</td>
                <td data-label={t('account.sessions.lastSeen')}>
                  <RelativeTime at={s.lastSeenAt} />
                </td>
                {onEnd && (
                  <td className="settings-table__actions">
                    {!s.current && (
                      <button type="button" className="settings-icon-btn settings-icon-btn--danger" onClick={() => onEnd(s)} aria-label={t('account.sessions.endOne', { device: s.device })} title={t('account.sessions.end')} data-testid="session-end">
                        <ExtraIcon name="logout" />
                      </button>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
