import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import type { User } from '../../../server/contract/user';
import { UserAccessCard } from '../../components/account/user-access-card';
import { SettingsLayout } from '../../components/settings/settings-layout';
import { UserForm } from '../../components/settings/user-form';
import { ErrorState } from '../../components/ui/error-state';
import { loadUserForm, usersState } from '../../state/users.state';

/** The user id in /settings/users/{id}; 'new' (or anything not a number) means a new user. */
function currentUserId(location: string): number {
  const m = /^\/settings\/users\/(\d+)\/?$/.exec(location);
  return m ? Number(m[1]) : 0;
}

/** /settings/users/new and /settings/users/{id}: the user form. */
export function UserEditScreen() {
  const { t } = useTranslation();
  const [location] = useLocation();
  const id = currentUserId(location);
  const snap = useSnapshot(usersState);

  useEffect(() => {
    void loadUserForm(id);
  }, [id]);

  const editing = snap.editing && snap.editing.id === id ? (snap.editing as User) : null;
  let body;
  if (snap.editError) body = <ErrorState status={snap.editError.status} />;
  else if (!editing) body = <p className="status-text" role="status">{t('settings.loading')}</p>;
  // Keyed by the loaded record, so a reload after saving starts a fresh draft. The snapshot is a tracking proxy:
  // a JSON copy gives the form a plain, mutable record.
  else
    body = (
      <div className="settings-stack">
        <UserForm key={`${editing.id}:${JSON.stringify(editing)}`} initial={JSON.parse(JSON.stringify(editing)) as User} createUserDir={snap.createUserDir} globalTrash={snap.globalTrash} globalVersions={snap.globalVersions} />
        {editing.id !== 0 && <UserAccessCard userId={editing.id} username={editing.username} />}
      </div>
    );

  return <SettingsLayout title={t(id ? 'routes.editUser' : 'routes.newUser')}>{body}</SettingsLayout>;
}
