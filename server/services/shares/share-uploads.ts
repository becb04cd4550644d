import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError, forbidden, notFound } from '../../core/errors';
import type { SharesStore, ShareSettingsRow } from '../../db/shares.store';
import { baseName, joinVirtual, parentOf } from '../../fs/virtual-path';
import type { AuditService } from '../audit/audit.service';
import { shareUploadLimits } from '../auth/limits';
import type { RateLimiter } from '../auth/rate-limiter';
import { mimeOf } from '../files/detect-type';
import type { FilesService } from '../files/files.service';
import { upload } from '../files/files-write';
import type { TusService, UploadGate } from '../files/tus.service';
import { authorizePath } from '../policy/file-policy';
import type { ShareAccessLog, Visit } from './share-access-log';
import { settingsOf } from './share-settings';
import type { ShareWebhooks } from './share-webhooks';
import type { NotificationsService } from './notifications.service';
import type { PublicShare } from './shares.service';

export interface ShareUploadsDeps {
  files: FilesService;
  tus: TusService;
  store: SharesStore;
  log: ShareAccessLog;
  notifications: NotificationsService;
  webhooks: ShareWebhooks;
  limits: RateLimiter;
  audit?: AuditService;
}

const tooLarge = (what: string) => new AppError('TOO_LARGE', what);
/** An upload's key: derived from its temp file's random name, which never leaves the server. */
const uploadKey = (temp: string) => createHash('sha256').update(`share-upload\0${temp}`).digest('base64url').slice(0, 32);
const sameKey = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
/** Refusals worth a line in the link's log: its limits, its mode, the owner's quota or disk. */
const REFUSALS = new Set(['TOO_LARGE', 'UNSUPPORTED_MEDIA', 'FORBIDDEN', 'QUOTA', 'NO_SPACE']);
const MAX_CANDIDATES = 1000;

/** Whether a name is of a type the link accepts: an extension (".pdf") or a MIME pattern ("image/*"), case-folded. */
export function typeAccepted(name: string, allowed: readonly string[]): boolean {
  if (!allowed.length) return true;
  const lower = name.toLowerCase();
  const mime = mimeOf(lower);
  return allowed.some((t) => (t.startsWith('.') ? lower.endsWith(t) : t.endsWith('/*') ? mime.startsWith(t.slice(0, -1)) : mime === t));
}

/**
 * The n-th other name for a file request's clash: "report.pdf" -> "report (1).pdf", "notes" -> "notes (1)"; a stem is
 * shortened (never split inside a character) so the name stays within 255 bytes.
 */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 32 ? name.slice(dot) : '';
  let stem = name.slice(0, name.length - ext.length);
  const tail = ` (${n})${ext}`;
  while (Buffer.byteLength(stem + tail) > 255) stem = [...stem].slice(0, -1).join('');
  return stem + tail;
}

/**
 * File requests (decision 0051): what a visitor sends through an `upload`/`upload-view` link lands through the
 * owner's own write path (`files-write.ts` upload / TusService: the file policy decides `create` for the link's
 * actor, rules at the real location, reserved names, hooks with SHARE_HASH, quotas over the real location,
 * durability), never over anything (a taken name gives "name (1).ext", claimed atomically), within the link's
 * limits: checked on the declared length before the first byte, while bytes arrive, and taken atomically from the
 * link's counters before the file lands (so concurrent uploads cannot pass them together).
 */
export class ShareUploads {
  constructor(private readonly d: ShareUploadsDeps) {}

  /**
   * POST /api/public/upload/<hash>/<path>: stores the body; returns the share-relative path the visitor is told
   * (`shownPath`: where it landed, or on an `upload` link the name it was sent as).
   */
  async upload(ps: PublicShare, path: string, declared: number | null, body: AsyncIterable<Uint8Array> | null, visit: Visit): Promise<string> {
    return shownPath(ps, path, await this.logRefusal(ps, path, visit, () => this.store(ps, path, declared, body, visit)));
  }

