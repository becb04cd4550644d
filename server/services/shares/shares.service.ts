import { timingSafeEqual } from 'node:crypto';
import { MAX_SHARE_DURATION, type Share } from '../../contract/share';
import type { Rule } from '../../contract/user';
import { AppError, forbidden, invalid, notFound, unauthorized } from '../../core/errors';
import type { ShareRow, SharesStore } from '../../db/shares.store';
import type { StoredUser } from '../../contract/user';
import type { UsersStore } from '../../db/users.store';
import { ScopedFs } from '../../fs/scoped-fs';
import { identityOf } from '../../fs/file-identity';
import { inTrash } from '../../fs/trash-fs';
import { baseName } from '../../fs/virtual-path';
import { actorFor, type Actor } from '../actor';
import { authorizePath } from '../policy/file-policy';
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

/** A resolved public share: the share, and an actor confined to the shared item with the owner's rules. */
export interface PublicShare {
  share: ShareRow;
  actor: Actor;
  /** The shared item is a folder (a file share exposes that one file whatever the subpath). */
  isDir: boolean;
  /** Virtual path inside the share the request asked for ("/" = the shared item itself). */
  path: string;
  /** For a file share: the owner's actor and the file's path in the owner's scope (the only thing exposed). */
  file?: { owner: Actor; path: string };
}

/**
 * Share links: creation, listing, deletion, and the public side. Every public access re-checks that the owner
 * still exists and may share and download, that the item is still inside the owner's scope and allowed by the
 * owner's rules, and confines the visitor to the shared item (a file share never reaches its siblings).
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

  /** Admins see every share with its owner's name; others see their own. The CLI (no user) sees all. */
  async list(actor: Actor, userId?: number): Promise<Share[]> {
    if (actor.user) authorizePath(actor, 'share');
    const names = await this.names();
    const rows = !actor.user || actor.can('admin') ? (userId === undefined ? await this.d.store.all() : await this.d.store.byUser(userId)) : await this.d.store.byUser(actor.user.id);
    const out: Share[] = [];
    for (const r of (await this.live(rows)).sort((a, b) => a.userId - b.userId || a.expire - b.expire)) {
      const pinned = await this.resolve(r).catch(() => null); // links that no longer reach anything end here
      if (pinned) out.push(publicShare(pinned.row, names.get(r.userId) ?? ''));
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
    await this.d.store.delete(hash);
    await this.d.audit?.record(actor, 'share.delete', hash, { path: row.path });
  }

  /**
   * Opens a share for an anonymous visitor. Order: unknown/expired (404), password (401; attempts limited per
   * share and per address), owner still allowed (403), item still in the owner's scope and rules (403/404).
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
    const { owner: ownerActor, row: pinned, isDir } = await this.resolve(row);
    await this.d.audit?.shareUsed(hash, creds.address); // at most one row per link and address a minute
    const owner = ownerActor.user!;
    // A folder share is a scope of its own: symlinks inside may not leave it. Rules stay the owner's, on the
    // owner's real paths. A file share exposes exactly that file.
    const base = pinned.path;
    const inOwner = (p: string) => (p === '/' ? base : base === '/' ? p : base + p);
    const shareFs = isDir ? new ScopedFs(ownerActor.fs.root + (base === '/' ? '' : base), this.d.followExternalSymlinks, (p) => ownerActor.allows(inOwner(p))) : null;
    const actor: Actor = {
      user: { ...owner, sorting: { by: 'name', asc: false } },
      can: (perm) => perm === 'download',
      allows: (p) => ownerActor.allows(inOwner(p)),
      rulesAllow: (p) => ownerActor.rulesAllow(inOwner(p)),
      hasRules: ownerActor.hasRules,
      beneath: (p) => {
        const b = ownerActor.beneath(inOwner(p));
        return { ...b, paths: b.paths.map((q) => (base === '/' ? q : q.slice(base.length))) };
      },
      get fs() {
        if (!shareFs) throw forbidden();
        return shareFs;
      },
    };
    return isDir ? { share: pinned, actor, isDir, path: subpath } : { share: pinned, actor, isDir, path: '/', file: { owner: ownerActor, path: pinned.path } };
  }

  /**
   * Where a link leads now, decided from what it pinned: the owner must still exist and may share (share and
   * download); the pinned real location must still be inside the owner's CURRENT scope (a narrowed scope ends
   * the link, a widened one cannot make it reach more), must still hold the same item (identity), and must be
   * allowed by the owner's rules. A link that fails any of these is ended (deleted) and answers 404, except a
   * permission or rule refusal (403), which a later change may lift. Links made before pinning are pinned here.
   */
  private async resolve(row: ShareRow): Promise<{ owner: Actor; row: ShareRow; isDir: boolean }> {
    const owner = await this.d.users.byId(row.userId);
    if (!owner) throw notFound();
    const ownerActor = actorFor(owner, { root: this.d.root, globalRules: this.d.globalRules(), followExternalSymlinks: this.d.followExternalSymlinks });
    authorizePath(ownerActor, 'share');
    const end = async (): Promise<never> => {
      await this.d.store.delete(row.hash);
      throw notFound();
    };
    let scopeFs: ScopedFs;
    try {
      scopeFs = ownerActor.fs;
    } catch {
      return end(); // the owner's scope folder is gone
    }
    if (!row.target) {
      const { real, stats } = await scopeFs.stat(row.path).catch(() => end());
      const pinned = { ...row, target: real, targetId: identityOf(stats) };
      await this.d.store.pin(row.hash, row.path, pinned.target, pinned.targetId);
      authorizePath(ownerActor, 'read', row.path);
      return { owner: ownerActor, row: pinned, isDir: stats.isDirectory() };
    }
    // A trashed item's links wait in the trash with it: 404 now, working again when it is restored.
    if (inTrash(row.target)) throw notFound();
    const path = scopeFs.virtualOf(row.target);
    if (path === null) return end();
    const found = await scopeFs.stat(path).catch(() => null);
    // The path must still lead to the pinned location itself (no link swapped in) and hold the same item.
    if (!found || found.real !== row.target || identityOf(found.stats) !== row.targetId) return end();
    authorizePath(ownerActor, 'read', path);
    if (path !== row.path) await this.d.store.pin(row.hash, path, row.target, row.targetId);
    return { owner: ownerActor, row: { ...row, path }, isDir: found.stats.isDirectory() };
  }

  /** After an owner's scope changed: every link the new scope no longer reaches ends now, not at its next use. */
  async revokeUnreachable(userId: number): Promise<void> {
    for (const r of await this.d.store.byUser(userId)) await this.resolve(r).catch(() => {});
  }

  /** The display name of a share root (the shared item's own name). */
  rootName(row: ShareRow): string {
    return baseName(row.path);
  }
}
