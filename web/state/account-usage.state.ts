import { proxy } from 'valtio/vanilla';
import type { QuotaUsage } from '../../server/contract/versions';
import { fetchAccountUsage } from '../api/versions';

/** The signed-in user's usage against their quota (sidebar bar); null until loaded or when unavailable. */
export const accountUsage = proxy<{ usage: QuotaUsage | null }>({ usage: null });

/** Uploads and deletes come in bursts: one refresh after the burst settles, not one per file. */
export const USAGE_DEBOUNCE_MS = 1500;

let timer: ReturnType<typeof setTimeout> | undefined;
let inFlight: AbortController | null = null;

/** Reads the usage now; a failure (an older server, a signed-out session) only hides the bar. */
export async function loadAccountUsage(): Promise<void> {
  clearTimeout(timer);
  inFlight?.abort();
  const controller = new AbortController();
  inFlight = controller;
  try {
    const usage = await fetchAccountUsage(controller.signal);
    if (inFlight === controller) accountUsage.usage = usage;
  } catch (e) {
    if (inFlight !== controller || (e instanceof DOMException && e.name === 'AbortError')) return;
    accountUsage.usage = null;
  }
}

/** Refreshes the usage once, USAGE_DEBOUNCE_MS after the last write that asked for it. */
export function scheduleAccountUsage(): void {
  clearTimeout(timer);
  timer = setTimeout(() => void loadAccountUsage(), USAGE_DEBOUNCE_MS);
}

/** Near the limit from this share of a quota (warning colours), over it at 100 %. */
export const NEAR_QUOTA = 0.9;

/** The fullest of the quota's measures (bytes, files) as a share, or null without a quota. */
export function quotaShare(u: QuotaUsage): number | null {
  const q = u.quota;
  if (!q || (!q.bytes && !q.files)) return null;
  return Math.max(q.bytes ? u.bytes / q.bytes : 0, q.files ? u.files / q.files : 0);
}