  /** A refusal by the link's limits, mode or the owner's quota is a `refused` line of the link's log (floods are not). */
  private async logRefusal<T>(ps: PublicShare, path: string, visit: Visit, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      if (e instanceof AppError && REFUSALS.has(e.code)) await this.d.log.add(ps.share.hash, 'refused', path, visit).catch(() => {});
      throw e;
    }
  }

  private async store(ps: PublicShare, path: string, declared: number | null, body: AsyncIterable<Uint8Array> | null, visit: Visit): Promise<string> {
    const v = await this.admitStart(ps, path, declared, visit);
    const hash = ps.share.hash;
    let taken = 0;
    let took = false;
    const room = Math.min(v.maxFileSize || Infinity, v.maxTotalSize ? v.maxTotalSize - v.uploadedBytes : Infinity);
    const store = this.d.store;
    async function* limited(): AsyncGenerator<Uint8Array> {
      if (body)
        for await (const chunk of body) {
          taken += chunk.length;
          if (taken > room) throw tooLarge(v.maxFileSize && taken > v.maxFileSize ? 'the file is larger than this link accepts' : 'this link accepts no more bytes');
          if (declared !== null && taken > declared) throw tooLarge('the body is longer than its Content-Length');
          yield chunk;
        }
      // The whole file is here: take it from the link's limits before it lands (atomic against other uploads).
      if (!(await store.takeUpload(hash, taken, Math.floor(Date.now() / 1000)))) throw refusedByLimits(await store.byHash(hash), taken);
      took = true;
    }
    const start = await this.firstFree(ps, path);
    let landed = start;
    try {
      await upload(this.d.files, ps.actor, start, false, limited(), false, { next: (t) => this.nextFree(ps, path, t), landed: (p) => (landed = p) });
    } catch (e) {
      if (took) await store.giveBackUpload(hash, taken);
      throw e;
    }
    await this.arrived(ps, landed, taken, visit);
    return landed;
  }

  /**
   * tus POST under /api/public/tus/<hash>/<path>: registers the upload at a clash-free name and returns the path for
   * its Location (`shownPath`) with the upload's key. Visitors of one link are strangers to each other: HEAD, PATCH
   * and DELETE of an upload are found by its key (`ownUpload`), so nobody but its sender can append to, read the
   * offset of, or cancel it, and an `upload` visitor's Location need not carry the name it really has.
   */
  tusCreate(ps: PublicShare, path: string, lengthHeader: string | null, visit: Visit): Promise<{ path: string; key: string }> {
    return this.logRefusal(ps, path, visit, async () => {
      const at = await this.register(ps, path, lengthHeader, visit);
      const temp = await this.d.tus.tempOf(ps.actor, at);
      // A zero-length upload is complete at once: it has no row, and nothing more may be sent to it.
      return { path: shownPath(ps, path, at), key: temp ? uploadKey(temp) : '' };
    });
  }

  /** tus HEAD: the offset of the visitor's own upload (404 without its key, as for no upload at all). */
  async tusOffset(ps: PublicShare, path: string, key: string | null): Promise<{ offset: number; length: number }> {
    return this.d.tus.offset(ps.actor, await this.ownUpload(ps, path, key));
  }

  /** tus DELETE: abandons the visitor's own upload. */
  async tusCancel(ps: PublicShare, path: string, key: string | null): Promise<void> {
    await this.d.tus.cancel(ps.actor, await this.ownUpload(ps, path, key));
  }

  /**
   * The path the visitor's upload was registered at, found by its key among the link's uploads: the asked path
   * itself, or (the name the visitor sent on an `upload` link) a numbered name of it in the same folder. 404 when
   * the key is missing or names no upload of this path, as for no upload at all.
   */
  private async ownUpload(ps: PublicShare, path: string, key: string | null): Promise<string> {
    authorizePath(ps.actor, 'create', path);
    if (!key) throw notFound();
    for (const u of await this.d.tus.uploadsOf(ps.actor)) if (sameKey(uploadKey(u.temp), key) && sentAs(path, u.path)) return u.path;
    throw notFound();
  }

  private async register(ps: PublicShare, path: string, lengthHeader: string | null, visit: Visit): Promise<string> {
    const declared = lengthHeader !== null && /^\d{1,16}$/.test(lengthHeader.trim()) ? Number(lengthHeader.trim()) : null;
    await this.admitStart(ps, path, declared, visit);
    let at = await this.firstFree(ps, path);
    for (let n = 0; ; n++) {
      try {
        await this.d.tus.create(ps.actor, at, lengthHeader, false, this.gate(ps, visit));
        return at;
      } catch (e) {
        // Another visitor took the name meanwhile (on disk or as an upload): the next one.
        if (!(e instanceof AppError && e.code === 'EXISTS') || n >= MAX_CANDIDATES) throw e;
        at = await this.nextFree(ps, path, at);
      }
    }
  }

  /** tus PATCH: the bytes; on the last one the file is taken from the link's limits and lands. */
  tusAppend(ps: PublicShare, path: string, key: string | null, offset: string | null, type: string | null, body: AsyncIterable<Uint8Array> | null, visit: Visit): Promise<number> {
    return this.logRefusal(ps, path, visit, async () => {
      const at = await this.ownUpload(ps, path, key);
      return this.d.tus.append(ps.actor, at, offset, type, body, this.gate(ps, visit));
    });
  }

  private gate(ps: PublicShare, visit: Visit): UploadGate {
    const hash = ps.share.hash;
    return {
      admit: async (length) => {
        const v = settingsOf((await this.d.store.byHash(hash)) ?? ps.share);
        if (v.maxFileSize && length > v.maxFileSize) throw tooLarge('the file is larger than this link accepts');
        if (!(await this.d.store.takeUpload(hash, length, Math.floor(Date.now() / 1000)))) throw refusedByLimits(await this.d.store.byHash(hash), length);
      },
      refund: (length) => this.d.store.giveBackUpload(hash, length),
      landed: (path, length) => this.arrived(ps, path, length, visit),
    };
  }

  /**
   * Before any byte: the link takes uploads (mode, enabled: the file policy's `create` for the link's actor), the
   * flood limits, the name's type, and the declared length against what the link still accepts.
   */
  private async admitStart(ps: PublicShare, path: string, declared: number | null, visit: Visit): Promise<ShareSettingsRow> {
    authorizePath(ps.actor, 'create', path); // a view link's actor may not create: 403
    if (path === '/' || !ps.isDir) throw forbidden();
    await this.d.limits.reserve(shareUploadLimits(ps.share.hash, visit.address), 'too many uploads, try again later');
    const v = settingsOf(ps.share);
    if (!typeAccepted(baseName(path), v.allowedTypes)) throw new AppError('UNSUPPORTED_MEDIA', `this link accepts only ${v.allowedTypes.join(', ')}`);
    if (v.maxFiles && v.uploads >= v.maxFiles) throw forbidden('this link accepts no more files');
    if (declared !== null) {
      if (v.maxFileSize && declared > v.maxFileSize) throw tooLarge('the file is larger than this link accepts');
      if (v.maxTotalSize && declared > v.maxTotalSize - v.uploadedBytes) throw tooLarge('this link accepts no more bytes');
    }
    return v;
  }

  /** The given name unless it is taken on disk or by an upload in progress, else the next numbered one. */
  private async firstFree(ps: PublicShare, path: string): Promise<string> {
    return (await this.taken(ps, path)) ? this.nextFree(ps, path, path) : path;
  }

  /** The next numbered name after `after` that is free now (the write then claims it atomically). */
  private async nextFree(ps: PublicShare, path: string, after: string): Promise<string> {
    const parent = parentOf(path);
    const name = baseName(path);
    const m = after === path ? 0 : Number(/ \((\d+)\)(?:\.[^.]*)?$/.exec(baseName(after))?.[1] ?? 0);
    for (let n = m + 1; n <= m + MAX_CANDIDATES; n++) {
      const candidate = joinVirtual(parent, numberedName(name, n));
      authorizePath(ps.actor, 'create', candidate); // the rules decide every name the file may take
      if (!(await this.taken(ps, candidate))) return candidate;
    }
    throw new AppError('EXISTS', 'no free name found');
  }

  private async taken(ps: PublicShare, path: string): Promise<boolean> {
    return (await ps.actor.fs.exists(path)) || (await this.d.tus.registered(ps.actor, path));
  }

  /** A file landed: the log, the owner's notification, the webhook, the audit log. Never fails the upload. */
  private async arrived(ps: PublicShare, path: string, bytes: number, visit: Visit): Promise<void> {
    const row = ps.share;
    const name = baseName(row.path) || '/';
    const v = settingsOf(row);
    await this.d.log.add(row.hash, 'upload', path, visit, bytes).catch(() => {});
    await this.d.notifications.arrived(row.userId, row.hash, name, 1, bytes).catch(() => {});
    this.d.webhooks.arrived({ hash: row.hash, name, url: v.webhookUrl, secret: v.webhookSecret }, { path, size: bytes });
    await this.d.audit?.record({ userId: null, userName: '', address: visit.address }, 'share.used', row.hash, { upload: path, bytes, owner: row.userId });
  }
}

