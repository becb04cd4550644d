import { randomUUID } from 'node:crypto';
import { AppError, exists, forbidden, invalid } from '../../core/errors';
import type { Logger } from '../../core/log';
import type { DavLockRow, DavLocksStore } from '../../db/dav-locks.store';
import { decodeOnce, parentOf, toVirtualPath } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import { upload } from '../files/files-write';
import type { FileFollower, FilesService } from '../files/files.service';
import { authorizePath } from '../policy/file-policy';
import { DavConditionError, type ActiveLock, type DavLockGate } from './dav-lock-gate';
import { ifHolds, parseIf, submittedTokens, type IfList } from './dav-locks-if';
import { ancestorKeys, covers, DavLockKeys, viewedRoot } from './dav-locks-keys';

export interface DavLocksDeps {
  store: DavLocksStore;
  files: FilesService;
  /** The files root (locks are keyed relative to it). */
  root: string;
  /** The URL path WebDAV is served under, e.g. '/dav' or '/base/dav': how If header tags map to paths. */
  davPrefix: string;
  log?: Logger;
  /** At most this many live locks per user (a client cannot grow the table without bound). */
  maxPerUser?: number;
}

export type EtagOf = (path: string) => Promise<string | null>;

/** What a LOCK with a body asks for (RFC 4918 §9.10): the HTTP layer parsed the lockinfo and the headers. */
export interface LockRequest {
  path: string;
  depth: '0' | 'infinity';
  scope: 'exclusive' | 'shared';
  /** The owner element's content as XML, or ''. */
  ownerXml: string;
  /** The Timeout header, raw (null: the default). */
  timeout: string | null;
  ifHeader: string | null;
  etagOf: EtagOf;
  /** Whether an unmapped URL is made into an empty file (false for a name the server drops, macOS metadata). */
  create?: boolean;
}

/** The longest and the default lock: an Infinite request gets the longest (RFC 4918 §10.7 lets the server choose). */
export const MAX_TIMEOUT_S = 86_400;
export const DEFAULT_TIMEOUT_S = 600;
/** The owner element a LOCK may carry (it is stored and shown in every lockdiscovery). */
export const MAX_OWNER_XML = 8 * 1024;

/** The Timeout header (`Second-N`, `Infinite`, several comma-separated: the first one understood), capped. */
export function grantedTimeout(header: string | null): number {
  for (const part of (header ?? '').split(',')) {
    const t = part.trim();
    if (/^infinite$/i.test(t)) return MAX_TIMEOUT_S;
    const m = /^second-(\d{1,12})$/i.exec(t);
    if (m) return Math.max(1, Math.min(MAX_TIMEOUT_S, Number(m[1])));
  }
  return DEFAULT_TIMEOUT_S;
}

/**
 * WebDAV locks (RFC 4918 §6, §7, §9.10, §9.11, §10.4) kept in the database (dav_locks), so every instance on one
 * PostgreSQL sees the same locks and a conflicting LOCK is decided in one transaction under one advisory lock. The
 * methods ask it through DavLockGate; LOCK and UNLOCK call `lock`, `refresh` and `unlock`. A lock is a claim to
 * change: taking one needs the modify permission on the path (create, for an unmapped URL), so a user who may only
 * read a file can never block its owner. Only the lock's owner may refresh, remove or submit it.
 */
export class DavLocksService implements DavLockGate {
  /** The clock (tests move it to expire locks). */
  clock: () => number = Date.now;
  /** At most this many live locks per user (tests lower it). */
  maxPerUser: number;
  private readonly keys: DavLockKeys;

  constructor(private readonly d: DavLocksDeps) {
    this.keys = new DavLockKeys(d.root);
    this.maxPerUser = d.maxPerUser ?? 1000;
  }


  /**
   * Told by the files service when something moves, goes into the trash or goes for good, whoever did it: its locks
   * go (a lock is on a place; a restored item comes back unlocked, and a new item at the old name is not locked).
   */
  readonly follower: FileFollower = {
    moved: async (from) => void (await this.d.store.deleteUnder(this.keys.ofReal(from))),
    removed: async (entry) => void (await this.d.store.deleteUnder(this.keys.ofReal(entry))),
    trashed: async (entry) => void (await this.d.store.deleteUnder(this.keys.ofReal(entry))),
  };

  async assertMayChange(actor: Actor, paths: { path: string; depth: '0' | 'infinity' }[], ifHeader: string | null, etagOf: EtagOf): Promise<void> {
    const lists = parseIf(ifHeader);
    if (lists && paths.length && !(await this.holds(actor, lists, requestUri(paths), etagOf))) throw new AppError('PRECONDITION_FAILED', 'the If header does not hold');
    const submitted = submittedTokens(lists);
    const now = this.clock();
    for (const { path, depth } of paths) {
      const key = await this.keys.of(actor, path);
      const locks = [...(await this.covering(key, now)), ...(depth === 'infinity' ? await this.d.store.below(key, now) : [])];
      const mine = locks.filter((l) => submitted.has(l.token) && l.ownerId === actor.user?.id);
      // One submitted lock of the actor's frees what it covers: the one exclusive lock there, or the shared ones.
      const blocked = locks.find((l) => !mine.some((m) => covers(m, l.root)));
      if (blocked) throw new DavConditionError('LOCKED', 'lock-token-submitted', [lockedPath(path, key, blocked.root)], 'the resource is locked');
    }
  }

