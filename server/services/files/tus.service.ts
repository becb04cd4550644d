import { AppError, exists, forbidden, invalid, notFound } from '../../core/errors';
import type { UploadsStore } from '../../db/uploads.store';
import { fromFsError } from '../../fs/fs-errors';
import { probeTemp, removeTemp, tempSize, TempEntry } from '../../fs/temp-file';
import { releaseTemp, reserveAt, tempHoldId } from '../../fs/write-gate';
import { Writeback } from '../../fs/writeback';
import type { Actor } from '../actor';
import { commitWrite } from './commit-decision';
import type { FilesService } from './files.service';

export const TUS_IDLE_MS = 10 * 60 * 1000;
/** A new upload that has received nothing yet is live this long: a second creation of its path is a 409. */
export const TUS_LIVE_MS = 60 * 1000;
/** A resumable upload's quota reservation lives until the upload lands or goes (cancel, sweep, its user deleted). */
const UPLOAD_HOLD_MS = 24 * 3_600_000;

/**
 * What a file request adds around a resumable upload (share-uploads.ts): `admit` takes the file from the link's
 * limits when the last byte arrived (throws to refuse: nothing lands), `refund` gives it back when it did not land
 * after all, `landed` hears where it did.
 */
export interface UploadGate {
  admit(length: number): Promise<void>;
  refund(length: number): Promise<void>;
  landed(path: string, length: number): Promise<void>;
}

/**
 * The row key of an upload: its path, or for a public link's visitor (whose paths are relative to the shared
 * folder, under the owner's id) the link and path, so they never meet the owner's own uploads.
 */
const keyOf = (actor: Actor, path: string): string => (actor.share ? `share:${actor.share}:${path}` : path);

/**
 * Resumable uploads (tus 1.0: creation, HEAD offset, PATCH, termination). Bytes go to a temporary file next to
 * the target, which is renamed into place only when the declared length has arrived, so an unfinished upload
 * never replaces or truncates an existing file. Upload-Length is enforced: nothing beyond it is kept. Idle
 * uploads expire and their temporary files are removed (see sweep()).
 */
export class TusService {
  private readonly busy = new Set<string>();

  constructor(private readonly store: UploadsStore, private readonly files: FilesService, private readonly idleMs = TUS_IDLE_MS) {}

  private uid(actor: Actor): number {
    if (!actor.user) throw forbidden();
    return actor.user.id;
  }

  private guard(actor: Actor, path: string): void {
    this.files.check(actor, path, 'create');
    if (path === '/') throw forbidden();
  }

  /**
   * POST: registers an upload of `length` bytes to `path`. A zero-length upload completes at once. Concurrent
   * creations of one path by one user: exactly one is registered, the others get 409 (atomic in the store). A
   * re-creation replaces an earlier upload only once that one has received bytes and no request is writing it
   * (the client restarted); until then it is live and the re-creation is refused.
   */
  async create(actor: Actor, path: string, lengthHeader: string | null, override: boolean, gate?: UploadGate): Promise<void> {
    this.guard(actor, path);
    if (lengthHeader === null || !/^\d{1,16}$/.test(lengthHeader.trim())) throw invalid('Upload-Length must be a whole number of bytes');
    const length = Number(lengthHeader.trim());
    if (!Number.isSafeInteger(length)) throw invalid('Upload-Length is too large');
    const existing = await actor.fs.stat(path).catch((e) => (e instanceof AppError && e.code === 'NOT_FOUND' ? null : Promise.reject(e)));
    if (existing?.stats.isDirectory()) throw invalid('a folder has that name');
    if (existing && !override) throw exists();
    if (existing) this.files.check(actor, path, 'modify');
    const { total, used } = await actor.fs.usage('/');
    if (total > 0 && length > total - used) throw new AppError('NO_SPACE', 'not enough free space on the files volume for this upload');
    await this.files.deps.hooks.before('upload', { actor, path });
    const userId = this.uid(actor);
    const now = Date.now();
    const key = keyOf(actor, path);
    const previous = await this.store.get(userId, key);
    const probe = previous && (await probeTemp(previous.tempPath));
    // A visitor never restarts another visitor's upload: only an expired row of that name may be replaced.
    const restartable = !actor.share && !!previous && (!probe || (!probe.held && probe.size > 0));
    // The temp file exists (locked) before its row, and the row before the lock is released: a crash at any point
    // leaves an unregistered, unlocked temp (swept) or a row whose temp is missing (expires), never a live leak.
    const temp = await actor.fs.createTemp(path);
    try {
      // The declared length is reserved against every quota over the target before the first byte (so parallel
      // uploads cannot overshoot together); the commit of the temp takes this reservation over (same id).
      const hold = await reserveAt(temp.path, length, existing ? 0 : 1, { id: tempHoldId(temp.path), ttl: UPLOAD_HOLD_MS });
      temp.onDiscard = () => hold.release();
      const row = { userId, path: key, tempPath: temp.path, length, override, expiresAt: now + this.idleMs };
      const claim = await this.store.claim(row, restartable ? Number.MAX_SAFE_INTEGER : actor.share ? now : now + this.idleMs - TUS_LIVE_MS);
      if (claim.replaced && claim.replaced !== temp.path) await dropTemp(claim.replaced);
      if (!claim.ok) throw exists('an upload to this path is in progress');
    } catch (e) {
      await temp.discard();
      throw e;
    }
    await temp.close();
    if (length === 0) await this.complete(actor, path, null, gate);
  }