/**
 * What a visitor is told of where a file went: an `upload` link's visitor may not learn what the folder holds, so a
 * clash-free "name (1).ext" (which says that "name.ext" is there) is never shown: the answer is the name sent. An
 * `upload-view` visitor sees the folder anyway and is told the name the file has.
 */
export function shownPath(ps: Pick<PublicShare, 'mode'>, asked: string, stored: string): string {
  return ps.mode === 'upload' ? asked : stored;
}

/** Whether `stored` is `asked` or one of its numbered names in the same folder (numberedName). */
export function sentAs(asked: string, stored: string): boolean {
  if (stored === asked) return true;
  if (parentOf(stored) !== parentOf(asked)) return false;
  const n = / \((\d{1,4})\)(?:\.[^.]*)?$/.exec(baseName(stored))?.[1];
  return n !== undefined && numberedName(baseName(asked), Number(n)) === baseName(stored);
}

/** Why the link's counters refused a file: its count (403) or its bytes (413). */
function refusedByLimits(row: Awaited<ReturnType<SharesStore['byHash']>>, bytes: number): AppError {
  const v = row ? settingsOf(row) : null;
  if (v && v.maxFiles && v.uploads >= v.maxFiles) return forbidden('this link accepts no more files');
  return tooLarge(bytes > (v?.maxTotalSize ?? 0) - (v?.uploadedBytes ?? 0) ? 'this link accepts no more bytes' : 'the upload was refused by the link\'s limits');
}
