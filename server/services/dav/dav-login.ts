import { createHash } from 'node:crypto';
import type { StoredUser } from '../../contract/user';
import type { WebdavSettings } from '../../contract/dav';
import { AppError, forbidden, notFound, unauthorized } from '../../core/errors';
import type { UsersStore } from '../../db/users.store';
import { looksLikeApiToken } from '../tokens/token-secret';
import type { TokenAuth } from '../tokens/token-auth';
import type { TokenLimits } from '../policy/token-limits';

/** How long a verified account password is trusted for the same user and password. */
const REMEMBER_MS = 60_000;
/** Remembered passwords at most (the oldest goes first). */
const KEPT = 2_000;

export interface DavLoginDeps {
  tokenAuth: TokenAuth;
  users: UsersStore;
  settings: () => WebdavSettings;
  hasSecondFactor: (userId: number) => Promise<boolean>;
  twoFactorRequired: () => boolean;
  now?: () => number;
}

/**
 * Who HTTP Basic credentials on `/dav/` name (docs/decisions/0050-webdav.md), through TokenAuth.basicCredentials (the
 * token check and its rate limit, or the account password through the login's rate limits and audit). A WebDAV
 * client sends the password with every request: a verified one is remembered for a minute per (user, password
 * digest), so a burst costs one bcrypt. It is trusted only while the user row is unchanged (same updatedAt and
 * password hash: any change to the user forgets it) and the user still has no second factor.
 */
export class DavLogin {
  private readonly remembered = new Map<string, { userId: number; updatedAt: number; hash: string; at: number }>();
  private readonly now: () => number;

  constructor(private readonly d: DavLoginDeps) {
    this.now = d.now ?? Date.now;
  }

  async signIn(username: string, secret: string, address: string): Promise<{ user: StoredUser; limits?: TokenLimits }> {
    const settings = this.d.settings();
    if (!settings.enabled) throw notFound();
    if (!secret) throw unauthorized();
    const token = looksLikeApiToken(secret);
    if (!token && !settings.allowPasswords) throw unauthorized();
    const found = token ? await this.d.tokenAuth.basicCredentials(username, secret, address) : ((await this.fromMemory(username, secret)) ?? (await this.verify(username, secret, address)));
    if (found.user.webdav === false) throw forbidden('WebDAV is off for this account');
    return found;
  }

  private keyOf(username: string, secret: string): string {
    return `${username.toLowerCase()}\n${createHash('sha256').update(secret).digest('base64')}`;
  }

  private async fromMemory(username: string, secret: string): Promise<{ user: StoredUser } | null> {
    const key = this.keyOf(username, secret);
    const hit = this.remembered.get(key);
    if (!hit) return null;
    const user = this.now() - hit.at < REMEMBER_MS ? await this.d.users.byId(hit.userId) : null;
    if (!user || user.updatedAt !== hit.updatedAt || user.password !== hit.hash || this.d.twoFactorRequired() || (await this.d.hasSecondFactor(user.id))) {
      this.remembered.delete(key);
      return null;
    }
    return { user };
  }

  private async verify(username: string, secret: string, address: string): Promise<{ user: StoredUser; limits?: TokenLimits }> {
    // Wrong credentials are a 403 for the login form; a WebDAV client needs the 401 challenge to ask again.
    const found = await this.d.tokenAuth.basicCredentials(username, secret, address).catch((e) => {
      throw e instanceof AppError && e.code === 'FORBIDDEN' && !e.detail ? unauthorized() : e;
    });
    const key = this.keyOf(username, secret);
    if (!this.remembered.has(key) && this.remembered.size >= KEPT) this.remembered.delete(this.remembered.keys().next().value!);
    this.remembered.set(key, { userId: found.user.id, updatedAt: found.user.updatedAt, hash: found.user.password, at: this.now() });
    return found;
  }
}
