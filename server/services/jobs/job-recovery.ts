import { hostname } from 'node:os';
import type { JobRow, JobsStore } from '../../db/jobs.store';
import { probeTemp, removeTemp } from '../../fs/temp-file';

/** A job's row is taken for dead (another instance crashed) once its heartbeat is this old. */
export const STALE_MS = 30_000;

/**
 * Whether the process holding a job row is gone: this process, when it no longer holds the job; another process of
 * this host, when its pid is gone (known at once); any other, when its heartbeat is older than STALE_MS.
 */
export function isDead(r: JobRow, now: number, heldHere: (id: number) => boolean): boolean {
  const [host, pid] = r.instance.split(':');
  if (host === hostname() && pid) {
    if (Number(pid) === process.pid) return !heldHere(r.id);
    try {
      process.kill(Number(pid), 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') return true;
    }
  }
  return now - r.heartbeat > STALE_MS;
}

/**
 * Marks unfinished jobs whose process is gone as interrupted (once, whichever instance gets there first) and removes
 * the temp each was writing, only when no live process holds its lock. Returns how many it marked.
 */
export async function interruptDead(store: JobsStore, heldHere: (id: number) => boolean, now: number): Promise<number> {
  let n = 0;
  for (const r of await store.unfinished()) {
    if (heldHere(r.id) || !isDead(r, now, heldHere)) continue;
    const p = r.progress;
    const what = `${p.filesDone} of ${p.filesTotal} files done`;
    const msg = `the server stopped during the job (${what}); every item landed whole or not at all${r.tempPath ? ', and the partial copy was removed' : ''}`;
    if (!(await store.interrupt(r.id, msg, now))) continue;
    n++;
    if (r.tempPath) {
      const t = await probeTemp(r.tempPath);
      if (t && !t.held) await removeTemp(r.tempPath);
    }
  }
  return n;
}
