import { timingSafeEqual } from 'node:crypto';
import { MAX_SHARE_DURATION, type Share, type ShareState } from '../../contract/share';
import type { PermName, Rule, StoredUser } from '../../contract/user';
import { AppError, forbidden, invalid, notFound, unauthorized } from '../../core/errors';
import type { ShareRow, SharesStore } from '../../db/shares.store';
import type { UsersStore } from '../../db/users.store';
import { ScopedFs } from '../../fs/scoped-fs';
import { folderScopeRules } from '../rules/folder-scope';
import { identityOf } from '../../fs/file-identity';
import { inTrash } from '../../fs/trash-fs';
import { baseName } from '../../fs/virtual-path';
import { actorFor, type Actor } from '../actor';
import { inReach, authorizePath } from '../policy/file-policy';
import { hashPassword, verifyPassword } from '../auth/password-policy';
import { shareLimits } from '../auth/limits';
import type { RateLimiter } from '../auth/rate-limiter';
import type { AuditService } from '../audit/audit.service';

export { MAX_SHARE_DURATION } from '../../contract/share';
const UNITS: Record<string, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86400 };
const randomText = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url');
/**
 * A share's hash: 12 URL-safe characters (72 random bits) that never start with "-", so that `filedeck shares
 * update <hash>` and other verbs do not take it for an option (one in 64 did).
 */
function newHash(): string {
  for (;;) {
    const h = randomText(9);
    if (!h.startsWith('-')) return h;
  }
}

/** Shares as clients may see them: never the password hash or the token (only hasPassword). */
export function publicShare(r: ShareRow, username?: string): Share {
  return { hash: r.hash, path: r.path, userID: r.userId, expire: r.expire, hasPassword: r.passwordHash !== '', ...(username !== undefined ? { username } : {}) };
}

/** Constant-time comparison of two secrets of any length (both are hashed first). */
function sameSecret(a: string, b: string): boolean {
  const h = (s: string) => new Bun.CryptoHasher('sha256').update(s).digest();
  return timingSafeEqual(h(a), h(b));
}

export interface SharesDeps {
  store: SharesStore;
  users: UsersStore;
  root: string;
  followExternalSymlinks: boolean;
  globalRules: () => Rule[];
  /** Shared attempt counters (see auth/limits.ts for the scheme). */
  limits: RateLimiter;
  /** Links made, changed, used (throttled) and deleted are recorded here. */
  audit?: AuditService;
}

/**
 * What an anonymous visitor of a link may reach, decided here and nowhere else: the shared item, through an actor
 * that may only download (and read what a download needs), with the owner's rules on the owner's real paths. A
 * folder link is a scope of its own (nothing above the shared folder, not even through a symlink); a file link is
 * that one file, whatever path or selection is asked. The HTTP layer hands `actor` and `path` to the file services
 * as they are; the file policy (`authorizePath`) then decides each access against this actor.
 */
export interface PublicShare {
  share: ShareRow;
  actor: Actor;
  /** The shared item is a folder. */
  isDir: boolean;
  /** The path, for `actor`, that the request reaches: the asked path in a folder link, the file in a file link. */
  path: string;
  /** The path the visitor is shown: the asked path in a folder link, "/" in a file link. */
  shown: string;
  /** A folder link honours a selection of names (`files=`); a file link is that one file. */
  selectable: boolean;
}

/** Where a link leads now (`reach`): the owner and the pinned row, or why it serves nothing at the moment. */
type Reach =
  | { state: 'ok'; owner: Actor; row: ShareRow; isDir: boolean }
  | { state: Exclude<ShareState, 'ok'>; error: AppError };

const stopped = (state: Exclude<ShareState, 'ok'>, error: AppError = notFound()): Reach => ({ state, error });
const asAppError = (e: unknown): AppError => (e instanceof AppError ? e : notFound());

/**
 * Share links: creation, listing, deletion, and the public side. Every public access re-checks that the owner
 * still exists and may share and download, that the item is still inside the owner's scope and allowed by the
 * owner's rules, and confines the visitor to the shared item (a file share never reaches its siblings).
 *
 * Nothing here deletes a link because its item is missing or a check fails: a disk not mounted yet, a CLI run
 * with another root, a narrowed scope or a new rule would otherwise destroy links people were sent. Such a link
 * answers 404/403 and is listed with its `state`; it ends when the server itself deletes its item (FilesService
 * `removed`), when its owner or an admin deletes it, when its owner is deleted, or when it expires.
 */
