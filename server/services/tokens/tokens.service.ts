import type { ApiTokenCreated, ApiTokenInfo } from '../../contract/accounts';
import type { StoredUser } from '../../contract/user';
import { AppError, exists, forbidden, invalid, notFound } from '../../core/errors';
import type { ApiTokenRow, ApiTokensStore } from '../../db/api-tokens.store';
import type { UsersStore } from '../../db/users.store';
import type { Actor } from '../actor';
import type { AuditService } from '../audit/audit.service';
import { authorizePath } from '../policy/file-policy';
import { parseTokenRequest, TOKENS_PER_USER } from './token-request';
import { hashSecret, newTokenParts } from './token-secret';

export interface TokensDeps {
  store: ApiTokensStore;
  users: UsersStore;
  /** The owner as an actor without any token limits (the same actorFor as requests): to check a token's folder. */
  ownerActor(user: StoredUser): Actor;
  audit?: AuditService;
  now?: () => number;
}

export function tokenInfo(r: ApiTokenRow): ApiTokenInfo {
  return { id: r.id, name: r.name, createdAt: r.createdAt, expiresAt: r.expiresAt, lastUsedAt: r.lastUsedAt, perm: [...r.perm], path: r.path, readOnly: r.readOnly };
}

/**
 * Personal API tokens: made by their owner (or the CLI for a named user), listed without secrets, revoked by the
 * owner or an admin. Using one is token-auth.ts; what one may do is the file policy's (policy/token-limits.ts).
 */
export class TokensService {
  private readonly now: () => number;

  constructor(private readonly d: TokensDeps) {
    this.now = d.now ?? Date.now;
  }

  /** Refuses a request that came with a token: tokens never manage tokens, sessions or factors. */
  static sessionOnly(actor: Actor): void {
    if (actor.limits) throw forbidden('not with an API token');
  }

  /**
   * Makes a token for `owner`; `by` is who asked (the owner, or the CLI). The permissions must be the owner's
   * now; the folder must exist in their scope, be a folder and pass their rules. The secret is returned once.
   */
  async create(by: Actor, owner: StoredUser, body: Record<string, unknown>): Promise<ApiTokenCreated> {
    TokensService.sessionOnly(by);
    const req = parseTokenRequest(body);
    const as = this.d.ownerActor(owner);
    const missing = req.perm.filter((p) => !as.can(p));
    if (missing.length) throw forbidden(`the owner does not have: ${missing.join(', ')}`);
    if (req.path !== null) {
      authorizePath(as, 'read', req.path);
      const st = await as.fs.stat(req.path).catch((e) => {
        throw e instanceof AppError && e.code === 'NOT_FOUND' ? invalid(`no folder ${req.path}`) : e;
      });
      if (!st.stats.isDirectory()) throw invalid(`${req.path} is not a folder`);
    }
    if ((await this.d.store.countForUser(owner.id)) >= TOKENS_PER_USER) throw invalid(`at most ${TOKENS_PER_USER} tokens per user`);
    if (await this.d.store.nameTaken(owner.id, req.name)) throw exists(`a token named "${req.name}" exists`);
    const { id, secret, text } = newTokenParts();
    const now = this.now();
    const row: ApiTokenRow = {
      id, userId: owner.id, name: req.name, secretHash: hashSecret(secret), perm: req.perm, path: req.path, readOnly: req.readOnly,
      createdAt: now, expiresAt: req.lifetimeMs === null ? null : now + req.lifetimeMs, lastUsedAt: null,
    };
    await this.d.store.insert(row).catch((e) => {
      // The unique (user, name) index settles two concurrent creations with one name.
      if (e instanceof Error && /unique|duplicate/i.test(e.message)) throw exists(`a token named "${req.name}" exists`);
      throw e;
    });
    await this.d.audit?.record(by, 'token.create', `${owner.username}/${req.name}`, { id, perm: req.perm, path: req.path, readOnly: req.readOnly, expiresAt: row.expiresAt });
    return { ...tokenInfo(row), token: text };
  }

  /** A user's tokens: their own (not with a token), or anyone's for an admin and the CLI. */
  async list(by: Actor, userId: number): Promise<ApiTokenInfo[]> {
    this.mayManage(by, userId);
    return (await this.d.store.byUser(userId)).map(tokenInfo);
  }

  /** Revokes a token of `userId` (the owner, an admin or the CLI): it stops working at the next request. */
  async revoke(by: Actor, userId: number, id: string): Promise<void> {
    this.mayManage(by, userId);
    const row = await this.d.store.get(id);
    if (!row || row.userId !== userId) throw notFound('no such token');
    await this.d.store.delete(id);
    const owner = await this.d.users.byId(userId);
    await this.d.audit?.record(by, 'token.delete', `${owner?.username ?? userId}/${row.name}`, { id });
  }

  /** A token by id, for the CLI's `tokens rm <id>` (which names no user). */
  async ownerOf(id: string): Promise<number> {
    const row = await this.d.store.get(id);
    if (!row) throw notFound('no such token');
    return row.userId;
  }

  private mayManage(by: Actor, userId: number): void {
    TokensService.sessionOnly(by);
    if (by.user && by.user.id !== userId && !by.can('admin')) throw forbidden();
  }
}
