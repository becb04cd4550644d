import type { Share, ShareAccess, ShareChange } from '../../server/contract/share';
import { pageConfig } from './page-config';
import { request, requestJson } from './client';
import { encodePath } from './resources';

export { MAX_SHARE_DURATION, SHARE_MODES, SHARE_UNITS, type ShareMode, type ShareUnit } from '../../server/contract/share';

const apiPath = (path: string) => `/share${encodePath(path.startsWith('/') ? path : `/${path}`)}`;
const linkPath = (hash: string) => `/share/${encodeURIComponent(hash)}`;

/** GET /api/share/{path}: the links to one item. */
export function fetchSharesOf(path: string): Promise<Share[]> {
  return requestJson<Share[]>(apiPath(path));
}

/** GET /api/shares: every link the user may see (all users' for an admin). */
export function fetchAllShares(): Promise<Share[]> {
  return requestJson<Share[]>('/shares');
}

/**
 * What the create form sends: the reference's fields (a count of `unit`s, 0 or left out = permanent; a password)
 * and, only when the owner opened "more options", the v2 fields of decision 0051.
 */
export type NewShare = Omit<ShareChange, 'expires'> & { expires?: number };

/** POST /api/share/{path}: creates a link; `expires` is sent only when given (spec §5), v2 fields only when set. */
export function createShare(path: string, opts: NewShare = {}): Promise<Share> {
  const { password, expires, unit, ...more } = opts;
  const body: Record<string, unknown> = { password: password ?? '', ...more };
  if (expires) {
    body.expires = String(expires);
    body.unit = unit ?? 'hours';
  }
  return requestJson<Share>(apiPath(path), { method: 'POST', json: body });
}

/** PATCH /api/share/{hash}: changes a link in place; its URL stays. */
export function updateShare(hash: string, change: ShareChange): Promise<Share> {
  return requestJson<Share>(linkPath(hash), { method: 'PATCH', json: change });
}

/** POST /api/share/{hash}/regenerate: a new random hash; the old URL (and slug) stop working. */
export function regenerateShare(hash: string): Promise<Share> {
  return requestJson<Share>(`${linkPath(hash)}/regenerate`, { method: 'POST' });
}

/** GET /api/share/{hash}/log: access lines newest first; `before` (a line id) pages back. */
export function fetchShareLog(hash: string, opts: { limit?: number; before?: number } = {}): Promise<ShareAccess[]> {
  const q = new URLSearchParams();
  if (opts.limit) q.set('limit', String(opts.limit));
  if (opts.before) q.set('before', String(opts.before));
  const qs = q.toString();
  return requestJson<ShareAccess[]>(`${linkPath(hash)}/log${qs ? `?${qs}` : ''}`);
}

/** DELETE /api/share/{hash}. */
export async function deleteShare(hash: string): Promise<void> {
  await request(linkPath(hash), { method: 'DELETE' });
}

/** The public address of a link: `${origin}${BaseURL}/share/${slug or hash}`. */
export function shareUrl(hashOrSlug: string): string {
  return `${window.location.origin}${pageConfig.BaseURL}/share/${encodeURIComponent(hashOrSlug)}`;
}
