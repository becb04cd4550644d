import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { SettingsLayout } from '../../components/settings/settings-layout';
import { ExtraIcon } from '../../components/share-page/icons';
import { ErrorState } from '../../components/ui/error-state';
import { loadUsers, usersState } from '../../state/users.state';
import type { Quota, QuotaUsage } from '../../../server/contract/versions';
import { NEAR_QUOTA, quotaShare } from '../../state/account-usage.state';
import { formatSize } from '../../components/ui/format';

/** "1.2 GB of 5 GB" (amber near, red over the quota), the usage alone without a quota, "—" when the server has none. */
function UsageCell({ user }: { user: { readonly quota?: Readonly<Quota> | null; readonly usage?: unknown } }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const u = user.usage as QuotaUsage | undefined;
  const q = u?.quota ?? user.quota;
  if (!u) return <td>{q?.bytes ? t('users.quotaOnly', { total: formatSize(q.bytes, lng) }) : '—'}</td>;
  const share = quotaShare(u);
  const level = share === null ? 'ok' : share >= 1 ? 'over' : share >= NEAR_QUOTA ? 'near' : 'ok';
  const text = u.quota?.bytes ? t('sidebar.quotaBytes', { used: formatSize(u.bytes, lng), total: formatSize(u.quota.bytes, lng) }) : formatSize(u.bytes, lng);
  return <td className={`settings-usage is-${level}`} data-testid="user-usage">{text}</td>;
}

/** /settings/users: every user with the admin flag and scope, an edit link each, and New. */
export function UsersScreen() {
  const { t } = useTranslation();
  const { list, error } = useSnapshot(usersState);

  useEffect(() => {
    void loadUsers();
  }, []);

  let body;
  if (error) body = <ErrorState status={error.status} />;
  else if (!list) body = <p className="status-text" role="status">{t('settings.loading')}</p>;
  else
    body = (
      <div className="settings-table-wrap">
        <table className="settings-table" data-testid="users-table">
          <thead>
            <tr>
              <th scope="col">{t('users.username')}</th>
              <th scope="col">{t('users.admin')}</th>
              <th scope="col" className="settings-table__wide-only">{t('users.scope')}</th>
              <th scope="col">{t('users.storage')}</th>
              <th scope="col"><span className="sr-only">{t('settings.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {list.map((u) => (
              <tr key={u.id} data-testid="user-row" data-username={u.username}>
                <td className="settings-table__main">{u.username}</td>
                <td>{u.perm.admin ? <span className="settings-yes" role="img" aria-label={t('users.yes')}><ExtraIcon name="check" /></span> : <span className="settings-no" role="img" aria-label={t('users.no')}>—</span>}</td>
                <td className="settings-table__mono settings-table__wide-only">{u.scope}</td>
                <UsageCell user={u} />
                <td className="settings-table__actions">
                  <Link href={`/settings/users/${u.id}`} className="settings-icon-btn" aria-label={t('users.edit', { username: u.username })} title={t('users.edit', { username: u.username })} data-testid="user-edit">
                    <ExtraIcon name="edit" />
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );

  return (
    <SettingsLayout title={t('routes.users')}>
      <section className="settings-card">
        <div className="settings-card__head">
          <h2 className="settings-card__title">{t('users.title')}</h2>
          <Link href="/settings/users/new" className="btn btn--primary settings-btn--small" data-testid="user-new">
            <ExtraIcon name="plus" />
            <span>{t('users.new')}</span>
          </Link>
        </div>
        <div className="settings-card__body settings-card__body--flush">{body}</div>
      </section>
    </SettingsLayout>
  );
}