  /** Whether an upload to `path` is registered for this actor (a file request avoids names being uploaded). */
  async registered(actor: Actor, path: string): Promise<boolean> {
    return (await this.tempOf(actor, path)) !== null;
  }

  /** The temp file of the upload registered at `path` for this actor, or null (a file request derives its upload key from it). */
  async tempOf(actor: Actor, path: string): Promise<string | null> {
    return (await this.store.get(this.uid(actor), keyOf(actor, path)))?.tempPath ?? null;
  }

  /**
   * This actor's registered uploads, by the path each was registered at (a file request finds a visitor's upload by
   * its key, when the visitor was never told that path).
   */
  async uploadsOf(actor: Actor): Promise<{ path: string; temp: string }[]> {
    const prefix = keyOf(actor, '');
    return (await this.store.forUser(this.uid(actor))).filter((r) => r.path.startsWith(prefix)).map((r) => ({ path: r.path.slice(prefix.length), temp: r.tempPath }));
  }

  /** HEAD: how many bytes the server has, and how many were declared. */
  async offset(actor: Actor, path: string): Promise<{ offset: number; length: number }> {
    this.guard(actor, path);
    const row = await this.store.get(this.uid(actor), keyOf(actor, path));
    if (!row) throw notFound();
    // lstat, not probeTemp: a probe's brief lock would make a PATCH arriving at that instant fail with 409.
    return { offset: (await tempSize(row.tempPath)) ?? 0, length: row.length };
  }

  /**
   * PATCH: appends the body at `offset`, which must equal what the server has (409 otherwise). A body that
   * would pass the declared length is refused with 413 and the chunk is rolled back. The temp file is locked
   * while written (409 for a second writer, in any instance); a full disk is a 507 and keeps what was written.
   */
  async append(actor: Actor, path: string, offsetHeader: string | null, contentType: string | null, body: AsyncIterable<Uint8Array> | null, gate?: UploadGate): Promise<number> {
    this.guard(actor, path);
    if (contentType?.split(';')[0]?.trim() !== 'application/offset+octet-stream') throw new AppError('UNSUPPORTED_MEDIA', 'Content-Type must be application/offset+octet-stream');
    if (offsetHeader === null || !/^\d{1,16}$/.test(offsetHeader.trim())) throw invalid('Upload-Offset must be a whole number');
    const offset = Number(offsetHeader.trim());
    const userId = this.uid(actor);
    const rowKey = keyOf(actor, path);
    const row = await this.store.get(userId, rowKey);
    if (!row) throw notFound();
    const key = `${userId}\0${rowKey}`;
    if (this.busy.has(key)) throw exists('another request is writing this upload');
    this.busy.add(key);
    let temp: TempEntry | null = null;
    try {
      temp = await TempEntry.reopen(row.tempPath);
      const have = (await temp.fh.stat()).size;
      if (offset > row.length) throw invalid('Upload-Offset is past Upload-Length');
      if (offset !== have) throw exists(`Upload-Offset ${offset} does not match the ${have} bytes received`);
      const written = await this.receive(temp, userId, rowKey, offset, row.length - offset, body);
      await this.store.touch(userId, rowKey, Date.now() + this.idleMs);
      const now = offset + written;
      if (now === row.length) {
        const t = temp;
        temp = null; // complete() owns it now
        await this.complete(actor, path, t, gate);
      }
      return now;
    } finally {
      await temp?.close();
      this.busy.delete(key);
    }
  }

