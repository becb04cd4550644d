import { timingSafeEqual } from 'node:crypto';
import type { Share, ShareAccess, ShareMode } from '../../contract/share';
import type { Rule } from '../../contract/user';
import { exists, forbidden, invalid, notFound, unauthorized } from '../../core/errors';
import type { ShareRow, SharesStore, ShareSettingsRow } from '../../db/shares.store';
import { NO_SETTINGS } from '../../db/shares.store';
import { ShareAccessStore } from '../../db/share-access.store';
import { NotificationsStore } from '../../db/notifications.store';
import type { UsersStore } from '../../db/users.store';
import { baseName } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import { inReach, authorizePath } from '../policy/file-policy';
import { hashPassword, verifyPassword } from '../auth/password-policy';
import { shareLimits } from '../auth/limits';
import type { RateLimiter } from '../auth/rate-limiter';
import type { AuditService } from '../audit/audit.service';
import { pinTarget, reachOf, type Reach } from './share-reach';
import { visitorActor, type PublicShare } from './share-visitor';

export type { PublicShare } from './share-visitor';
export { pinTarget, type Pinned } from './share-reach';
import { checkChange, MAX_PASSWORD_BYTES, settingsOf, v2Fields } from './share-settings';
import { maybeSlug } from './share-slugs';
import { freshHash, randomText, slugSafe } from './share-hashes';
import { downloadStarting, visitedLink, type VisitorInfo } from './share-visits';
import type { ShareAccessLog, Visit } from './share-access-log';
import type { NotificationsService } from './notifications.service';

export { MAX_SHARE_DURATION } from '../../contract/share';
/** Shares as their owners see them: never the password hash or the token (only hasPassword). */
export function publicShare(r: ShareRow, username?: string): Share {
  const v2 = v2Fields(r);
  return {
    hash: r.hash, path: r.path, userID: r.userId, expire: r.expire, hasPassword: r.passwordHash !== '', ...(username !== undefined ? { username } : {}),
    ...v2, webhookSecret: v2.webhookUrl ? settingsOf(r).webhookSecret : '',
  };
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
  /** The access log of links (shares v2). */
  accessLog: ShareAccessLog;
  notifications?: NotificationsService;
}



