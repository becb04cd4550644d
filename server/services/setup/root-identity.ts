import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, opendirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../core/errors';
import type { RootIdentity, RootIdentityStore } from '../../db/root-identity.store';
import { TRASH_DIR } from '../../fs/trash-fs';

/**
 * Is the files root the one this database served before? A root that is missing, empty where it held files, or
 * another folder or disk than the one recorded (a NAS not mounted yet at boot, a mount point left empty, a typo in
 * `--root`) must not be served: links, trash rows and index entries all name real locations in it, and uploads
 * would land on the wrong disk. `filedeck serve` refuses to start on such a root with a message saying why and what
 * to do (`holdRoot`); `filedeck doctor` says the same (`rootVerdict`, read only).
 *
 * The identity: the root folder's device and inode, and a marker file holding a random id, kept where no user
 * path reaches (inside the trash folder, which is never listed, searched, walked or given to a command). The
 * marker decides when present: the same id means the same root even on another device number (a remount, a disk
 * copied whole, a network filesystem on another host), and the record follows it. Without a marker, the device
 * and inode must be the recorded ones and the root must not be empty where it held files.
 */

/** Where the marker lives inside a root. */
export const markerPath = (root: string) => join(root, TRASH_DIR, '.root-id');

/** What the start-up check found. */
export type RootVerdict =
  | { ok: true; first: boolean; identity: RootIdentity; changed: string | null; writeMarker: boolean }
  | { ok: false; reason: 'missing' | 'not-a-folder' | 'empty' | 'other-device' | 'other-folder' | 'other-root'; message: string; fix: string };

const ACCEPT = 'if this root is the right one (a deliberate move or a new disk), start once with `filedeck serve --accept-new-root`';

function readMarker(root: string): string | null {
  try {
    const text = readFileSync(markerPath(root), 'utf8').trim();
    return /^[A-Za-z0-9_-]{8,64}$/.test(text) ? text : null;
  } catch {
    return null;
  }
}

/** True when the root holds something besides the server's own names (`.filedeck-*`: the trash, temps). */
function holdsFiles(root: string): boolean {
  const dir = opendirSync(root);
  try {
    for (let d = dir.readSync(); d; d = dir.readSync()) if (!d.name.startsWith('.filedeck-')) return true;
    return false;
  } finally {
    dir.closeSync();
  }
}

/**
 * Compares the root on disk with the recorded identity (null: never recorded). Reads the disk only. `hasLinks`
 * tells a root never recorded (an older version served it) that links exist: an empty or missing root is then
 * refused as well, since links cannot point into nothing.
 */
export function rootVerdict(root: string, recorded: RootIdentity | null, hasLinks = false): RootVerdict {
  const mount = 'is its disk mounted? Mount it (or fix "root" in the configuration), then start again';
  let st;
  try {
    st = statSync(root);
  } catch {
    if (!recorded && !hasLinks) return { ok: true, first: true, identity: fresh(root, null), changed: null, writeMarker: true };
    return { ok: false, reason: 'missing', message: `the files root ${root} does not exist, but this database served files from it`, fix: `${mount}; ${ACCEPT}` };
  }
  if (!st.isDirectory()) return { ok: false, reason: 'not-a-folder', message: `the files root ${root} is not a folder`, fix: 'point "root" at the folder of your files' };
  const marker = readMarker(root);
  let held: boolean;
  try {
    held = holdsFiles(root);
  } catch (e) {
    return { ok: false, reason: 'not-a-folder', message: `the files root ${root} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`, fix: 'run Filedeck as the user owning the root, or fix its permissions' };
  }
  const here = { device: String(st.dev), inode: String(st.ino) };
  if (!recorded) {
    if (!held && hasLinks && !marker)
      return { ok: false, reason: 'empty', message: `the files root ${root} is empty, but this database holds links to files in it`, fix: `${mount}; ${ACCEPT}` };
    return { ok: true, first: true, identity: { ...fresh(root, marker), ...here, heldFiles: held }, changed: null, writeMarker: !marker };
  }
  const keep = (changed: string | null, writeMarker = false): RootVerdict => ({
    ok: true,
    first: false,
    identity: { root, ...here, marker: recorded.marker, heldFiles: recorded.heldFiles || held, recordedAt: Date.now() },
    changed,
    writeMarker,
  });
  if (marker === recorded.marker) {
    const moved = [recorded.root !== root && `path ${recorded.root} → ${root}`, recorded.device !== here.device && `device ${recorded.device} → ${here.device}`, recorded.inode !== here.inode && `inode ${recorded.inode} → ${here.inode}`].filter(Boolean);
    return keep(moved.length ? `the files root holds its marker; recorded anew (${moved.join(', ')})` : null);
  }
  if (marker !== null)
    return { ok: false, reason: 'other-root', message: `the files root ${root} holds another root's marker (${marker}, this database served ${recorded.marker} at ${recorded.root})`, fix: `point "root" at the folder this database served; ${ACCEPT}` };
  // No marker (never written by an older version, or removed by hand): the device and inode must match.
  if (here.device !== recorded.device)
    return { ok: false, reason: 'other-device', message: `the files root ${root} is on device ${here.device}, but it was on device ${recorded.device} when last served, and its marker is missing`, fix: `${mount}; ${ACCEPT}` };
  if (here.inode !== recorded.inode)
    return { ok: false, reason: 'other-folder', message: `the files root ${root} is another folder than the one last served (inode ${here.inode}, was ${recorded.inode}), and its marker is missing`, fix: `${mount}; ${ACCEPT}` };
  if (!held && recorded.heldFiles)
    return { ok: false, reason: 'empty', message: `the files root ${root} is empty and its marker is missing, but it held files when last served`, fix: `${mount}; ${ACCEPT}` };
  return keep('the files root\'s marker was missing; written again', true);
}

