import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { SettingsLayout } from '../../components/settings/settings-layout';
import { SharesTable } from '../../components/settings/shares-table';
import { ErrorState } from '../../components/ui/error-state';
import { auth } from '../../state/auth.state';
import { loadShares, sharesState } from '../../state/settings.state';

/** /settings/shares: the user's share links (admins: everyone's, with the owner). */
export function SharesScreen() {
  const { t } = useTranslation();
  const { list, error } = useSnapshot(sharesState);
  const { user } = useSnapshot(auth);

  useEffect(() => {
    void loadShares();
  }, []);

  let body;
  if (error) body = <ErrorState status={error.status} />;
  else if (!list) body = <p className="status-text" role="status">{t('settings.loading')}</p>;
  else if (!list.length) body = <p className="settings-empty" data-testid="shares-empty">{t('settings.shares.empty')}</p>;
  else body = <SharesTable shares={list} showOwner={!!user?.perm.admin} />;

  return (
    <SettingsLayout title={t('routes.shares')}>
      <section className="settings-card">
        <div className="settings-card__head">
          <h2 className="settings-card__title">{t('settings.shares.title')}</h2>
        </div>
        <div className="settings-card__body settings-card__body--flush">{body}</div>
      </section>
    </SettingsLayout>
  );
}
