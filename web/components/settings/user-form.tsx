import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TrashSettings } from '../../../server/contract/trash';
import type { User } from '../../../server/contract/user';
import type { VersionSettings } from '../../../server/contract/versions';
import { removeUser, saveUser } from '../../state/users.state';
import { ExtraIcon } from '../share-page/icons';
import { ConfirmDialog } from './confirm-dialog';
import { UserFields } from './user-fields';

/**
 * The user editor: Save asks for the admin's own password in a confirmation; an existing user can be deleted
 * after a confirmation card. Ticking 'create home directory' on a new user blanks and disables the scope; unticking
 * restores the scope it had.
 */
export function UserForm({ initial, createUserDir, globalTrash, globalVersions }: { initial: User; createUserDir: boolean; globalTrash: TrashSettings | null; globalVersions: VersionSettings | null }) {
  const { t } = useTranslation();
  const isNew = initial.id === 0;
  const [originalScope] = useState(initial.scope);
  const [createHome, setCreateHome] = useState(isNew && createUserDir);
  const [user, setUser] = useState<User>(() => (isNew && createUserDir ? { ...initial, scope: '' } : initial));
  const [confirm, setConfirm] = useState<'save' | 'delete' | null>(null);

  const onCreateHome = (on: boolean) => {
    setCreateHome(on);
    setUser((u) => ({ ...u, scope: on ? '' : originalScope }));
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setConfirm('save');
  };

  return (
    <>
      <form className="settings-card" onSubmit={onSubmit} data-testid="user-form" autoComplete="off">
        <div className="settings-card__head">
          <h2 className="settings-card__title">{isNew ? t('users.newTitle') : t('users.editTitle', { username: initial.username })}</h2>
        </div>
        <UserFields user={user} onChange={setUser} mode={isNew ? 'new' : 'edit'} createHome={createHome} onCreateHome={onCreateHome} globalTrash={globalTrash} globalVersions={globalVersions} />
        <div className="settings-card__actions">
          {!isNew && (
            <button type="button" className="btn settings-btn--danger-outline" onClick={() => setConfirm('delete')} data-testid="user-delete">
              <ExtraIcon name="trash" />
              <span>{t('users.delete')}</span>
            </button>
          )}
          <button type="submit" className="btn btn--primary" data-testid="user-save">{t('settings.save')}</button>
        </div>
      </form>
      {confirm === 'save' && (
        <ConfirmDialog
          title={t(isNew ? 'users.confirmCreateTitle' : 'users.confirmSaveTitle')}
          message={t(isNew ? 'users.confirmCreate' : 'users.confirmSave', { username: user.username })}
          confirmLabel={t('settings.save')}
          askPassword
          onCancel={() => setConfirm(null)}
          onConfirm={async (current) => {
            if (await saveUser(user, { createUserDir: createHome, current })) {
              setConfirm(null);
              setUser((u) => ({ ...u, password: '' }));
            }
          }}
        />
      )}
      {confirm === 'delete' && (
        <ConfirmDialog
          title={t('users.deleteTitle')}
          message={t('users.deleteMessage', { username: initial.username })}
          confirmLabel={t('users.delete')}
          danger
          askPassword
          onCancel={() => setConfirm(null)}
          onConfirm={async (current) => {
            if (!(await removeUser(initial.id, current))) return;
          }}
        />
      )}
    </>
  );
}