export class SharesService {
  constructor(private readonly d: SharesDeps) {}

  private async live(rows: ShareRow[]): Promise<ShareRow[]> {
    const now = Math.floor(Date.now() / 1000);
    const out: ShareRow[] = [];
    for (const r of rows) {
      if (r.expire !== 0 && r.expire <= now) await this.d.store.delete(r.hash); // expired shares go when they are next read
      else out.push(r);
    }
    return out;
  }

  private async names(): Promise<Map<number, string>> {
    return new Map((await this.d.users.all()).map((u) => [u.id, u.username]));
  }

  /**
   * Admins see every share with its owner's name; others see their own. The CLI (no user) sees all. Every live
   * link is listed, with its state: one that serves nothing now (`missing`, `trashed`, `unreachable`) is kept.
   */
  async list(actor: Actor, userId?: number): Promise<Share[]> {
    if (actor.user) authorizePath(actor, 'share');
    const names = await this.names();
    const rows = !actor.user || actor.can('admin') ? (userId === undefined ? await this.d.store.all() : await this.d.store.byUser(userId)) : await this.d.store.byUser(actor.user.id);
    const out: Share[] = [];
    // With an API token limited to a folder, links to elsewhere are not its own (policy/file-policy.ts inReach).
    for (const r of (await this.live(rows)).filter((x) => inReach(actor, x.path)).sort((a, b) => a.userId - b.userId || a.expire - b.expire)) {
      const reach = await this.reach(r);
      out.push({ ...publicShare(reach.state === 'ok' ? reach.row : r, names.get(r.userId) ?? ''), state: reach.state });
    }
    return out;
  }

  /** Shares of one item: the actor's own; for admins also other users' links to the same item on disk. */
  async forPath(actor: Actor, path: string): Promise<Share[]> {
    if (!actor.user) return [];
    authorizePath(actor, 'share', path);
    const { real } = await actor.fs.stat(path);
    const names = await this.names();
    const mine = (await this.live(await this.d.store.byTarget(real))).filter((r) => r.userId === actor.user!.id || actor.can('admin'));
    return mine.map((r) => publicShare(r, actor.can('admin') ? names.get(r.userId) ?? '' : undefined));
  }

  /**
   * Creates a link to an existing item the actor may see. `expires` (number or numeric text; empty or 0 =
   * permanent, at most 2147483647) counts `unit`s: seconds, minutes, hours (default) or days.
   */
  async create(actor: Actor, path: string, body: { password?: unknown; expires?: unknown; unit?: unknown }): Promise<Share> {
    if (!actor.user) throw forbidden();
    authorizePath(actor, 'share', path);
    // The link pins what it shares: its real location and identity (404 when missing, 403 when a link leaves the scope).
    const { real, stats } = await actor.fs.stat(path);
    const unitName = body.unit === undefined || body.unit === '' || body.unit === null ? 'hours' : String(body.unit);
    const unit = UNITS[unitName];
    if (!unit) throw invalid('unit must be seconds, minutes, hours or days');
    const raw = body.expires === undefined || body.expires === null ? '' : String(body.expires).trim();
    if (raw !== '' && !/^\d+$/.test(raw)) throw invalid('expires must be a whole number');
    const n = raw === '' ? 0 : Number(raw);
    if (n > MAX_SHARE_DURATION) throw invalid(`expires must be at most ${MAX_SHARE_DURATION}`);
    if (body.password !== undefined && body.password !== null && typeof body.password !== 'string') throw invalid('password must be text');
    const password = (body.password as string | undefined) ?? '';
    if (Buffer.byteLength(password) > 256) throw invalid('password is too long');
    const row: ShareRow = {
      hash: newHash(),
      path,
      userId: actor.user.id,
      expire: n === 0 ? 0 : Math.floor(Date.now() / 1000) + n * unit,
      passwordHash: password ? await hashPassword(password) : '',
      token: password ? randomText(96) : '',
      target: real,
      targetId: identityOf(stats),
    };
    await this.d.store.insert(row);
    await this.d.audit?.record(actor, 'share.create', row.hash, { path, owner: actor.user.username, expire: row.expire, password: !!password });
    return publicShare(row);
  }

