import { lstat, open, stat, truncate, unlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError, exists, forbidden, invalid, notFound } from '../../core/errors';
import type { UploadsStore } from '../../db/uploads.store';
import { TEMP_NAME } from '../../fs/scoped-fs';
import type { Actor } from '../actor';
import type { FilesService } from './files.service';

export const TUS_IDLE_MS = 10 * 60 * 1000;

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

  /** POST: registers an upload of `length` bytes to `path`. A zero-length upload completes at once. */
  async create(actor: Actor, path: string, lengthHeader: string | null, override: boolean): Promise<void> {
    this.guard(actor, path);
    if (lengthHeader === null || !/^\d{1,16}$/.test(lengthHeader.trim())) throw invalid('Upload-Length must be a whole number of bytes');
    const length = Number(lengthHeader.trim());
    if (!Number.isSafeInteger(length)) throw invalid('Upload-Length is too large');
    const existing = await actor.fs.stat(path).catch((e) => (e instanceof AppError && e.code === 'NOT_FOUND' ? null : Promise.reject(e)));
    if (existing?.stats.isDirectory()) throw invalid('a folder has that name');
    if (existing && !override) throw exists();
    if (existing) this.files.check(actor, path, 'modify');
    const { total, used } = await actor.fs.usage('/');
    if (total > 0 && length > total - used) throw new AppError('TOO_LARGE', 'not enough free space for this upload');
    await this.files.deps.hooks.before('upload', { actor, path });
    const userId = this.uid(actor);
    const previous = await this.store.get(userId, path);
    if (previous) await removeTemp(previous.tempPath);
    const tempPath = await actor.fs.createTemp(path);
    await this.store.put({ userId, path, tempPath, length, override, expiresAt: Date.now() + this.idleMs });
    if (length === 0) await this.complete(actor, path);
  }

  /** HEAD: how many bytes the server has, and how many were declared. */
  async offset(actor: Actor, path: string): Promise<{ offset: number; length: number }> {
    this.guard(actor, path);
    const row = await this.store.get(this.uid(actor), path);
    if (!row) throw notFound();
    return { offset: (await stat(row.tempPath).catch(() => null))?.size ?? 0, length: row.length };
  }

  /**
   * PATCH: appends the body at `offset`, which must equal what the server has (409 otherwise). A body that
   * would pass the declared length is refused with 413 and the chunk is rolled back.
   */
  async append(actor: Actor, path: string, offsetHeader: string | null, contentType: string | null, body: AsyncIterable<Uint8Array> | null): Promise<number> {
    this.guard(actor, path);
    if (contentType?.split(';')[0]?.trim() !== 'application/offset+octet-stream') throw new AppError('UNSUPPORTED_MEDIA', 'Content-Type must be application/offset+octet-stream');
    if (offsetHeader === null || !/^\d{1,16}$/.test(offsetHeader.trim())) throw invalid('Upload-Offset must be a whole number');
    const offset = Number(offsetHeader.trim());
    const userId = this.uid(actor);
    const row = await this.store.get(userId, path);
    if (!row) throw notFound();
    const key = `${userId}\0${path}`;
    if (this.busy.has(key)) throw exists('another request is writing this upload');
    this.busy.add(key);
    try {
      await assertTemp(row.tempPath);
      const have = (await stat(row.tempPath)).size;
      if (offset > row.length) throw invalid('Upload-Offset is past Upload-Length');
      if (offset !== have) throw exists(`Upload-Offset ${offset} does not match the ${have} bytes received`);
      const room = row.length - offset;
      let written = 0;
      const fh = await open(row.tempPath, 'r+');
      let tooLarge = false;
      try {
        let lastTouch = Date.now();
        if (body)
          for await (const chunk of body) {
            if (written + chunk.length > room) {
              tooLarge = true;
              break;
            }
            await fh.write(chunk, 0, chunk.length, offset + written);
            written += chunk.length;
            if (Date.now() - lastTouch > 2000) {
              lastTouch = Date.now();
              await this.store.touch(userId, path, lastTouch + this.idleMs);
            }
          }
        await fh.sync();
      } catch (e) {
        // A dropped connection keeps what arrived: the client asks for the offset and resumes from there.
        if (!(e instanceof Error && /abort|closed|reset/i.test(e.message))) throw e;
      } finally {
        await fh.close();
      }
      if (tooLarge) {
        await truncate(row.tempPath, offset);
        throw new AppError('TOO_LARGE', 'the chunk goes past Upload-Length');
      }
      await this.store.touch(userId, path, Date.now() + this.idleMs);
      const now = offset + written;
      if (now === row.length) await this.complete(actor, path);
      return now;
    } finally {
      this.busy.delete(key);
    }
  }

  private async complete(actor: Actor, path: string): Promise<void> {
    const userId = this.uid(actor);
    const row = await this.store.get(userId, path);
    if (!row) throw notFound();
    await this.store.delete(userId, path);
    const existing = await actor.fs.stat(path).catch(() => null);
    const st = await actor.fs.commitTemp(row.tempPath, path, !row.override);
    if (existing) await this.files.replaced(existing.real, st);
    await this.files.deps.hooks.after('upload', { actor, path });
  }

  /** DELETE: abandons an upload; the target file (if any) is untouched. */
  async cancel(actor: Actor, path: string): Promise<void> {
    this.guard(actor, path);
    const userId = this.uid(actor);
    const row = await this.store.get(userId, path);
    if (!row) throw notFound();
    await this.store.delete(userId, path);
    await removeTemp(row.tempPath);
  }

  /** Removes uploads idle for too long, with their temporary files. Returns how many. */
  async sweep(now = Date.now()): Promise<number> {
    const rows = await this.store.expired(now);
    for (const r of rows) {
      await this.store.delete(r.userId, r.path);
      await removeTemp(r.tempPath);
    }
    return rows.length;
  }
}

/** Only ever touch our own temporary files: a regular file with our name pattern, never through a link. */
async function assertTemp(p: string): Promise<void> {
  const st = await lstat(p).catch(() => null);
  if (!st || !st.isFile() || !TEMP_NAME.test(basename(p))) throw notFound();
}

async function removeTemp(p: string): Promise<void> {
  try {
    await assertTemp(p);
    await unlink(p);
  } catch {
    // already gone
  }
}
