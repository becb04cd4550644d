import type { LoginMethod } from '../../contract/accounts';
import type { TokenUser } from '../../contract/user';
import { AppError, forbidden, invalid, unauthorized } from '../../core/errors';
import type { SessionRow, SessionsStore } from '../../db/sessions.store';
import type { StoredUser } from '../../contract/user';
import type { UsersStore } from '../../db/users.store';
import type { SettingsService } from '../settings/settings.service';
import type { UsersService } from '../users/users.service';
import { MAX_PASSWORD_BYTES, randomPassword, verifyPassword } from './password-policy';
import { KNOWN_ADDRESS_MS, LIMITED_NOTE_MS, loginKeys, signupLimits } from './limits';
import type { RateLimiter, Reservation } from './rate-limiter';
import { anonymous, triedName, type AuditService } from '../audit/audit.service';
import { checkUsername, MAX_USERNAME_BYTES } from '../users/user-validation';
import type { Actor } from '../actor';

/** The oldest sessions of a user beyond this many end when a new one starts. */
export const MAX_SESSIONS_PER_USER = 50;

/** Where and how a session starts: kept on its row for the sessions page. */
export interface SessionMeta {
  method: LoginMethod;
  address: string;
  /** A short description of the client (see device.ts deviceOf). */
  device: string;
}

/** Claims of a login token besides iat/exp. The session id makes the token revocable. */
export interface TokenClaims {
  user: TokenUser;
  sid: string;
}

export interface AuthDeps {
  users: UsersStore;
  sessions: SessionsStore;
  settings: SettingsService;
  usersService: UsersService;
  /** Shared attempt counters (see limits.ts for the scheme). */
  limits: RateLimiter;
  tokenLifetimeMs: number;
  /** Logins (and their failures), logouts and ended sessions are recorded here. */
  audit?: AuditService;
  /**
   * The directory's part of a password login (services/sso/ldap-login.ts LdapLogin): the user when LDAP knows the
   * name and the password is right, null to let the local account decide; throws 403/503 itself.
   */
  directory?: { tryPassword(name: string, password: string, address: string, local: StoredUser | null): Promise<StoredUser | null> };
  /** How long a renewed token still works, and still renews to the same successor (concurrent renews). */
  renewGraceMs?: number;
  now?: () => number;
}

export function tokenUser(u: StoredUser): TokenUser {
  return {
    id: u.id, username: u.username, locale: u.locale, viewMode: u.viewMode, singleClick: u.singleClick,
    redirectAfterCopyMove: u.redirectAfterCopyMove, perm: u.perm, commands: u.commands, lockPassword: u.lockPassword,
    hideDotfiles: u.hideDotfiles, dateFormat: u.dateFormat, aceEditorTheme: u.aceEditorTheme, sorting: u.sorting, theme: u.theme,
  };
}

/** Sessions kept in memory at most (the oldest read goes first). */
const LIVE_SESSIONS_KEPT = 10_000;

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

/**
 * The cap on what an anonymous visitor sends as credentials, applied before anything is written, counted or
 * hashed: a username longer than any stored one can be (MAX_USERNAME_BYTES) or a password longer than any that can
 * be set (MAX_PASSWORD_BYTES) is a 400 with no row, no audit entry and no bcrypt. Non-text values count as empty.
 */
export function cappedCredentials(username: unknown, password: unknown): { name: string; password: string } {
  const name = typeof username === 'string' ? username : '';
  const pw = typeof password === 'string' ? password : '';
  // Length first: a string this long cannot be under the cap in bytes, and is not measured further.
  if (name.length > MAX_USERNAME_BYTES || Buffer.byteLength(name) > MAX_USERNAME_BYTES) throw invalid(`username is too long (${MAX_USERNAME_BYTES} bytes at most)`);
  if (pw.length > MAX_PASSWORD_BYTES || Buffer.byteLength(pw) > MAX_PASSWORD_BYTES) throw invalid(`password is too long (${MAX_PASSWORD_BYTES} bytes at most)`);
  return { name: name.trim(), password: pw };
}

function newSessionId(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url');
}

/** Logins, signups and server-side sessions. Token signing stays in the HTTP layer (@elysiajs/jwt). */
export class AuthService {
  private readonly now: () => number;
  /** Sessions read lately, with the change mark read before them (authenticate()). */
  private readonly live = new Map<string, { mark: string; user: StoredUser; expiresAt: number }>();
  /** Users returned by an LDAP login (each login's own object, so membership is per login). */
  private readonly fromDirectory = new WeakSet<StoredUser>();

  constructor(private readonly d: AuthDeps) {
    this.now = d.now ?? Date.now;
  }

  /**
   * Takes this attempt's slots BEFORE any comparison (concurrent attempts are each counted): per address (first:
   * an address over its limit makes no per-name row), per address and username, and the global per-username
   * backoff unless this address has logged in as the user.
   */
  private async reserve(address: string, name: string): Promise<Reservation> {
    const limits = [loginKeys.address(address), loginKeys.addressUser(address, name)];
    if (!(await this.d.limits.remembers(loginKeys.known(address, name)))) limits.push(loginKeys.user(name));
    return this.d.limits.reserve(limits, 'too many failed logins, try again later');
  }

