import { existsSync, lstatSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecSandbox } from '../../contract/settings';
import { inside } from '../../fs/scoped-fs';
import type { RuleMask } from './rule-masks';

/** The PATH of every command, inside the sandbox or not. */
export const SAFE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Top-level system paths that are symlinks into /usr on merged-/usr systems, or real folders elsewhere. */
const SYSTEM_LINKS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** What a typical command needs from /etc; no passwd, group, shadow or anything of the server's. */
const ETC_ALWAYS = ['/etc/alternatives', '/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/localtime', '/etc/mime.types'];
/** Name resolution and TLS roots, only when the admin allows the network. */
const ETC_NETWORK = ['/etc/resolv.conf', '/etc/hosts', '/etc/nsswitch.conf', '/etc/gai.conf', '/etc/ssl', '/etc/ca-certificates'];

export interface SandboxOptions {
  /** Absolute path of a bwrap that was seen to work. */
  bwrap: string;
  network: boolean;
  /** Server files (database, config, cache) that must stay invisible even when they lie inside a scope. */
  hidden: string[];
  /** More paths shown read-only at their own place when they exist (a thumbnail program's fonts, the program itself). */
  readOnly?: string[];
}

/** Finds bubblewrap: the configured path, else /usr/bin/bwrap, else PATH. Null when there is none. */
export function findBwrap(configured: string): string | null {
  if (configured) return existsSync(configured) ? configured : null;
  if (existsSync('/usr/bin/bwrap')) return '/usr/bin/bwrap';
  return Bun.which('bwrap');
}

/**
 * The bwrap argv that runs `argv` with only `scope` visible (read-write, at its real path, so FILE and
 * DESTINATION of hooks stay valid), the system read-only, a private /tmp and /proc, no other user's files, no
 * database, no network unless allowed. --die-with-parent plus the private PID namespace mean killing bwrap
 * kills every process the command started; --new-session stops it from reaching the server's terminal.
 * `scope` null: no user folder at all (thumbnail programs, which get their one file as stdin). `masks`: what the
 * user's rules hide inside the scope (rule-masks.ts).
 */
export function sandboxArgv(o: SandboxOptions, scope: string | null, cwd: string, argv: string[], masks: readonly RuleMask[] = []): string[] {
  const a = [o.bwrap, '--unshare-all'];
  if (o.network) a.push('--share-net');
  a.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--ro-bind', '/usr', '/usr');
  for (const p of SYSTEM_LINKS) {
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (st?.isSymbolicLink()) a.push('--symlink', readlinkSync(p), p);
    else if (st?.isDirectory()) a.push('--ro-bind', p, p);
  }
  for (const p of o.network ? [...ETC_ALWAYS, ...ETC_NETWORK] : ETC_ALWAYS) a.push('--ro-bind-try', p, p);
  a.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  // Bound after /tmp's tmpfs so a scope (or a program) under /tmp is not hidden by it.
  for (const p of o.readOnly ?? []) a.push('--ro-bind-try', p, p);
  if (scope) a.push('--bind', scope, scope);
  // What the user's rules deny (rule-masks.ts), parents first; the server's own files are masked after, so nothing
  // shown again by a rule can uncover them.
  for (const m of scope ? masks : []) {
    if (!inside(m.path, scope!)) continue;
    if (!m.hide) a.push('--bind', m.path, m.path);
    else if (m.dir) a.push('--tmpfs', m.path);
    else a.push('--ro-bind', '/dev/null', m.path);
  }
  for (const h of o.hidden) {
    if (!scope || !inside(h, scope)) continue;
    const st = lstatSync(h, { throwIfNoEntry: false });
    if (st?.isDirectory()) a.push('--tmpfs', h);
    else if (st) a.push('--ro-bind', '/dev/null', h);
  }
  a.push('--chdir', cwd, ...argv);
  return a;
}

const probes = new Map<string, Promise<boolean>>();

/** Runs `true` inside a sandbox once per bwrap path (cached): a bwrap that exists may still be unusable (no user namespaces). */
export function bwrapWorks(bwrap: string): Promise<boolean> {
  let p = probes.get(bwrap);
  if (!p) {
    p = probe(bwrap);
    probes.set(bwrap, p);
  }
  return p;
}

async function probe(bwrap: string): Promise<boolean> {
  const trueBin = Bun.which('true', { PATH: SAFE_PATH });
  if (!trueBin) return false;
  const dir = mkdtempSync(join(tmpdir(), 'filedeck-probe-'));
  try {
    const proc = Bun.spawn(sandboxArgv({ bwrap, network: false, hidden: [] }, dir, dir, [trueBin]), {
      env: { PATH: SAFE_PATH },
      stdin: 'ignore',
      stdout: 'ignore',
      stderr: 'ignore',
    });
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
    const code = await proc.exited;
    clearTimeout(timer);
    return code === 0;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ExecModeInput {
  enableExec: boolean;
  bwrapPath: string;
  execUnsafeNoSandbox: boolean;
}

/**
 * How commands and hooks run on this server: 'bubblewrap' (sandboxed), 'none-unsafe' (the admin accepted
 * running them unconfined where bwrap is unusable), or 'off' (exec disabled, or no sandbox and no unsafe flag).
 */
export async function detectExecMode(c: ExecModeInput): Promise<{ mode: ExecSandbox; bwrap: string | null }> {
  if (!c.enableExec) return { mode: 'off', bwrap: null };
  const bwrap = findBwrap(c.bwrapPath);
  if (bwrap && (await bwrapWorks(bwrap))) return { mode: 'bubblewrap', bwrap };
  return { mode: c.execUnsafeNoSandbox ? 'none-unsafe' : 'off', bwrap: null };
}