  /**
   * Changes a link's lifetime or password (`shares update`): `expiresIn` seconds from now (0 = permanent);
   * `password` a new one, or null to remove it. Its owner or an admin only; the same checks as `create`.
   */
  async update(actor: Actor, hash: string, change: { expiresIn?: number; password?: string | null }): Promise<Share> {
    const row = await this.d.store.byHash(hash);
    if (!row || !(await this.live([row])).length) throw notFound(`no share "${hash}"`);
    if (actor.user) authorizePath(actor, 'share');
    if (actor.user && !actor.can('admin') && row.userId !== actor.user.id) throw forbidden();
    if (!inReach(actor, row.path)) throw forbidden();
    if (change.expiresIn === undefined && change.password === undefined) throw invalid('nothing to change: give an expiry or a password');
    const next = { ...row };
    if (change.expiresIn !== undefined) {
      if (!Number.isInteger(change.expiresIn) || change.expiresIn < 0 || change.expiresIn > MAX_SHARE_DURATION) throw invalid(`expires must be from 0 to ${MAX_SHARE_DURATION} seconds`);
      next.expire = change.expiresIn === 0 ? 0 : Math.floor(Date.now() / 1000) + change.expiresIn;
    }
    if (change.password !== undefined) {
      const pw = change.password ?? '';
      if (Buffer.byteLength(pw) > 256) throw invalid('password is too long');
      next.passwordHash = pw ? await hashPassword(pw) : '';
      next.token = pw ? randomText(96) : ''; // a new password ends what the old one unlocked
    }
    await this.d.store.update(next);
    await this.d.audit?.record(actor, 'share.update', hash, { path: row.path, ...(change.expiresIn !== undefined ? { expire: next.expire } : {}), ...(change.password !== undefined ? { password: !!change.password } : {}) });
    return publicShare(next);
  }

  /** Deletes a share: its owner or an admin only (404 unknown, 403 someone else's). */
  async remove(actor: Actor, hash: string): Promise<void> {
    if (!hash) throw invalid('no share given');
    const row = await this.d.store.byHash(hash);
    if (!row) throw notFound(`no share "${hash}"`);
    if (actor.user) authorizePath(actor, 'share');
    if (actor.user && !actor.can('admin') && row.userId !== actor.user.id) throw forbidden();
    if (!inReach(actor, row.path)) throw forbidden();
    await this.d.store.delete(hash);
    await this.d.audit?.record(actor, 'share.delete', hash, { path: row.path });
  }

  /**
   * Opens a share for an anonymous visitor: THE decision of who may reach a public share and what. Order:
   * unknown/expired (404), password (401; attempts limited per share and per address), owner still allowed (403),
   * item still in the owner's scope and rules (403/404). Returns the visitor's actor and path (see PublicShare).
   */
  async open(hash: string, subpath: string, creds: { password: string | null; token: string | null; address: string }): Promise<PublicShare> {
    const row = await this.d.store.byHash(hash);
    if (!row || !(await this.live([row])).length) throw notFound();
    if (row.passwordHash) {
      // A given password or token takes its slots BEFORE the comparison, so concurrent guesses are each counted.
      const slot = creds.password || creds.token ? await this.d.limits.reserve(shareLimits(hash, creds.address), 'too many wrong passwords, try again later') : null;
      let ok = !!creds.token && sameSecret(creds.token, row.token);
      if (!ok && creds.password) {
        let pw = creds.password;
        try {
          pw = decodeURIComponent(pw);
        } catch {
          // a raw, unencoded password is accepted as it is
        }
        ok = await verifyPassword(pw, row.passwordHash);
      }
      if (!ok) throw unauthorized(); // the reserved slots stay taken: this failure counts
      await slot?.succeeded();
    }
    const reach = await this.reach(row);
    if (reach.state !== 'ok') throw reach.error;
    const { owner: ownerActor, row: pinned, isDir } = reach;
    await this.d.audit?.shareUsed(hash, creds.address); // at most one row per link and address a minute
    const visitor: StoredUser = { ...ownerActor.user!, sorting: { by: 'name', asc: false } };
    const downloadOnly = (perm: PermName) => perm === 'download';
    if (!isDir) {
      // A file link: the owner's scope, but no path other than the shared file passes the policy.
      const file = pinned.path;
      const actor: Actor = {
        user: visitor,
        can: downloadOnly,
        allows: (p) => p === file && ownerActor.allows(p),
        rulesAllow: (p) => p === file && ownerActor.rulesAllow(p),
        hasRules: true,
        beneath: (p) => ownerActor.beneath(p),
        get fs() {
          return ownerActor.fs;
        },
      };
      return { share: pinned, actor, isDir, path: file, shown: '/', selectable: false };
    }
    // A folder link is a scope of its own: symlinks inside may not leave it. Rules stay the owner's, on the
    // owner's real paths.
    const base = pinned.path;
    // The owner's rules at the folder's path and, when it is reached through a link, where it really is (rules/folder-scope.ts).
    const rules = folderScopeRules(ownerActor, base, pinned.target ? ownerActor.fs.realPathOf(base, pinned.target) : undefined);
    const shareFs = new ScopedFs(ownerActor.fs.root + (base === '/' ? '' : base), this.d.followExternalSymlinks, rules.allows);
    const actor: Actor = {
      user: visitor,
      can: downloadOnly,
      ...rules,
      hasRules: ownerActor.hasRules,
      fs: shareFs,
    };
    return { share: pinned, actor, isDir, path: subpath, shown: subpath, selectable: true };
  }

