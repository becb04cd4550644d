import type { FileHandle } from 'node:fs/promises';
import { lstat, mkdir, open, readlink, rm, unlink } from 'node:fs/promises';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AppError, exists, notFound } from '../core/errors';
import { fromFsError } from './fs-errors';
import { hasLibc, tryLock } from './libc';

/**
 * Our in-progress files and folders (uploads and copies being written). Hidden from listings, search and
 * archives; recognised and removed by the temp sweep when nobody holds them (see temp-files.ts).
 */
export const TEMP_NAME = /^\.filedeck-[A-Za-z0-9_-]+\.part$/;

/**
 * Temp names carry a proof that this server made them: `.filedeck-<id><mac>.part`, the mac an HMAC of the id under
 * a secret of the files root (kept in the database, registered at start: useTempKey). The sweep removes only
 * names with a valid proof (isProvenTemp): a user's file that merely looks like a temp (renamed, uploaded or made
 * outside the server) is never swept.
 */
const ID_CHARS = 16;
const MAC_CHARS = 22;
const tempKeys: { root: string; real?: string; key: Uint8Array }[] = [];
/** Used for folders under no registered root (a scope made by a tool, a test): recognised by this process only. */
const processKey = crypto.getRandomValues(new Uint8Array(32));

/** Registers the secret that proves temps under `root` (an absolute path) are ours. */
export function useTempKey(root: string, key: Uint8Array): void {
  const at = tempKeys.findIndex((k) => k.root === root);
  if (at >= 0) tempKeys.splice(at, 1);
  tempKeys.push({ root, key });
}

/** The key for temps in the real folder `dir`: the deepest registered root holding it (as written or resolved). */
function keyFor(dir: string): Uint8Array {
  let best: { len: number; key: Uint8Array } | null = null;
  for (const k of tempKeys) {
    if (k.real === undefined) {
      try {
        k.real = realpathSync(k.root);
      } catch {
        // the root is not made yet: only its written form can match for now
      }
    }
    for (const r of [k.root, k.real]) {
      if (r && (dir === r || dir.startsWith(r.endsWith('/') ? r : `${r}/`)) && (!best || r.length > best.len)) best = { len: r.length, key: k.key };
    }
  }
  return best?.key ?? processKey;
}

const macOf = (key: Uint8Array, id: string) => createHmac('sha256', key).update(`filedeck temp ${id}`).digest('base64url').slice(0, MAC_CHARS);

/** A fresh temp name for the real folder `dir`, with its proof. */
export function tempName(dir: string): string {
  const id = Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString('base64url');
  return `.filedeck-${id}${macOf(keyFor(dir), id)}.part`;
}

/** Whether the entry at `path` (a real location) bears a temp name this server made for its folder's root. */
export function isProvenTemp(path: string): boolean {
  const m = /^\.filedeck-([A-Za-z0-9_-]+)\.part$/.exec(basename(path));
  if (!m || m[1]!.length !== ID_CHARS + MAC_CHARS) return false;
  const id = m[1]!.slice(0, ID_CHARS);
  const mac = Buffer.from(m[1]!.slice(ID_CHARS));
  const want = Buffer.from(macOf(keyFor(dirname(path)), id));
  return mac.length === want.length && timingSafeEqual(mac, want);
}

/**
 * A temp file or folder this process is writing. It stays open and flock-ed until closed, so a sweep (in this
 * process or another instance on the same root) can tell it is alive; a crashed writer's lock is released by the
 * kernel, which makes its leftovers sweepable at once.
 */
export class TempEntry {
  private done = false;
  /** Told when the entry is discarded unplaced (its quota reservation is released: write-gate.ts). */
  onDiscard?: () => Promise<void>;

  private constructor(readonly fh: FileHandle, readonly path: string, readonly isDir: boolean) {}

