import type { Share } from '../../server/contract/share';
import { pageConfig } from './page-config';
import { request, requestJson } from './client';
import { encodePath } from './resources';

import type { ShareUnit } from '../../server/contract/share';
export { MAX_SHARE_DURATION, SHARE_UNITS, type ShareUnit } from '../../server/contract/share';

const apiPath = (path: string) => `/share${encodePath(path.startsWith('/') ? path : `/${path}`)}`;

/** GET /api/share/{path}: the links to one item. */
export function fetchSharesOf(path: string): Promise<Share[]> {
  return requestJson<Share[]>(apiPath(path));
}

/** GET /api/shares: every link the user may see (all users' for an admin). */
export function fetchAllShares(): Promise<Share[]> {
  return requestJson<Share[]>('/shares');
}

export interface NewShare {
  password?: string;
  /** A count of `unit`s; left out (or 0) for a permanent link. */
  expires?: number;
  unit?: ShareUnit;
}

/** POST /api/share/{path}: creates a link; `expires` is sent only when given (spec §5). */
export function createShare(path: string, opts: NewShare = {}): Promise<Share> {
  const body: Record<string, string> = { password: opts.password ?? '' };
  if (opts.expires) {
    body.expires = String(opts.expires);
    body.unit = opts.unit ?? 'hours';
  }
  return requestJson<Share>(apiPath(path), { method: 'POST', json: body });
}

/** DELETE /api/share/{hash}. */
export async function deleteShare(hash: string): Promise<void> {
  await request(`/share/${encodeURIComponent(hash)}`, { method: 'DELETE' });
}

/** The public address of a link: `${origin}${BaseURL}/share/${hash}`. */
export function shareUrl(hash: string): string {
  return `${window.location.origin}${pageConfig.BaseURL}/share/${encodeURIComponent(hash)}`;
}