/**
 * Share links: creation, listing, changes, deletion, and the public side. Every public access re-checks that the
 * owner still exists and may share and download, that the item is still inside the owner's scope and allowed by
 * the owner's rules, and confines the visitor to the shared item (a file share never reaches its siblings).
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
      if (r.expire !== 0 && r.expire <= now) await this.drop(r.hash); // expired shares go when they are next read
      else out.push(r);
    }
    return out;
  }

  private async drop(hash: string): Promise<void> {
    await this.d.store.delete(hash);
    await this.d.accessLog.forget(hash);
  }

  private async names(): Promise<Map<number, string>> {
    return new Map((await this.d.users.all()).map((u) => [u.id, u.username]));
  }

  /** A link by its hash or, failing that, its slug (case-folded); null when neither. */
  private async find(name: string): Promise<ShareRow | null> {
    if (!name) return null;
    return (await this.d.store.byHash(name)) ?? (maybeSlug(name) ? await this.d.store.bySlug(name.toLowerCase()) : null);
  }

  /** Whether a link of this hash or slug exists (the owner routes' path form may also name a file). */
  async exists(name: string): Promise<boolean> {
    return !!(await this.find(name));
  }

  /** A live link the actor may manage: its owner or an admin (the CLI: any), inside an API token's folder. */
  private async owned(actor: Actor, name: string): Promise<ShareRow> {
    const row = await this.find(name);
    if (!row || !(await this.live([row])).length) throw notFound(`no share "${name}"`);
    if (actor.user) authorizePath(actor, 'share');
    if (actor.user && !actor.can('admin') && row.userId !== actor.user.id) throw forbidden();
    if (!inReach(actor, row.path)) throw forbidden();
    return row;
  }

  /**
   * Admins see every share with its owner's name; others see their own. The CLI (no user) sees all. Every live
   * link is listed, with its state: one that serves nothing now (`missing`, `trashed`, `unreachable`, `disabled`,
   * `exhausted`) is kept.
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
   * permanent, at most 2147483647) counts `unit`s: seconds, minutes, hours (default) or days. The shares v2 fields
   * of a ShareChange may come beside them (mode, slug, limits, webhook).
   */
  async create(actor: Actor, path: string, body: Record<string, unknown>): Promise<Share> {
    if (!actor.user) throw forbidden();
    authorizePath(actor, 'share', path);
    // The link pins what it shares: its real location and identity (404 when missing, 403 when a link leaves the scope).
    const pinned = await pinTarget(actor, path);
    const now = Math.floor(Date.now() / 1000);
    const c = checkChange({ ...body, expires: body.expires ?? '' }, now);
    const password = c.password ?? '';
    const v2: ShareSettingsRow = { ...NO_SETTINGS, ...c.settings };
    if (v2.mode !== 'view' && !pinned.isDir) throw invalid('upload modes are for folder links only');
    if (v2.webhookUrl) v2.webhookSecret = randomText(24);
    const hash = await freshHash(this.d.store);
    if (v2.slug && (await this.d.store.nameTaken(v2.slug, hash))) throw exists('that slug is taken');
    const row: ShareRow = {
      hash, path, userId: actor.user.id, expire: c.expire ?? 0,
      passwordHash: password ? await hashPassword(password) : '',
      token: password ? randomText(96) : '',
      target: pinned.target, targetId: pinned.targetId, v2,
    };
    await slugSafe(() => this.d.store.insert(row));
    await this.d.audit?.record(actor, 'share.create', row.hash, { path, owner: actor.user.username, expire: row.expire, password: !!password, mode: v2.mode, ...(v2.slug ? { slug: v2.slug } : {}) });
    return publicShare(row);
  }

  /**
   * Changes a link's lifetime or password (`shares update`, kept for the CLI's scripts): `expiresIn` seconds from
   * now (0 = permanent); `password` a new one, or null to remove it. The same as `change` with those fields.
   */
  async update(actor: Actor, hash: string, change: { expiresIn?: number; password?: string | null } & Record<string, unknown>): Promise<Share> {
    const { expiresIn, ...rest } = change;
    if (expiresIn !== undefined && (!Number.isInteger(expiresIn) || expiresIn < 0 || expiresIn > 2147483647)) throw invalid('expires must be from 0 to 2147483647 seconds');
    const body = { ...rest, ...(expiresIn !== undefined ? { expires: expiresIn, unit: 'seconds' } : {}) };
    for (const k of Object.keys(body)) if (body[k as keyof typeof body] === undefined) delete body[k as keyof typeof body];
    return this.change(actor, hash, body);
  }

  /**
   * PATCH /api/share/:hash: applies a ShareChange (decision 0051). The URL stays; a new password ends what the old
   * one unlocked; a slug must be free among slugs and hashes. Its owner or an admin only.
   */
  async change(actor: Actor, name: string, body: Record<string, unknown>): Promise<Share> {
    const row = await this.owned(actor, name);
    if (!Object.keys(body).length) throw invalid('nothing to change');
    const c = checkChange(body, Math.floor(Date.now() / 1000));
    const next: ShareRow = { ...row, v2: { ...settingsOf(row), ...c.settings } };
    const v = next.v2!;
    if (c.expire !== undefined) next.expire = c.expire;
    if (c.password !== undefined) {
      next.passwordHash = c.password ? await hashPassword(c.password) : '';
      next.token = c.password ? randomText(96) : ''; // a new password ends what the old one unlocked
    }
    if (v.mode !== 'view' && c.settings.mode !== undefined) {
      const reach = await this.reach(row);
      if (reach.state === 'ok' && !reach.isDir) throw invalid('upload modes are for folder links only');
    }
    if (c.slugGiven && v.slug && v.slug !== settingsOf(row).slug && (await this.d.store.nameTaken(v.slug, row.hash))) throw exists('that slug is taken');
    if (v.webhookUrl && !v.webhookSecret) v.webhookSecret = randomText(24);
    if (!v.webhookUrl) v.webhookSecret = '';
    await slugSafe(() => this.d.store.saveChange(next)); // one statement: a refused slug changes nothing else
    const changed = Object.keys(body).filter((k) => k !== 'password' && k !== 'unit');
    await this.d.audit?.record(actor, 'share.update', row.hash, { path: row.path, changed, ...(c.expire !== undefined ? { expire: next.expire } : {}), ...(c.password !== undefined ? { password: !!c.password } : {}) });
    return publicShare(next);
  }

  /** A new random hash for a link: every old URL (the hash and the slug, which is cleared) stops working. */
  async regenerate(actor: Actor, name: string): Promise<Share> {
    const row = await this.owned(actor, name);
    const hash = await freshHash(this.d.store);
    // One transaction: the link, its log lines and its owner's notifications follow together or not at all.
    await this.d.store.transaction(async (shares, tx) => {
      if (!(await shares.rehash(row.hash, hash))) throw notFound();
      await new ShareAccessStore(tx).rehash(row.hash, hash);
      await new NotificationsStore(tx).rehash(row.hash, hash);
    });
    await this.d.audit?.record(actor, 'share.update', hash, { path: row.path, regenerated: true, from: row.hash });
    return publicShare({ ...row, hash, v2: { ...settingsOf(row), slug: '' } });
  }

  /** GET /api/share/:hash/log: the link's access log, newest first. */
  async log(actor: Actor, name: string, q: { limit?: string | null; before?: string | null }): Promise<ShareAccess[]> {
    const row = await this.owned(actor, name);
    const num = (v: string | null | undefined, what: string, dflt: number, max: number) => {
      if (v === undefined || v === null || v === '') return dflt;
      if (!/^\d{1,15}$/.test(v) || Number(v) < 1 || Number(v) > max) throw invalid(`${what} must be a whole number from 1 to ${max}`);
      return Number(v);
    };
    return this.d.accessLog.list(row.hash, num(q.limit, 'limit', 100, 500), q.before ? num(q.before, 'before', 0, Number.MAX_SAFE_INTEGER) : undefined);
  }

  /** Deletes a share: its owner or an admin only (404 unknown, 403 someone else's). */
  async remove(actor: Actor, hash: string): Promise<void> {
    if (!hash) throw invalid('no share given');
    const row = await this.find(hash);
    if (!row) throw notFound(`no share "${hash}"`);
    if (actor.user) authorizePath(actor, 'share');
    if (actor.user && !actor.can('admin') && row.userId !== actor.user.id) throw forbidden();
    if (!inReach(actor, row.path)) throw forbidden();
    await this.drop(row.hash);
    await this.d.audit?.record(actor, 'share.delete', row.hash, { path: row.path });
  }

  /**
   * Opens a share for an anonymous visitor: THE decision of who may reach a public share and what. Order:
   * unknown (hash or slug) or expired (404), disabled (403), download limit reached (404), password (401; attempts
   * limited per share and per address), owner still allowed (403), item still in the owner's scope and rules
   * (403/404). Returns the visitor's actor, whose permissions are the link's mode's, and path (see PublicShare).
   */
  async open(name: string, subpath: string, creds: { password: string | null; token: string | null; address: string }): Promise<PublicShare> {
    const row = await this.find(name);
    if (!row || !(await this.live([row])).length) throw notFound();
    const hash = row.hash;
    const v = settingsOf(row);
    if (v.disabled) throw forbidden('this link is disabled');
    if (v.maxDownloads && v.downloads >= v.maxDownloads) throw notFound();
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
        ok = Buffer.byteLength(pw) <= MAX_PASSWORD_BYTES && (await verifyPassword(pw, row.passwordHash));
      }
      if (!ok) {
        if (creds.password) await this.d.accessLog.add(hash, 'password-failed', subpath, { address: creds.address, agent: null }).catch(() => {});
        throw unauthorized(); // the reserved slots stay taken: this failure counts
      }
      await slot?.succeeded();
    }
    const reach = await this.reach(row);
    if (reach.state !== 'ok') throw reach.error;
    const { owner, row: pinned, isDir } = reach;
    await this.d.audit?.shareUsed(hash, creds.address); // at most one row per link and address a minute
    const mode = (isDir ? v.mode : 'view') as ShareMode;
    const actor = visitorActor(owner, pinned, isDir, mode, this.d.followExternalSymlinks);
    return isDir
      ? { share: pinned, actor, isDir, path: subpath, shown: subpath, selectable: true, mode }
      : { share: pinned, actor, isDir, path: pinned.path, shown: '/', selectable: false, mode };
  }

  /** Where a link leads now (share-reach.ts), with its stopping states: disabled and exhausted come first. */
  private async reach(row: ShareRow): Promise<Reach> {
    const v = settingsOf(row);
    if (v.disabled) return { state: 'disabled', error: forbidden('this link is disabled') };
    if (v.maxDownloads && v.downloads >= v.maxDownloads) return { state: 'exhausted', error: notFound() };
    return reachOf(this.d, row);
  }

  /** A visitor opened the link's page or a listing (share-visits.ts). */
  visited(ps: PublicShare, visit: Visit): Promise<VisitorInfo> {
    return visitedLink(this.d.store, this.d.accessLog, ps, visit);
  }

  /** A download through the link is about to start (share-visits.ts): counted, or 404 past its limit. */
  downloading(ps: PublicShare, range: string | null, inline: boolean, visit: Visit): Promise<void> {
    return downloadStarting(this.d.store, this.d.accessLog, ps, range, inline, visit);
  }

  /** The display name of a share root (the shared item's own name). */
  rootName(row: ShareRow): string {
    return baseName(row.path);
  }
}