  /** Writes the body at `offset`, at most `room` bytes; returns how many were kept. */
  private async receive(temp: TempEntry, userId: number, path: string, offset: number, room: number, body: AsyncIterable<Uint8Array> | null): Promise<number> {
    let written = 0;
    let tooLarge = false;
    try {
      let lastTouch = Date.now();
      const flow = new Writeback(temp.fh.fd, offset);
      if (body)
        for await (const chunk of body) {
          if (written + chunk.length > room) {
            tooLarge = true;
            break;
          }
          for (let off = 0; off < chunk.length; ) {
            const n = (await temp.fh.write(chunk, off, chunk.length - off, offset + written)).bytesWritten;
            off += n;
            written += n;
          }
          flow.wrote(chunk.length);
          if (Date.now() - lastTouch > 2000) {
            lastTouch = Date.now();
            await this.store.touch(userId, path, lastTouch + this.idleMs);
          }
        }
      await temp.fh.sync();
    } catch (e) {
      // A dropped connection keeps what arrived: the client asks for the offset and resumes from there.
      if (!(e instanceof Error && /abort|closed|reset/i.test(e.message))) {
        await temp.fh.truncate(offset + written).catch(() => {}); // only whole writes count (disk full mid-chunk)
        throw fromFsError(e);
      }
    }
    if (tooLarge) {
      await temp.fh.truncate(offset);
      throw new AppError('TOO_LARGE', 'the chunk goes past Upload-Length');
    }
    return written;
  }

  /**
   * The last byte arrived: the row goes, and the file is placed (commit-decision.ts: atomically no-replace without
   * override, and a replace only when the actor may modify the file there now). A refusal leaves nothing written.
   */
  private async complete(actor: Actor, path: string, held: TempEntry | null, gate?: UploadGate): Promise<void> {
    const userId = this.uid(actor);
    const rowKey = keyOf(actor, path);
    const row = await this.store.get(userId, rowKey);
    if (!row) throw notFound();
    const temp = held ?? (await TempEntry.reopen(row.tempPath));
    if (temp.path !== row.tempPath) {
      await temp.close();
      throw exists('the upload was restarted meanwhile');
    }
    await this.store.delete(userId, rowKey);
    let admitted = false;
    try {
      if (gate) {
        await gate.admit(row.length);
        admitted = true;
      }
      // Replace or not is decided now, with the permissions of the request that sent the last byte: an upload
      // created to a free name with override=true finds the name taken only here.
      await commitWrite(this.files, actor, temp, path, row.override);
    } catch (e) {
      await temp.discard();
      if (admitted) await gate!.refund(row.length);
      throw e;
    } finally {
      await temp.close();
    }
    await this.files.deps.hooks.after('upload', { actor, path });
    await gate?.landed(path, row.length);
  }

  /** DELETE: abandons an upload; the target file (if any) is untouched. */
  async cancel(actor: Actor, path: string): Promise<void> {
    this.guard(actor, path);
    const userId = this.uid(actor);
    const row = await this.store.get(userId, keyOf(actor, path));
    if (!row) throw notFound();
    await this.store.delete(userId, row.path);
    await dropTemp(row.tempPath);
  }

  /** Abandons every upload of a user (who is being deleted): rows and temp files. Returns how many. */
  async dropUser(userId: number): Promise<number> {
    const rows = await this.store.forUser(userId);
    for (const r of rows) {
      await this.store.delete(r.userId, r.path);
      await dropTemp(r.tempPath);
    }
    return rows.length;
  }

  /** The temp files of registered uploads: the temp sweep leaves these to their rows' expiry. */
  registeredTemps(): Promise<Set<string>> {
    return this.store.tempPaths();
  }

  /** Removes uploads idle for too long, with their temporary files. Returns how many. */
  async sweep(now = Date.now()): Promise<number> {
    const rows = await this.store.expired(now);
    for (const r of rows) {
      await this.store.delete(r.userId, r.path);
      await dropTemp(r.tempPath);
    }
    return rows.length;
  }
}

/** Removes an upload's temp file and what it reserved against quotas. */
async function dropTemp(tempPath: string): Promise<void> {
  await removeTemp(tempPath);
  await releaseTemp(tempPath);
}
