import type { UsersStore } from '../../db/users.store';
import { ScopedFs } from '../../fs/scoped-fs';
import { randomPassword } from '../auth/password-policy';
import type { SettingsService } from '../settings/settings.service';
import type { UsersService } from '../users/users.service';

export interface FirstRun {
  /** Set when this call created the first admin. */
  admin?: { username: string; generatedPassword?: string };
}

/**
 * First run: settings are written and, when no user exists, an admin is created: `admin` with a random
 * password (printed once by the caller) unless a username/password were given. Never admin/admin.
 */
export async function ensureInitialised(
  deps: { settings: SettingsService; users: UsersStore; usersService: UsersService; root: string },
  opts: { username?: string; password?: string } = {},
): Promise<FirstRun> {
  ScopedFs.ensureRoot(deps.root);
  if (await deps.settings.isFresh()) await deps.settings.init();
  await deps.settings.ensureSigningKey();
  if ((await deps.users.count()) > 0) return {};
  const username = opts.username || 'admin';
  const given = opts.password;
  const isHash = !!given && /^\$2[aby]\$\d\d\$/.test(given);
  const password = given || randomPassword();
  await deps.usersService.create(
    { username, password, scope: '/', perm: { admin: true, execute: true, create: true, rename: true, modify: true, delete: true, share: true, download: true }, lockPassword: false },
    { passwordIsHash: isHash },
  );
  return { admin: { username, generatedPassword: given ? undefined : password } };
}
