import { proxy } from 'valtio/vanilla';
import { fetchUsage } from '../api/usage';

/** Disk usage of the volume holding the current folder (sidebar meter). */
export const usage = proxy<{ path: string; used: number; total: number; loaded: boolean }>({ path: '', used: 0, total: 0, loaded: false });

let current: AbortController | null = null;

/** Loads the usage for a folder; failures only hide the meter. */
export async function loadUsage(path: string): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  usage.path = path;
  try {
    const u = await fetchUsage(path, controller.signal);
    if (current !== controller) return;
    usage.used = u.used;
    usage.total = u.total;
    usage.loaded = true;
  } catch (e) {
    if (current !== controller) return;
    usage.loaded = false;
    if (!(e instanceof DOMException && e.name === 'AbortError')) console.warn('filedeck: usage unavailable', e);
  }
}