  /**
   * Where a link leads now, decided from what it pinned: the owner must still exist and may share (share and
   * download); the pinned real location must still be inside the owner's CURRENT scope (a narrowed scope stops
   * the link, a widened one cannot make it reach more), must still hold the same item (identity: another item
   * at that path is never served), and must be allowed by the owner's rules. A link that fails a check is NOT
   * ended: it answers 404 (403 for a permission or rule refusal) with the state it is in, and serves again once
   * the check passes (the disk mounted, the scope or rule changed back, the item restored). Links made before
   * pinning are pinned here, when their item is found.
   */
  private async reach(row: ShareRow): Promise<Reach> {
    const owner = await this.d.users.byId(row.userId);
    if (!owner) return stopped('unreachable');
    const ownerActor = actorFor(owner, { root: this.d.root, globalRules: this.d.globalRules(), followExternalSymlinks: this.d.followExternalSymlinks });
    try {
      authorizePath(ownerActor, 'share');
    } catch (e) {
      return stopped('unreachable', asAppError(e));
    }
    let scopeFs: ScopedFs;
    try {
      scopeFs = ownerActor.fs;
    } catch {
      return stopped('missing'); // the owner's scope folder is not there (a disk not mounted?)
    }
    if (!row.target) {
      const found = await scopeFs.stat(row.path).catch((e: unknown) => asAppError(e));
      if (found instanceof AppError) return stopped(found.code === 'FORBIDDEN' ? 'unreachable' : 'missing', found);
      const pinned = { ...row, target: found.real, targetId: identityOf(found.stats) };
      await this.d.store.pin(row.hash, row.path, pinned.target, pinned.targetId);
      return this.readable(ownerActor, pinned, found.stats.isDirectory());
    }
    // A trashed item's links wait in the trash with it: 404 now, working again when it is restored.
    if (inTrash(row.target)) return stopped('trashed');
    const path = scopeFs.virtualOf(row.target);
    if (path === null) return stopped('unreachable'); // outside the owner's current scope
    const found = await scopeFs.stat(path).catch((e: unknown) => asAppError(e));
    if (found instanceof AppError) return stopped(found.code === 'FORBIDDEN' ? 'unreachable' : 'missing', found.code === 'FORBIDDEN' ? found : notFound());
    // The path must still lead to the pinned location itself (no link swapped in) and hold the same item.
    if (found.real !== row.target || identityOf(found.stats) !== row.targetId) return stopped('missing');
    if (path !== row.path) await this.d.store.pin(row.hash, path, row.target, row.targetId);
    return this.readable(ownerActor, { ...row, path }, found.stats.isDirectory());
  }

  /** The owner's rules on the shared item's path (403, the link kept: a later change may lift it). */
  private readable(owner: Actor, row: ShareRow, isDir: boolean): Reach {
    try {
      authorizePath(owner, 'read', row.path);
    } catch (e) {
      return stopped('unreachable', asAppError(e));
    }
    return { state: 'ok', owner, row, isDir };
  }

  /** The display name of a share root (the shared item's own name). */
  rootName(row: ShareRow): string {
    return baseName(row.path);
  }
}