  async discovery(actor: Actor, path: string): Promise<ActiveLock[]> {
    if (!(await this.anyLive())) return [];
    const key = await this.keys.of(actor, path).catch(() => null);
    if (key === null) return [];
    const now = this.clock();
    return (await this.covering(key, now)).map((l) => this.active(l, viewedRoot(path, key, l.root), now));
  }

  async moved(actor: Actor, from: string): Promise<void> {
    await this.removed(actor, from);
  }

  async removed(actor: Actor, path: string): Promise<void> {
    await this.d.store.deleteUnder(await this.keys.of(actor, path));
  }

  /**
   * LOCK with a lockinfo body: a new lock, or 423 `no-conflicting-lock` when one in the way is exclusive or this one
   * is. An unmapped URL becomes an empty file first (RFC 4918 §7.3), through the upload path every PUT takes.
   */
  async lock(actor: Actor, req: LockRequest): Promise<{ lock: ActiveLock; created: boolean }> {
    const user = actor.user;
    if (!user) throw forbidden();
    if (req.ownerXml.length > MAX_OWNER_XML) throw new AppError('TOO_LARGE', `the lock owner is limited to ${MAX_OWNER_XML} bytes`);
    const existing = await actor.fs.exists(req.path);
    authorizePath(actor, existing ? 'modify' : 'create', req.path);
    const lists = parseIf(req.ifHeader);
    if (lists && !(await this.holds(actor, lists, req.path, req.etagOf))) throw new AppError('PRECONDITION_FAILED', 'the If header does not hold');
    const key = await this.keys.of(actor, req.path);
    await this.conflicts(req.path, key, req, this.clock()); // before an unmapped URL is made: a refused LOCK leaves nothing
    if (!existing && req.create !== false) await this.createEmpty(actor, req);
    const timeoutS = grantedTimeout(req.timeout);
    const row = await this.d.store.transaction(async (store) => {
      await store.decideAlone();
      const now = this.clock();
      await this.conflicts(req.path, key, req, now, store);
      if ((await store.countOwned(user.id, now)) >= this.maxPerUser) throw new AppError('QUOTA', `at most ${this.maxPerUser} WebDAV locks per user`);
      const r: DavLockRow = { token: `urn:uuid:${randomUUID()}`, root: key, ownerId: user.id, scope: req.scope, depth: req.depth, ownerXml: req.ownerXml, timeoutS, createdAt: now, expiresAt: now + timeoutS * 1000 };
      await store.insert(r);
      return r;
    });
    this.anyLiveCache = null;
    return { lock: this.active(row, req.path, row.createdAt), created: !existing };
  }

  /**
   * LOCK without a body (RFC 4918 §9.10.2): the locks named in the If header that cover `path` live `timeout` from
   * now. 412 when the header names none of them; 403 when one is another user's.
   */
  async refresh(actor: Actor, path: string, timeout: string | null, ifHeader: string | null, etagOf: EtagOf): Promise<ActiveLock[]> {
    const lists = parseIf(ifHeader);
    if (!lists) throw invalid('a LOCK without a body refreshes a lock: name it in the If header');
    if (!(await this.holds(actor, lists, path, etagOf))) throw new AppError('PRECONDITION_FAILED', 'the If header does not hold');
    const key = await this.keys.of(actor, path);
    const timeoutS = grantedTimeout(timeout);
    const out: ActiveLock[] = [];
    for (const token of submittedTokens(lists)) {
      const now = this.clock();
      const row = await this.d.store.byToken(token, now);
      if (!row || !covers(row, key)) continue;
      if (row.ownerId !== actor.user?.id) throw forbidden('this lock belongs to another user');
      if (!(await this.d.store.refresh(token, timeoutS, now + timeoutS * 1000, now))) continue;
      out.push(this.active({ ...row, timeoutS, expiresAt: now + timeoutS * 1000 }, viewedRoot(path, key, row.root), now));
    }
    if (out.length === 0) throw new DavConditionError('PRECONDITION_FAILED', 'lock-token-submitted', [path], 'no lock of this resource is named in the If header');
    return out;
  }

  /** UNLOCK (RFC 4918 §9.11): the lock named by Lock-Token, which must cover `path` (409 otherwise) and be the actor's (403). */
  async unlock(actor: Actor, path: string, lockToken: string | null): Promise<void> {
    const token = /^\s*<([^<>\s]+)>\s*$/.exec(lockToken ?? '')?.[1];
    if (!token) throw invalid('UNLOCK needs a Lock-Token header: <token>');
    const row = await this.d.store.byToken(token, this.clock());
    if (!row || !covers(row, await this.keys.of(actor, path))) throw new DavConditionError('EXISTS', 'lock-token-matches-request-uri', [], 'no such lock on this resource');
    if (row.ownerId !== actor.user?.id) throw forbidden('this lock belongs to another user');
    await this.d.store.delete(token);
  }

