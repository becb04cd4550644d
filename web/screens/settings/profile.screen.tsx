import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { PasswordCard } from '../../components/settings/password-card';
import { ProfileForm } from '../../components/settings/profile-form';
import { SettingsLayout } from '../../components/settings/settings-layout';
import { auth } from '../../state/auth.state';

/** /settings/profile: personal preferences, and the password card unless the password is locked. */
export function ProfileScreen() {
  const { t } = useTranslation();
  const { user } = useSnapshot(auth);
  return (
    <SettingsLayout title={t('routes.profile')}>
      {user && (
        <div className="settings-columns">
          <ProfileForm user={user} />
          {!user.lockPassword && <PasswordCard />}
        </div>
      )}
    </SettingsLayout>
  );
}
