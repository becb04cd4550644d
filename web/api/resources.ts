import type { Resource } from '../../server/contract/resource';
import type { User } from '../../server/contract/user';
import type { ArchiveFormat } from '../../server/contract/archive';
import { pageConfig } from './page-config';
import { request, requestJson } from './client';

/** A resource as the web app uses it: with its in-app URL, and its index among its siblings. */
export interface WebResource extends Omit<Resource, 'items'> {
  /** In-app route, percent-encoded per segment; folders end with '/'. */
  url: string;
  index: number;
  items?: WebResource[];
  /**
   * Only while a big folder is still arriving (web/api/folder-slots.ts): every place of the folder (its whole count),
   * undefined where the item has not arrived yet. `items` then holds the places filled from the start, in order.
   */
  slots?: readonly (WebResource | undefined)[];
  checksums?: Record<string, string>;
}

/** Encodes a decoded virtual path ("/a b/c#d") segment by segment, keeping the slashes. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** The in-app URL of a folder's listing, ending in '/'. */
export const folderUrlOf = (path: string) => `/files${encodePath(path)}`.replace(/\/?$/, '/');

/**
 * Turns items freshly parsed from the folder whose listing URL is `folderUrl` into WebResources, in place (they
 * are nobody else's): their index among the siblings counts from `start`, and nested items are dropped.
 */
export function asWebItems(items: Resource[], folderUrl: string, start: number): WebResource[] {
  const out = items as unknown as WebResource[];
  for (let k = 0; k < out.length; k++) {
    const item = out[k]!;
    item.items = undefined;
    item.index = start + k;
    item.url = folderUrl + encodeURIComponent(item.name) + (item.isDir ? '/' : '');
  }
  return out;
}

/** A resource freshly parsed from the API as a WebResource (its items converted in place). */
export function withUrls(res: Resource): WebResource {
  const folderUrl = folderUrlOf(res.path);
  const { items, ...rest } = res;
  const out: WebResource = { ...rest, url: res.isDir ? folderUrl : `/files${encodePath(res.path)}`, index: 0 };
  if (items) out.items = asWebItems(items, folderUrl, 0);
  return out;
}

export const absolute = (path: string) => (path.startsWith('/') ? path : `/${path}`);

/** The API path (under `<baseURL>/api`) of a resource's GET, for a decoded path. */
export const resourceApiPath = (path: string) => `/resources${encodePath(absolute(path))}`;

/**
 * Items of a folder's first page: more than any screen shows at once. A folder opened on the files screen is asked
 * for this page first (the whole of a smaller folder), then, once it is painted, for all of its items.
 */
export const FIRST_PAGE = 256;

/** The API path of a resource's first page (for a file, the page is ignored: the same answer as resourceApiPath). */
export const firstPageApiPath = (path: string) => `${resourceApiPath(path)}?limit=${FIRST_PAGE}`;

/** The API path of places [offset, offset + limit) of a folder's items, in the listing's order. */
export const rangeApiPath = (path: string, offset: number, limit: number) => `${resourceApiPath(path)}?offset=${offset}&limit=${limit}`;

/** GET /api/resources/{path}: a file, or a folder with its items. `path` is decoded ("/a b/"). */
export async function fetchResource(path: string, signal?: AbortSignal): Promise<WebResource> {
  return withUrls(await requestJson<Resource>(resourceApiPath(path), { signal }));
}

/** GET /api/resources/{path}?checksum={algo}: one checksum of a file, computed on demand. */
export async function fetchChecksum(path: string, algo: string): Promise<string> {
  const res = await requestJson<{ checksums?: Record<string, string> }>(`${resourceApiPath(path)}?checksum=${encodeURIComponent(algo)}`);
  return res.checksums?.[algo] ?? '';
}

/** An entry of GET /api/tree/{path}: every descendant of a folder. */
export interface TreeEntry {
  path: string;
  name: string;
  isDir: boolean;
}

/**
 * GET /api/tree/{path}: the whole tree under a folder (used to find upload conflicts). Not the reference's
 * `/resources/recursive/{path}`, which would shadow a folder named "recursive" at the scope root.
 */
export function fetchTree(path: string, signal?: AbortSignal): Promise<TreeEntry[]> {
  return requestJson<TreeEntry[]>(`/tree${encodePath(absolute(path))}`, { signal });
}

/** POST /api/resources/{path}: an empty body makes an empty file, a path ending in '/' a folder. 409 = exists. */
export async function createResource(path: string, override = false): Promise<void> {
  await request(`${resourceApiPath(path)}?override=${override}`, { method: 'POST', body: '' });
}

/** DELETE /api/resources/{path}: into the trash when it is on (answers the trash item's id, for an undo), else for good (null). */
export async function removeResource(path: string): Promise<string | null> {
  const res = await request(resourceApiPath(path), { method: 'DELETE' });
  return res.headers.get('X-Trash-Id');
}

export interface TransferOptions {
  override?: boolean;
  rename?: boolean;
}

/**
 * PATCH /api/resources/{from}?action=copy|rename: copies or moves `from` to `to` (both decoded paths). The
 * destination is percent-encoded per segment and then once more as a query value, as the server expects.
 */
export async function transfer(action: 'copy' | 'rename', from: string, to: string, opts: TransferOptions = {}): Promise<void> {
  const destination = encodeURIComponent(encodePath(absolute(to)));
  const q = `action=${action}&destination=${destination}&override=${!!opts.override}&rename=${!!opts.rename}`;
  await request(`${resourceApiPath(from)}?${q}`, { method: 'PATCH' });
}

/** PUT /api/users/{id} with only the listing preferences (view mode, sorting); no password is needed for these. */
export async function saveListingPrefs(id: number, data: Partial<Pick<User, 'viewMode' | 'sorting'>>): Promise<void> {
  await request(`/users/${id}`, { method: 'PUT', json: { what: 'user', which: Object.keys(data), data: { id, ...data } } });
}

const apiRoot = () => `${pageConfig.BaseURL}/api`;

/**
 * The download URL of one item (a file as is, a folder as an archive in `algo`), or of several items as one
 * archive: `/api/raw/?files=<encodeURIComponent(list of encoded paths)>&algo=`. The auth cookie does the login.
 */
export function downloadUrl(paths: string[], algo?: ArchiveFormat): string {
  const format = algo ? `algo=${encodeURIComponent(algo)}` : '';
  if (paths.length === 1) return `${apiRoot()}/raw${encodePath(absolute(paths[0]!))}${format ? `?${format}` : ''}`;
  const files = encodeURIComponent(paths.map((p) => encodePath(absolute(p))).join(','));
  return `${apiRoot()}/raw/?files=${files}${format ? `&${format}` : ''}`;
}

/** A thumbnail URL; the modification time is the cache key so a changed image is fetched again. */
export function thumbnailUrl(item: Pick<WebResource, 'path' | 'modified'>): string {
  return `${apiRoot()}/preview/thumb${encodePath(absolute(item.path))}?inline=true&key=${Date.parse(item.modified)}`;
}