  /**
   * Password login (json method). Wrong credentials are a 403 whether the user exists or not, and take the
   * same bcrypt time either way. Attempts are counted before the comparison (see `reserve`); a success gives
   * its slots back and clears the counters for this username.
   */
  async loginWithPassword(username: unknown, password: unknown, address: string): Promise<StoredUser> {
    const { name, password: pw } = cappedCredentials(username, password); // oversized: 400, nothing written
    // Failures are recorded under the name that was tried, escaped and cut (triedName; never the password);
    // rate-limited ones as one 'limited' entry per address a minute (the first refused name).
    const slot = await this.reserve(address, name).catch(async (e) => {
      if (this.d.audit && e instanceof AppError && e.code === 'RATE_LIMITED' && (await this.d.limits.firstIn(loginKeys.limitedNote(address), LIMITED_NOTE_MS)))
        await this.d.audit.record(anonymous(address), 'login', triedName(name), {}, 'limited');
      throw e;
    });
    const user = name ? await this.d.users.byUsername(name) : null;
    const fromDirectory = await this.askDirectory(name, pw, address, user);
    if (fromDirectory) {
      await slot.succeeded([loginKeys.addressUser(address, name).key, loginKeys.user(name).key]);
      await this.d.limits.remember(loginKeys.known(address, name), KNOWN_ADDRESS_MS);
      return fromDirectory; // audited by the directory login
    }
    if (!this.d.settings.get().localLogin) {
      // Local passwords are off (settings.localLogin): only directory and SSO logins; the CLI always works.
      await verifyPassword(pw, null); // the same time as a wrong password
      await this.d.audit?.record(anonymous(address), 'login', triedName(name), { known: !!user, reason: 'local login off' }, 'failed');
      throw forbidden('sign-in with a local password is turned off');
    }
    const ok = await verifyPassword(pw, user?.password ?? null);
    if (!user || !ok) {
      await this.d.audit?.record(anonymous(address), 'login', triedName(name), { known: !!user }, 'failed');
      throw forbidden(); // the reserved slots stay taken: this failure counts
    }
    await slot.succeeded([loginKeys.addressUser(address, name).key, loginKeys.user(name).key]);
    await this.d.limits.remember(loginKeys.known(address, name), KNOWN_ADDRESS_MS);
    await this.d.audit?.record({ userId: user.id, userName: user.username, address }, 'login', user.username, { method: 'json' });
    return user;
  }

  /**
   * LDAP first (when on): a failure there (wrong password, disabled, unreachable) costs the same bcrypt time as a
   * local failure, so timing does not tell which kind of account a name is. The reserved slots stay taken.
   */
  private async askDirectory(name: string, pw: string, address: string, local: StoredUser | null): Promise<StoredUser | null> {
    if (!this.d.directory) return null;
    try {
      const user = await this.d.directory.tryPassword(name, pw, address, local);
      if (user) this.fromDirectory.add(user);
      return user;
    } catch (e) {
      await verifyPassword(pw, null);
      throw e;
    }
  }

  /** How a user returned by loginWithPassword signed in: 'ldap' when the directory vouched for them (the session's method). */
  methodOf(user: StoredUser): LoginMethod {
    return this.fromDirectory.has(user) ? 'ldap' : 'password';
  }

  /** noauth: every visitor is user 1. */
  async loginNoAuth(): Promise<StoredUser> {
    const u = (await this.d.users.byId(1)) ?? (await this.d.users.all()).find((x) => x.perm.admin);
    if (!u) throw new AppError('INTERNAL', 'noauth needs an existing user');
    return u;
  }

  /**
   * proxy: the trusted proxy names the user in a header. Unknown users are created with a random, locked
   * password and never admin or execute. The caller must only pass a header that came from a trusted proxy.
   */
  async loginProxy(headerValue: string | null, address = 'local'): Promise<StoredUser> {
    const name = headerValue?.trim();
    if (!name) throw forbidden();
    const existing = await this.d.users.byUsername(name);
    if (existing) {
      await this.d.audit?.record({ userId: existing.id, userName: existing.username, address }, 'login', existing.username, { method: 'proxy' });
      return existing;
    }
    await this.d.usersService.create(
      { username: name, password: randomPassword(), lockPassword: true },
      { forceNonAdmin: true, passwordIsHash: false, by: anonymous(address), via: 'proxy' },
    ).catch((e) => {
      if (e instanceof AppError && e.code === 'EXISTS') return; // created concurrently
      throw e;
    });
    const made = (await this.d.users.byUsername(name))!;
    await this.d.audit?.record({ userId: made.id, userName: made.username, address }, 'login', made.username, { method: 'proxy' });
    return made;
  }

