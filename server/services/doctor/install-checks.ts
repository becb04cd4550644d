import { accessSync, constants, existsSync, readFileSync, statfsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { failed, ok, warn, type DoctorCheck } from './doctor-check';

const GiB = 1024 ** 3;
const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');
const uid = () => process.getuid?.() ?? -1;

/** The SQLite file and its folder: owner-only (0600 / 0700) and owned by the user running Filedeck. */
export function databaseFileChecks(file: string): DoctorCheck[] {
  if (!existsSync(file)) return [failed('database file', `${file} does not exist`, 'run "filedeck config init", or start the server once, with this database path')];
  const out: DoctorCheck[] = [];
  const st = statSync(file);
  if (st.mode & 0o077) out.push(warn('database file', `${file} is ${octal(st.mode)}: other users may read password hashes and the signing key`, `chmod 600 ${file}`));
  else out.push(ok('database file', `${file} is ${octal(st.mode)}`));
  const dir = dirname(file);
  const ds = statSync(dir);
  if (ds.mode & 0o077) out.push(warn('database folder', `${dir} is ${octal(ds.mode)}: other users can list it (WAL and cache files live there)`, `chmod 700 ${dir}`));
  else out.push(ok('database folder', `${dir} is ${octal(ds.mode)}`));
  if (uid() >= 0 && st.uid !== uid()) out.push(warn('database owner', `${file} belongs to uid ${st.uid}, Filedeck runs as uid ${uid()}`, `chown the database folder to the service user`));
  return out;
}

/** The files root: exists, is a folder, writable and owned by the user running Filedeck, not world-writable. */
export function rootChecks(root: string): DoctorCheck[] {
  if (!existsSync(root)) return [failed('files root', `${root} does not exist`, `if it lives on a disk that is not mounted, mount it; for a new installation mkdir -p ${root} (owned by the service user); or fix "root" in the configuration`)];
  const st = statSync(root);
  if (!st.isDirectory()) return [failed('files root', `${root} is not a folder`, 'point "root" at a folder')];
  try {
    accessSync(root, constants.W_OK | constants.X_OK);
  } catch {
    return [failed('files root', `${root} is not writable by uid ${uid()}`, `chown -R the service user ${root}, or run Filedeck as its owner`)];
  }
  const out = [ok('files root', `${root} exists and is writable`)];
  if (uid() >= 0 && st.uid !== uid()) out.push(warn('files root owner', `${root} belongs to uid ${st.uid}, Filedeck runs as uid ${uid()}`, `chown the root to the service user`));
  if (st.mode & 0o002) out.push(warn('files root mode', `${root} is ${octal(st.mode)}: every local user may write into it`, `chmod o-w ${root}`));
  return out;
}

/** Free space on a volume: warn under 5 % or 1 GiB. */
export function spaceCheck(name: string, path: string): DoctorCheck {
  let target = path;
  while (!existsSync(target) && dirname(target) !== target) target = dirname(target);
  const fs = statfsSync(target);
  const free = fs.bavail * fs.bsize;
  const total = fs.blocks * fs.bsize;
  const pct = total ? (free / total) * 100 : 100;
  const text = `${(free / GiB).toFixed(1)} GiB free of ${(total / GiB).toFixed(1)} GiB (${pct.toFixed(0)} %) at ${target}`;
  if (pct < 5 || free < GiB) return warn(name, text, 'free some space or grow the volume: uploads and the database fail with 507 when it is full');
  return ok(name, text);
}

/** inotify watches: the name index watches one per folder; the distribution default (8192) is soon exhausted. */
export function inotifyCheck(procFile = '/proc/sys/fs/inotify/max_user_watches'): DoctorCheck {
  let n: number;
  try {
    n = Number(readFileSync(procFile, 'utf8').trim());
  } catch {
    return warn('inotify', `${procFile} is not readable: folders cannot be watched for changes`, 'on Linux, check that inotify is available; the index then reconciles periodically');
  }
  if (!(n >= 65536)) return warn('inotify', `max_user_watches is ${n}: big trees fall back to periodic reconciles`, 'echo fs.inotify.max_user_watches=524288 > /etc/sysctl.d/60-filedeck.conf && sysctl --system');
  return ok('inotify', `max_user_watches is ${n}`);
}