  /** Makes a new temp file (or folder) in the real folder `dir`, locked. */
  static async create(dir: string, opts: { mode?: number; dir?: boolean } = {}): Promise<TempEntry> {
    const path = join(dir, tempName(dir));
    try {
      if (opts.dir) await mkdir(path, { mode: opts.mode ?? 0o750 });
      const fh = await open(path, opts.dir ? 'r' : 'wx', opts.mode ?? 0o640);
      tryLock(fh.fd); // same tick as the open completes: the sweep's age floor covers the gap
      return new TempEntry(fh, path, !!opts.dir);
    } catch (e) {
      if (opts.dir) await rm(path, { recursive: true, force: true }).catch(() => {});
      throw movedOr(e);
    }
  }

  /**
   * Reopens a registered temp file (a resumable upload's) for writing. Only our own kind of file, never through
   * a link; 409 when another request holds it.
   */
  static async reopen(path: string): Promise<TempEntry> {
    const st = await lstat(path).catch(() => null);
    if (!st || !st.isFile() || !TEMP_NAME.test(basename(path))) throw notFound('the upload\'s data is gone (its folder was moved or deleted?)');
    const fh = await open(path, 'r+').catch((e) => Promise.reject(fromFsError(e)));
    if (!tryLock(fh.fd) && hasLibc) {
      await fh.close().catch(() => {});
      throw exists('another request is writing this upload');
    }
    return new TempEntry(fh, path, false);
  }

  /**
   * Where the entry is now, read back from the open descriptor: its folder may have been renamed or deleted since
   * it was made. Null when it is no longer linked anywhere.
   */
  async where(): Promise<string | null> {
    const p = await readlink(`/proc/self/fd/${this.fh.fd}`).catch(() => this.path);
    return p.endsWith(' (deleted)') ? null : p;
  }

  /** Marks the entry as placed at its final name: discard() then leaves it alone. */
  committed(): void {
    this.done = true;
  }

  /** Removes the entry wherever it now is (only if it still carries our temp name), then closes it. */
  async discard(): Promise<void> {
    if (!this.done) {
      const now = await this.where();
      if (now && TEMP_NAME.test(basename(now))) await (this.isDir ? rm(now, { recursive: true, force: true }) : unlink(now)).catch(() => {});
      this.done = true;
      await this.onDiscard?.().catch(() => {});
    }
    await this.close();
  }

  /** Closes (and so unlocks) the entry; it stays on disk. */
  async close(): Promise<void> {
    await this.fh.close().catch(() => {});
  }
}

/** The folder a temp goes into vanished (renamed or deleted meanwhile): a conflict, not a missing file. */
export function movedOr(e: unknown): AppError {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return movedAway();
  return fromFsError(e);
}

export const movedAway = () => exists('the destination folder was moved or deleted during the operation');

/**
 * What a sweep may know of a temp entry: whether a live process holds it (its lock), its size and when it last
 * changed. Null when it is gone or is not one of ours (never followed through a link).
 */
export async function probeTemp(path: string): Promise<{ held: boolean; size: number; mtimeMs: number; isDir: boolean } | null> {
  const st = await lstat(path).catch(() => null);
  if (!st || !(st.isFile() || st.isDirectory()) || !TEMP_NAME.test(basename(path))) return null;
  const fh = await open(path, 'r').catch(() => null);
  if (!fh) return null;
  try {
    return { held: hasLibc && !tryLock(fh.fd), size: st.size, mtimeMs: st.mtimeMs, isDir: st.isDirectory() };
  } finally {
    await fh.close().catch(() => {});
  }
}

/**
 * The size of a temp file of ours, read without opening it (null when it is gone or not ours). Unlike probeTemp it
 * takes no lock, even briefly: a tus HEAD reads the offset while a PATCH may be about to lock the file for writing.
 */
export async function tempSize(path: string): Promise<number | null> {
  const st = await lstat(path).catch(() => null);
  return st?.isFile() && TEMP_NAME.test(basename(path)) ? st.size : null;
}

/** Removes a temp entry of ours (a file, or a copy's folder with all it holds); never follows a link. */
export async function removeTemp(path: string): Promise<void> {
  const st = await lstat(path).catch(() => null);
  if (!st || st.isSymbolicLink() || !TEMP_NAME.test(basename(path))) return;
  await (st.isDirectory() ? rm(path, { recursive: true, force: true }) : unlink(path)).catch(() => {});
}
