import { createHash } from 'node:crypto';
import type { LoginMethod, SessionInfo } from '../../contract/accounts';
import { forbidden, notFound } from '../../core/errors';
import type { SessionRow, SessionsStore } from '../../db/sessions.store';
import type { UsersStore } from '../../db/users.store';
import type { Actor } from '../actor';
import type { AuditService } from '../audit/audit.service';
import type { AuthService } from '../auth/auth.service';
import { TokensService } from './tokens.service';

/** last_seen_at is written at most this often per session (and process). */
const SEEN_EVERY_MS = 60_000;
const SEEN_KEPT = 10_000;

export interface AccountSessionsDeps {
  sessions: SessionsStore;
  users: UsersStore;
  auth: AuthService;
  audit?: AuditService;
  now?: () => number;
}

/** The id a session is shown under: a short hash of its secret id, which never leaves the server. */
export const publicSessionId = (sid: string): string => createHash('sha256').update(sid).digest('base64url').slice(0, 16);

/**
 * The sessions page (issue 34): a user's open sessions with where and how they started and when last seen, ending
 * one or all but the current; admins do the same for anyone. Renewed predecessors are not shown: a renewal chain
 * is one session (ending it ends the whole chain, SessionsStore.deleteFamily).
 */
export class AccountSessions {
  private readonly now: () => number;
  private readonly seenAt = new Map<string, number>();

  constructor(private readonly d: AccountSessionsDeps) {
    this.now = d.now ?? Date.now;
  }

  /** A user's sessions; `current` marks the caller's own (its renewal chain). */
  async list(by: Actor, userId: number): Promise<SessionInfo[]> {
    this.mayManage(by, userId);
    const family = await this.familyOf(by);
    return (await this.d.auth.sessions(userId)).map((r) => info(r, family));
  }

  /** Ends one session (by its public id) with its renewal chain; 404 when the user has no such session. */
  async end(by: Actor, userId: number, publicId: string): Promise<void> {
    this.mayManage(by, userId);
    const row = (await this.d.auth.sessions(userId)).find((r) => publicSessionId(r.id) === publicId);
    if (!row) throw notFound('no such session');
    await this.d.auth.logout(row.id);
    await this.d.audit?.record(by, 'sessions.end', await this.nameOf(userId), { session: publicId, count: 1 });
  }

  /** Ends every session of the caller but the one this request came with. */
  async endOthers(by: Actor): Promise<number> {
    TokensService.sessionOnly(by);
    if (!by.user || !by.sessionId) throw forbidden();
    const family = (await this.familyOf(by)) ?? by.sessionId;
    const ended = await this.d.sessions.deleteForUserExceptFamily(by.user.id, family);
    await this.d.audit?.record(by, 'sessions.end', by.user.username, { count: ended.length, others: true });
    return ended.length;
  }

  /** Ends every session of a user (admins; audited by AuthService.endSessions). */
  async endAll(by: Actor, userId: number): Promise<number> {
    this.mayManage(by, userId);
    if (!(await this.d.users.byId(userId))) throw notFound('no such user');
    return this.d.auth.endSessions(by, userId);
  }

  /** Notes that a request used a session: written at most once a minute per session, never on every request. */
  seen(sid: string): Promise<void> | undefined {
    const now = this.now();
    const last = this.seenAt.get(sid);
    if (last !== undefined && now - last < SEEN_EVERY_MS) return undefined; // most requests: no promise, no write
    if (last === undefined && this.seenAt.size >= SEEN_KEPT) this.seenAt.delete(this.seenAt.keys().next().value!);
    this.seenAt.set(sid, now);
    return this.d.sessions.touch(sid, now);
  }

  private async familyOf(by: Actor): Promise<string | null> {
    if (!by.sessionId) return null;
    const row = await this.d.sessions.get(by.sessionId);
    return row ? (row.family ?? row.id) : null;
  }

  private async nameOf(userId: number): Promise<string> {
    return (await this.d.users.byId(userId))?.username ?? String(userId);
  }

  private mayManage(by: Actor, userId: number): void {
    TokensService.sessionOnly(by);
    if (by.user && by.user.id !== userId && !by.can('admin')) throw forbidden();
  }
}

function info(r: SessionRow, family: string | null): SessionInfo {
  return {
    id: publicSessionId(r.id),
    method: (r.method ?? 'password') as LoginMethod,
    createdAt: r.createdAt,
    lastSeenAt: Math.max(r.lastSeenAt ?? 0, r.createdAt),
    expiresAt: r.expiresAt,
    address: r.address ?? '',
    device: r.device ?? '',
    current: family !== null && (r.family ?? r.id) === family,
  };
}
