import type { Resource } from '../../server/contract/resource';
import { pageConfig } from './page-config';
import { requestJson } from './client';
import { encodePath } from './resources';

/** A public share answer: a resource whose paths are relative to the share, plus the token of a password share. */
export interface PublicResource extends Resource {
  token?: string;
}

/**
 * GET /api/public/share/{hash}{path}: no login token is sent. The password, when given, travels URL-encoded in
 * X-SHARE-PASSWORD. 401 = a password is needed or was wrong, 429 = too many attempts.
 */
export function fetchPublicShare(hash: string, path: string, password?: string, signal?: AbortSignal): Promise<PublicResource> {
  const headers: Record<string, string> = {};
  if (password) headers['X-SHARE-PASSWORD'] = encodeURIComponent(password);
  return requestJson<PublicResource>(`/public/share/${encodeURIComponent(hash)}${encodePath(path)}`, { headers, auth: false, signal });
}

export interface PublicDownloadOptions {
  /** The share token (password shares only). */
  token?: string;
  /** Open in the browser instead of saving (files). */
  inline?: boolean;
  /** Archive format for folders and selections. */
  algo?: string;
  /** A selection inside the folder: decoded paths relative to the share. */
  files?: string[];
}

/** The address of GET /api/public/dl/{hash}{path} with its query; absolute, so it also serves as a QR payload. */
export function publicDownloadUrl(hash: string, path: string, opts: PublicDownloadOptions = {}): string {
  const q: string[] = [];
  if (opts.files?.length) q.push(`files=${encodeURIComponent(opts.files.map(encodePath).join(','))}`);
  if (opts.algo) q.push(`algo=${encodeURIComponent(opts.algo)}`);
  if (opts.inline) q.push('inline=true');
  if (opts.token) q.push(`token=${encodeURIComponent(opts.token)}`);
  const sub = path === '/' || path === '' ? '' : encodePath(path);
  const base = `${window.location.origin}${pageConfig.BaseURL}/api/public/dl/${encodeURIComponent(hash)}${sub}`;
  return q.length ? `${base}?${q.join('&')}` : base;
}
