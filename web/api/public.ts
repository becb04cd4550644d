import type { Resource } from '../../server/contract/resource';
import { SHARE_MODES, type PublicUploadRoom, type ShareMode } from '../../server/contract/share';
import { pageConfig } from './page-config';
import { requestJson } from './client';
import { encodePath } from './resources';

/**
 * A public share answer: a resource whose paths are relative to the share, plus the token of a password share.
 * Shares v2 (decision 0051) adds the link's `mode` and, for file requests, `upload`: what the link still accepts.
 * A Resource's `mode` is also the reference's numeric file mode, so both shapes are read here.
 */
export interface PublicResource extends Omit<Resource, 'mode'> {
  token?: string;
  mode?: number | ShareMode;
  upload?: PublicUploadRoom;
}

/** The link's mode; a server that predates shares v2 sends none (or a file mode number): its links are view links. */
export const shareMode = (res: Pick<PublicResource, 'mode'>): ShareMode =>
  (SHARE_MODES as readonly unknown[]).includes(res.mode) ? (res.mode as ShareMode) : 'view';

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

/**
 * GET /api/public/preview/{thumb|big}/{hash}{path}: an image's thumbnail (the gallery's tiles) or big preview (the
 * slideshow) through the link, keyed by the file's time so a changed file is fetched again.
 */
export function publicPreviewUrl(size: 'thumb' | 'big', hash: string, path: string, modified: string, token?: string): string {
  const key = Date.parse(modified);
  const q = `key=${Number.isNaN(key) ? 0 : key}${token ? `&token=${encodeURIComponent(token)}` : ''}`;
  return `${window.location.origin}${pageConfig.BaseURL}/api/public/preview/${size}/${encodeURIComponent(hash)}${encodePath(path)}?${q}`;
}

/** Base of a public route for one share: `${BaseURL}/api/public/<kind>/<hash>`. */
export const publicBase = (kind: 'dl' | 'subtitle' | 'tus' | 'upload', hash: string) =>
  `${window.location.origin}${pageConfig.BaseURL}/api/public/${kind}/${encodeURIComponent(hash)}`;

/** A subtitle file beside a shared video, converted to WebVTT by the server (GET /api/public/subtitle). */
export function publicSubtitleUrl(hash: string, path: string, token?: string): string {
  const url = `${publicBase('subtitle', hash)}${encodePath(path)}`;
  return token ? `${url}?token=${encodeURIComponent(token)}` : url;
}

/** A shared text file's content (for the inline text and Markdown views), read through the inline download. */
export async function fetchPublicText(hash: string, path: string, token?: string, signal?: AbortSignal): Promise<string> {
  const res = await fetch(publicDownloadUrl(hash, path, { token, inline: true }), { signal, credentials: 'omit' });
  if (!res.ok) throw new Error(`${res.status}`);
  return res.text();
}
