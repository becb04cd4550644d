import type { Resource } from '../../server/contract/resource';
import { requestJson } from './client';

/** A resource as the web app uses it: with its in-app URL, and its index among its siblings. */
export interface WebResource extends Omit<Resource, 'items'> {
  /** In-app route, percent-encoded per segment; folders end with '/'. */
  url: string;
  index: number;
  items?: WebResource[];
}

/** Encodes a decoded virtual path ("/a b/c#d") segment by segment, keeping the slashes. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function withUrls(res: Resource): WebResource {
  const folderUrl = `/files${encodePath(res.path)}`.replace(/\/?$/, '/');
  const { items, ...rest } = res;
  const out: WebResource = { ...rest, url: res.isDir ? folderUrl : `/files${encodePath(res.path)}`, index: 0 };
  if (items) {
    out.items = items.map((item, index) => ({
      ...item,
      items: undefined,
      index,
      url: folderUrl + encodeURIComponent(item.name) + (item.isDir ? '/' : ''),
    }));
  }
  return out;
}

/** GET /api/resources/{path}: a file, or a folder with its items. `path` is decoded ("/a b/"). */
export async function fetchResource(path: string, signal?: AbortSignal): Promise<WebResource> {
  const p = path.startsWith('/') ? path : `/${path}`;
  return withUrls(await requestJson<Resource>(`/resources${encodePath(p)}`, { signal }));
}
