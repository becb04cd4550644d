import { proxy } from 'valtio/vanilla';
import type { TrashSettings } from '../../server/contract/trash';
import type { User } from '../../server/contract/user';
import type { VersionSettings } from '../../server/contract/versions';
import { isApiError } from '../api/client';
import { getSettings } from '../api/settings';
import * as api from '../api/users';
import { auth, renewToken } from './auth.state';
import { goTo } from './navigation';
import { notifyError, notifySuccess } from './settings.state';

export interface LoadError {
  status: number;
  message: string;
}

const toLoadError = (e: unknown): LoadError =>
  isApiError(e) ? { status: e.status, message: e.message } : { status: 500, message: String(e) };

interface UsersState {
  list: User[] | null;
  error: LoadError | null;
  /** The user being edited (id 0 = a new one), with whether home folders are created by default. */
  editing: User | null;
  createUserDir: boolean;
  /** The global trash settings, under a user's own trash override in the form. */
  globalTrash: TrashSettings | null;
  /** The global version settings, under a user's own versions override in the form. */
  globalVersions: VersionSettings | null;
  editError: LoadError | null;
}

export const usersState = proxy<UsersState>({ list: null, error: null, editing: null, createUserDir: false, globalTrash: null, globalVersions: null, editError: null });

/** Loads the user table (admin). */
export async function loadUsers(): Promise<void> {
  usersState.error = null;
  try {
    usersState.list = await api.listUsers();
  } catch (e) {
    usersState.list = null;
    usersState.error = toLoadError(e);
  }
}

/** Loads a user for the form; id 0 starts a new user from the defaults in the global settings. */
export async function loadUserForm(id: number): Promise<void> {
  usersState.editing = null;
  usersState.editError = null;
  try {
    const settings = await getSettings();
    usersState.createUserDir = settings.createUserDir;
    usersState.globalTrash = settings.trash;
    usersState.globalVersions = settings.versions ?? null;
    if (id === 0) {
      usersState.editing = { ...structuredClone(settings.defaults), id: 0, username: '', password: '', rules: [] };
    } else {
      usersState.editing = await api.getUser(id);
    }
  } catch (e) {
    usersState.editError = toLoadError(e);
  }
}

/**
 * Saves the form: a new user is created (with `createUserDir` asking the server for a home folder when the scope is
 * blank), an existing one is replaced as a whole (a blank password keeps the current one). `current` is the admin's
 * own password. Returns whether it worked; errors are shown as notices.
 */
export async function saveUser(withUsage: User, opts: { createUserDir: boolean; current: string }): Promise<boolean> {
  // `usage` comes with the user from admin reads and is the server's to compute: it is never sent back.
  const { usage: _usage, ...user } = withUsage as User & { usage?: unknown };
  try {
    if (user.id === 0) {
      const { id: _id, ...data } = user;
      const id = await api.createUser({ ...data, createUserDir: opts.createUserDir }, opts.current);
      notifySuccess('userCreated');
      goTo(id ? `/settings/users/${id}` : '/settings/users', true);
    } else {
      await api.updateUser(user.id, ['all'], user, opts.current);
      notifySuccess('userUpdated');
      if (auth.user?.id === user.id) await renewToken(); // the token's user object must follow
      usersState.editing = await api.getUser(user.id);
    }
    return true;
  } catch (e) {
    notifyError(e);
    return false;
  }
}

/** Deletes a user, then shows the table. */
export async function removeUser(id: number, current: string): Promise<boolean> {
  try {
    await api.deleteUser(id, current);
  } catch (e) {
    notifyError(e);
    return false;
  }
  notifySuccess('userDeleted');
  goTo('/settings/users');
  return true;
}
