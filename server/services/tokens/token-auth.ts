import type { StoredUser } from '../../contract/user';
import { AppError, forbidden, unauthorized } from '../../core/errors';
import type { ApiTokenRow, ApiTokensStore } from '../../db/api-tokens.store';
import type { UsersStore } from '../../db/users.store';
import { anonymous, type AuditService } from '../audit/audit.service';
import { LIMITED_NOTE_MS, tokenKeys } from '../auth/limits';
import type { RateLimiter } from '../auth/rate-limiter';
import type { TokenLimits } from '../policy/token-limits';
import { looksLikeApiToken, parseToken, secretMatches } from './token-secret';

/** last_used_at is written at most this often per token (and process). */
const TOUCH_EVERY_MS = 60_000;
/** Verified tokens kept in memory at most (the oldest goes first). */
const KEPT = 10_000;

export interface TokenAuthDeps {
  store: ApiTokensStore;
  users: UsersStore;
  limits: RateLimiter;
  audit?: AuditService;
  /** The account password check (AuthService.loginWithPassword): for basicCredentials only. */
  passwordLogin?(username: string, password: string, address: string): Promise<StoredUser>;
  /** Whether a user has a second factor (FactorsService.hasSecondFactor). */
  hasSecondFactor?(userId: number): Promise<boolean>;
  twoFactorRequired?(): boolean;
  now?: () => number;
}

/** Who a token speaks for: its owner as stored now, with the token's limits (for actorFor). */
export interface TokenIdentity {
  user: StoredUser;
  limits: TokenLimits;
}

const limitsOf = (r: ApiTokenRow): TokenLimits => ({ tokenId: r.id, perm: r.perm, path: r.path, readOnly: r.readOnly });

/**
 * Checks API tokens presented with requests. A token text verified once is remembered with the database's change
 * mark (as AuthService.authenticate does for sessions): while no commit happened since, the row and its owner are
 * trusted from memory; after any commit they are read again (a revoked token or a deleted owner is refused at
 * once). A text never verified is counted per address BEFORE it is hashed, so guessing is rate-limited.
 */
export class TokenAuth {
  private readonly now: () => number;
  private readonly live = new Map<string, { mark: string | null; hash: string; row: ApiTokenRow; user: StoredUser }>();
  private readonly touched = new Map<string, number>();

  constructor(private readonly d: TokenAuthDeps) {
    this.now = d.now ?? Date.now;
  }

  async authenticate(text: string, address: string): Promise<TokenIdentity> {
    const mark = this.d.store.changeMarkNow() ?? (await this.d.store.changeMark());
    const now = this.now();
    const hit = this.live.get(text);
    if (hit && mark !== null && hit.mark === mark) {
      if (!alive(hit.row, now)) return this.forget(text);
      return this.used(hit.row, hit.user, now);
    }
    if (hit) {
      // Verified before: its secret matches the stored hash it had then; only whether that row still stands is asked.
      const row = await this.d.store.get(hit.row.id);
      const user = row && row.secretHash === hit.hash && alive(row, now) ? await this.d.users.byId(row.userId) : null;
      if (!row || !user) return this.forget(text);
      this.keep(text, { mark, hash: row.secretHash, row, user });
      return this.used(row, user, now);
    }
    return this.firstUse(text, address, mark, now);
  }

  /** A text this process has not verified: one slot of the address's limit first, then lookup and hash. */
  private async firstUse(text: string, address: string, mark: string | null, now: number): Promise<TokenIdentity> {
    const slot = await this.d.limits.reserve([tokenKeys.address(address)], 'too many failed token attempts, try again later').catch(async (e) => {
      if (e instanceof AppError && e.code === 'RATE_LIMITED') await this.note(address, 'limited');
      throw e;
    });
    const parts = parseToken(text);
    const row = parts ? await this.d.store.get(parts.id) : null;
    const ok = !!row && secretMatches(parts!.secret, row.secretHash) && alive(row, now);
    const user = ok ? await this.d.users.byId(row.userId) : null;
    if (!row || !user) {
      await this.note(address, 'failed');
      throw unauthorized(); // the slot stays taken: this attempt counts
    }
    await slot.succeeded();
    this.keep(text, { mark, hash: row.secretHash, row, user });
    return this.used(row, user, now);
  }

  /**
   * HTTP Basic credentials (WebDAV, issue 36, calls this): an API token as the password (the username is ignored
   * when empty, otherwise it must be the owner's), or the account password, refused for a user with a second
   * factor (a script must use a token where a second step cannot be shown).
   */
  async basicCredentials(username: string, secret: string, address: string): Promise<{ user: StoredUser; limits?: TokenLimits }> {
    if (looksLikeApiToken(secret)) {
      const id = await this.authenticate(secret, address);
      if (username && username.toLowerCase() !== id.user.username.toLowerCase()) throw unauthorized();
      return id;
    }
    if (!this.d.passwordLogin) throw unauthorized();
    const user = await this.d.passwordLogin(username, secret, address);
    if (this.d.twoFactorRequired?.() || (await this.d.hasSecondFactor?.(user.id))) throw forbidden('this account has a second factor: use an API token');
    return { user };
  }

  /** Forgets what this process remembers of a token (its revocation through this process). */
  drop(id: string): void {
    for (const [text, v] of this.live) if (v.row.id === id) this.live.delete(text);
  }

  private forget(text: string): never {
    this.live.delete(text);
    throw unauthorized();
  }

  private keep(text: string, v: { mark: string | null; hash: string; row: ApiTokenRow; user: StoredUser }): void {
    if (!this.live.has(text) && this.live.size >= KEPT) this.live.delete(this.live.keys().next().value!);
    this.live.set(text, v);
  }

  /** Records the use at most once a minute per token (no write per request). */
  private async used(row: ApiTokenRow, user: StoredUser, now: number): Promise<TokenIdentity> {
    const last = this.touched.get(row.id) ?? row.lastUsedAt ?? 0;
    if (now - last >= TOUCH_EVERY_MS) {
      if (this.touched.size >= KEPT) this.touched.delete(this.touched.keys().next().value!);
      this.touched.set(row.id, now);
      await this.d.store.touch(row.id, now);
    }
    return { user, limits: limitsOf(row) };
  }

  /** One audit entry per address a minute for failed and refused attempts (never the token text). */
  private async note(address: string, outcome: 'failed' | 'limited'): Promise<void> {
    if (this.d.audit && (await this.d.limits.firstIn(tokenKeys.note(address), LIMITED_NOTE_MS))) await this.d.audit.record(anonymous(address), 'token.auth', '', {}, outcome);
  }
}

const alive = (r: ApiTokenRow, now: number) => r.expiresAt === null || r.expiresAt > now;
