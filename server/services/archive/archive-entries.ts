import type { Stats } from 'node:fs';
import { isAppError } from '../../core/errors';
import type { ReadHandle } from '../../fs/open-regular';
import type { Actor } from '../actor';
import { visible } from '../policy/file-policy';

/** One member of an archive. A file's body yields exactly `size` bytes, whatever happens to the file meanwhile. */
export interface ArchiveEntry {
  /** Relative, "/"-separated, without the trailing "/" of a folder. */
  name: string;
  dir: boolean;
  mode: number;
  mtime: Date;
  size: number;
  body?: AsyncIterable<Uint8Array>;
}

/** A requested item, already checked (rules, existence) before the response started. */
export interface ArchiveItem {
  path: string;
  real: string;
  isDir: boolean;
  mtime: Date;
}

const CHUNK = 256 * 1024;
const ZEROS = new Uint8Array(CHUNK);
/** The note lists at most this many entries (then a count), so a tree of unreadable files cannot grow it unbounded. */
const NOTE_MAX = 10_000;
export const NOTE_NAME = '.filedeck-skipped.txt';

/** Why an entry is missing or incomplete; only fixed phrases, never an OS message (it could hold a real path). */
export type SkipReason = 'missing' | 'permission denied' | 'not a regular file' | 'unreadable' | 'changed while archived, padded with zeros' | 'changed while archived';

/** Entries that could not be archived as they were, for the note at the end of the archive. */
export class Skipped {
  readonly lines: string[] = [];
  count = 0;

  add(name: string, reason: SkipReason): void {
    this.count++;
    if (this.lines.length < NOTE_MAX) this.lines.push(`${name}\t${reason}`);
  }

  /** The note entry, named so that it cannot clash with an entry at the top of the archive; null when empty. */
  note(topNames: Set<string>): ArchiveEntry | null {
    if (!this.count) return null;
    let name = NOTE_NAME;
    for (let i = 1; topNames.has(name); i++) name = `.filedeck-skipped(${i}).txt`;
    const more = this.count > this.lines.length ? [`... and ${this.count - this.lines.length} more`] : [];
    const text = ['Filedeck could not archive these entries as they were (name, then why):', ...this.lines, ...more, ''].join('\n');
    const bytes = new TextEncoder().encode(text);
    return { name, dir: false, mode: 0o644, mtime: new Date(), size: bytes.length, body: (async function* () {
      yield bytes;
    })() };
  }
}

function reasonOf(e: unknown): SkipReason {
  if (isAppError(e)) {
    if (e.code === 'NOT_FOUND') return 'missing';
    if (e.code === 'FORBIDDEN') return 'permission denied';
    if (e.code === 'INVALID') return 'not a regular file';
  }
  return 'unreadable';
}

/**
 * Exactly `size` bytes of an open file. A file that shrinks or fails to read is completed with zeros (the tar
 * header already promised `size` bytes) and reported; one that grows is cut at `size`. Never throws: an error
 * event or a rejection escaping here would end the whole archive (or, with stream events, the process).
 */
async function* exactBytes(h: ReadHandle, size: number, mtimeMs: number, report: (r: SkipReason) => void): AsyncGenerator<Uint8Array> {
  let pos = 0;
  let failed = false;
  while (pos < size) {
    const want = Math.min(CHUNK, size - pos);
    if (!failed) {
      const buf = Buffer.allocUnsafe(want);
      const n = await h.read(buf, 0, want, pos).then((r) => r.bytesRead, () => 0);
      if (n > 0) {
        pos += n;
        yield n === want ? buf : buf.subarray(0, n);
        continue;
      }
      failed = true;
      report('changed while archived, padded with zeros');
    }
    pos += want;
    yield ZEROS.subarray(0, want);
  }
  if (failed) return;
  const after = await h.stat().catch(() => null);
  if (!after || after.size !== size || after.mtimeMs !== mtimeMs) report('changed while archived');
}

const fileMode = (mode: number) => (mode & 0o111 ? 0o755 : 0o644);

/**
 * The entries of an archive, in walk order, then the note of what was skipped. Entries the actor may not see
 * (rules, hidden dotfiles) are left out silently, as in listings; entries it may see but that cannot be read
 * (gone, permission denied, not a regular file: FIFOs, sockets and devices are never opened) are left out and
 * named in the note. Each file is opened only when the consumer asks for it and closed before the next one.
 */
export async function* archiveEntries(actor: Actor, items: ArchiveItem[], rel: (path: string) => string, root: string, signal?: AbortSignal): AsyncGenerator<ArchiveEntry> {
  const skipped = new Skipped();
  const top = new Set<string>();
  const named = (path: string) => {
    const name = rel(path);
    top.add(name.split('/')[0]!);
    return name;
  };

  async function* file(path: string, real: string): AsyncGenerator<ArchiveEntry> {
    const name = named(path);
    let opened: { handle: ReadHandle; stats: Stats };
    try {
      opened = await actor.fs.openReal(real);
    } catch (e) {
      skipped.add(name, reasonOf(e));
      return;
    }
    const { handle, stats } = opened;
    try {
      yield { name, dir: false, mode: fileMode(stats.mode), mtime: stats.mtime, size: stats.size, body: exactBytes(handle, stats.size, stats.mtimeMs, (r) => skipped.add(name, r)) };
    } finally {
      // Here, not in the body: a consumer that stops before reading the body never runs the body's own cleanup.
      await handle.close().catch(() => {});
    }
  }

  for (const item of items) {
    if (signal?.aborted) return;
    if (!item.isDir) {
      yield* file(item.path, item.real);
      continue;
    }
    if (item.path !== root) yield { name: named(item.path), dir: true, mode: 0o755, mtime: item.mtime, size: 0 };
    try {
      for await (const e of actor.fs.walk(item.path, (d) => visible(actor, d.path, d.at), signal)) {
        if (signal?.aborted) return;
        if (!visible(actor, e.path, e.at)) continue;
        if (e.isDir) yield { name: named(e.path), dir: true, mode: 0o755, mtime: new Date(), size: 0 };
        else yield* file(e.path, e.real);
      }
    } catch (e) {
      // The folder went away (or became unreadable) after the request was checked.
      skipped.add(item.path === root ? '.' : `${named(item.path)}/`, reasonOf(e));
    }
  }
  const note = skipped.note(top);
  if (note) yield note;
}