  /**
   * Whether any lock is live, remembered for a second: PROPFIND asks discovery for every entry it lists (allprop
   * includes lockdiscovery), and a 10,000-entry folder should not cost 10,000 queries when nothing is locked. Only
   * discovery reads it (a lock another instance took shows in listings within a second); every decision reads the
   * table. A lock taken here forgets it at once.
   */
  private anyLiveCache: { at: number; any: Promise<boolean> } | null = null;
  private anyLive(): Promise<boolean> {
    const now = Date.now();
    if (!this.anyLiveCache || now - this.anyLiveCache.at > 1000) this.anyLiveCache = { at: now, any: this.d.store.anyLive(this.clock()).catch(() => true) };
    return this.anyLiveCache.any;
  }

  /** Drops expired rows (Background, every minute); a lock past its time is already ignored by every query. */
  async sweep(): Promise<number> {
    return this.d.store.sweep(this.clock());
  }

  /** Live locks that cover `key`: rooted at it, or depth infinity at an ancestor. */
  private async covering(key: string, now: number, store = this.d.store): Promise<DavLockRow[]> {
    return (await store.rootedAt([key, ...ancestorKeys(key)], now)).filter((l) => covers(l, key));
  }

  /** 423 `no-conflicting-lock` when a new lock at `key` would meet an exclusive lock, or any lock if it is exclusive. */
  private async conflicts(path: string, key: string, req: Pick<LockRequest, 'scope' | 'depth'>, now: number, store = this.d.store): Promise<void> {
    const met = [...(await this.covering(key, now, store)), ...(req.depth === 'infinity' ? await store.below(key, now) : [])];
    const clash = met.find((l) => req.scope === 'exclusive' || l.scope === 'exclusive');
    if (clash) throw new DavConditionError('LOCKED', 'no-conflicting-lock', [lockedPath(path, key, clash.root)], 'a conflicting lock is held');
  }

  /** An unmapped URL's empty file: 409 when its parent collection is missing (RFC 4918 §9.10.4 via §9.7.1). */
  private async createEmpty(actor: Actor, req: LockRequest): Promise<void> {
    const parent = await actor.fs.stat(parentOf(req.path)).catch(() => null);
    if (!parent?.stats.isDirectory()) throw exists('the parent collection does not exist');
    // Making a member changes the parent collection: its locks' tokens must be submitted, as for a PUT.
    await this.assertMayChange(actor, [{ path: parentOf(req.path), depth: '0' }, { path: req.path, depth: '0' }], req.ifHeader, req.etagOf);
    await upload(this.d.files, actor, req.path, false, null, false);
  }

  /** Evaluates an If header for the actor: tags mapped to its virtual paths, tokens true on the resources they cover. */
  private holds(actor: Actor, lists: IfList[], requestPath: string, etagOf: EtagOf): Promise<boolean> {
    const now = this.clock();
    return ifHolds(lists, requestPath, (tag) => this.pathOfTag(tag), {
      etagOf: (path) => etagOf(path).catch(() => null),
      tokenOn: async (token, path) => {
        const row = await this.d.store.byToken(token, now);
        if (!row) return false;
        const key = await this.keys.of(actor, path).catch(() => null);
        return key !== null && covers(row, key);
      },
    });
  }

  /** A resource tag (absolute URL or path) as a virtual path under the WebDAV prefix, or null when it names something else. */
  private pathOfTag(tag: string): string | null {
    let pathname: string;
    try {
      pathname = new URL(tag, 'http://localhost').pathname;
    } catch {
      return null;
    }
    const prefix = this.d.davPrefix.replace(/\/+$/, '');
    if (pathname !== prefix && !pathname.startsWith(`${prefix}/`)) return null;
    try {
      return toVirtualPath(decodeOnce(pathname.slice(prefix.length) || '/')).path;
    } catch {
      return null;
    }
  }

  private active(l: DavLockRow, root: string, now: number): ActiveLock {
    return { token: l.token, root, scope: l.scope, depth: l.depth, ownerXml: l.ownerXml, timeoutSeconds: Math.max(0, Math.ceil((l.expiresAt - now) / 1000)) };
  }
}

/** The request-URI among the gate's paths: the first not directly followed by a member of it (see DavLockGate). */
function requestUri(paths: { path: string }[]): string {
  for (let i = 0; i < paths.length - 1; i++) if (parentOf(paths[i + 1]!.path) !== paths[i]!.path) return paths[i]!.path;
  return paths.at(-1)!.path;
}

/** The virtual path to name in a 423: the lock root as the actor sees it (above, at or beneath the requested path). */
function lockedPath(path: string, key: string, root: string): string {
  if (root === key || !covers({ root: key, depth: 'infinity' }, root)) return viewedRoot(path, key, root);
  const rest = key === '/' ? root : root.slice(key.length);
  return path === '/' ? rest : `${path}${rest}`;
}