function fresh(root: string, marker: string | null): RootIdentity {
  return { root, device: '', inode: '', marker: marker ?? randomBytes(18).toString('base64url'), heldFiles: false, recordedAt: Date.now() };
}

/**
 * The root's marker: the one there, or `proposed` written when there is none. Written by a hard link from a
 * private temp, which fails when the name exists: two processes starting at once both end with the same marker.
 */
function ensureMarker(root: string, proposed: string): string {
  const found = readMarker(root);
  if (found) return found;
  const dir = join(root, TRASH_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = join(dir, `.root-id.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  writeFileSync(tmp, `${proposed}\n`, { mode: 0o600 });
  try {
    linkSync(tmp, markerPath(root));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    // Someone else's marker won the name; an unreadable one (cut short, edited) is replaced.
    if (!readMarker(root)) renameSync(tmp, markerPath(root));
  } finally {
    rmSync(tmp, { force: true });
  }
  return readMarker(root) ?? proposed;
}

/**
 * `filedeck serve`, before anything touches the root: serve only the root this database served before (first
 * start: record it). Throws a clear error otherwise, unless `accept` (`--accept-new-root`): the root found (made
 * when missing) is then recorded as this database's root. Returns a line to log when something was recorded anew.
 */
export async function holdRoot(store: RootIdentityStore, root: string, opts: { accept?: boolean; hasLinks?: () => Promise<boolean> } = {}): Promise<string | null> {
  const recorded = await store.get();
  const verdict = rootVerdict(root, recorded, !recorded && opts.hasLinks ? await opts.hasLinks() : false);
  if (verdict.ok && !verdict.first) {
    if (verdict.writeMarker) ensureMarker(root, verdict.identity.marker);
    const same = recorded!.root === root && recorded!.device === verdict.identity.device && recorded!.inode === verdict.identity.inode && recorded!.heldFiles === verdict.identity.heldFiles;
    if (!same) await store.put(verdict.identity);
    return verdict.changed;
  }
  if (!verdict.ok && !opts.accept) throw new AppError('UNAVAILABLE', `${verdict.message}. Not serving it: ${verdict.fix}. "filedeck doctor" says the same.`);
  // A first start, or a root accepted by the operator: recorded as it is now (made when missing, as a first start
  // always did), with the marker it holds or a new one.
  mkdirSync(root, { recursive: true, mode: 0o755 });
  const found = rootVerdict(root, null);
  if (!found.ok) throw new AppError('UNAVAILABLE', `${found.message}: ${found.fix}`);
  const st = statSync(root);
  const identity = { ...found.identity, device: String(st.dev), inode: String(st.ino) };
  identity.marker = ensureMarker(root, identity.marker);
  if (!verdict.ok) {
    await store.put(identity);
    return `--accept-new-root: ${root} is now this database's files root (${verdict.message})`;
  }
  await store.insertIfAbsent(identity);
  // Another instance may have recorded first: the root must be the one it recorded.
  const now = await store.get();
  if (now && now.marker !== identity.marker) {
    const again = rootVerdict(root, now);
    if (!again.ok) throw new AppError('UNAVAILABLE', `${again.message}. Not serving it: ${again.fix}.`);
  }
  return null;
}