  /** Signup (when enabled): defaults, never admin or execute, home folder when createUserDir is on. */
  /**
   * Signup (when enabled): defaults, never admin or execute, home folder when createUserDir is on. The name and
   * password are checked for size and characters before anything is written; then one slot of the per-address
   * signup limit is taken, and given back when the account is not made (a taken name, a weak password).
   */
  async signup(username: unknown, password: unknown, address = 'local'): Promise<void> {
    if (!this.d.settings.get().signup) throw new AppError('METHOD_NOT_ALLOWED', 'signup is disabled');
    cappedCredentials(username, password);
    checkUsername(username);
    const slot = await this.d.limits.reserve(signupLimits(address), 'too many accounts made from this address, try again later');
    // Everything else (scope included) comes from the defaults template, applied by UsersService.create.
    await this.d.usersService.create({ username, password }, { forceNonAdmin: true, by: anonymous(address), via: 'signup' }).catch(async (e) => {
      await slot.succeeded(); // nothing was made: the slot goes back
      throw e;
    });
  }

  /** Starts a session; the token built from it lives as long as the session row. */
  async startSession(user: StoredUser, meta: SessionMeta): Promise<{ sid: string; createdAt: number; expiresAt: number }> {
    const now = this.now();
    const sid = newSessionId();
    const expiresAt = now + this.d.tokenLifetimeMs;
    await this.d.sessions.deleteExpired(now);
    await this.d.sessions.create({ id: sid, userId: user.id, createdAt: now, expiresAt, method: meta.method, address: meta.address.slice(0, 64), device: meta.device.slice(0, 128) });
    await this.d.sessions.trimForUser(user.id, MAX_SESSIONS_PER_USER);
    return { sid, createdAt: now, expiresAt };
  }

  /**
   * Replaces a session by a fresh one. Clients renew once per response that asks them to, so several renews of
   * one token arrive together: within the grace window each gets the same successor, and the predecessor still
   * works for requests already in flight. After the window, or once anything revokes the family (logout, a
   * password, permission, scope or rules change, deletion), the predecessor is refused.
   */
  async renewSession(user: StoredUser, oldSid: string): Promise<{ sid: string; createdAt: number; expiresAt: number }> {
    const now = this.now();
    const next = { id: newSessionId(), userId: user.id, createdAt: now, expiresAt: now + this.d.tokenLifetimeMs };
    const got = await this.d.sessions.renew(oldSid, next, now + (this.d.renewGraceMs ?? 10_000));
    if (!got || got.userId !== user.id) throw unauthorized();
    return { sid: got.id, createdAt: got.createdAt, expiresAt: got.expiresAt };
  }

  /** Resolves a verified token's claims to the current user; revoked sessions and deleted users are 401. */
  async authenticate(claims: { sid?: unknown; user?: { id?: unknown } }): Promise<StoredUser> {
    if (typeof claims.sid !== 'string' || typeof claims.user?.id !== 'number') throw unauthorized();
    const sid = claims.sid;
    const userId = claims.user.id;
    const now = this.now();
    // Revocation (the row deleted) and user changes apply at once: the session row and its user are trusted from
    // memory only while the database's change mark, read first, shows no commit since they were read (any commit,
    // by this process, the CLI or another connection, drops the trust). Without a mark (PostgreSQL) every request
    // reads them.
    const mark = this.d.users.changeMarkNow() ?? (await this.d.users.changeMark());
    const hit = mark === null ? undefined : this.live.get(sid);
    if (hit && hit.mark === mark && hit.user.id === userId && hit.expiresAt >= now) return hit.user;
    const row = await this.d.users.bySession(sid, userId, now);
    if (!row) {
      this.live.delete(sid);
      throw unauthorized();
    }
    const user = deepFreeze(row.user); // shared by the requests that follow: nobody may change it in place
    if (mark !== null) {
      if (this.live.size >= LIVE_SESSIONS_KEPT) this.live.delete(this.live.keys().next().value!);
      this.live.set(sid, { mark, user, expiresAt: row.expiresAt });
    }
    return user;
  }

  /**
   * Ends the session with its whole renewal family (T1 -> T2 -> T3: any of them ends all three). Other processes
   * and instances see the rows gone at their next request (authenticate reads past any commit); this one also
   * forgets them at once.
   */
  async logout(sid: string, actor?: Actor): Promise<void> {
    for (const id of await this.d.sessions.deleteFamily(sid)) this.live.delete(id);
    this.live.delete(sid);
    if (actor?.user) await this.d.audit?.record(actor, 'logout', actor.user.username);
  }

  /** Open sessions (not expired), optionally of one user, for `sessions ls`. */
  async sessions(userId?: number): Promise<SessionRow[]> {
    return this.d.sessions.list(this.now(), userId);
  }

  /**
   * Ends every session of one user, or of everyone (`userId` undefined): they must log in again. Recorded in the
   * audit log with the count. Returns how many ended.
   */
  async endSessions(actor: Actor, userId?: number): Promise<number> {
    const n = userId === undefined ? await this.d.sessions.deleteAll() : await this.d.sessions.deleteForUser(userId);
    const target = userId === undefined ? '*' : ((await this.d.users.byId(userId))?.username ?? String(userId));
    await this.d.audit?.record(actor, 'sessions.end', target, { count: n });
    return n;
  }
}
