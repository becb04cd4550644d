import { proxy } from 'valtio/vanilla';
import type { ResourceType } from '../../server/contract/resource';
import { fetchRawBytes } from '../api/preview';
import { fetchResource, type WebResource } from '../api/resources';
import { goTo } from './navigation';

/** Siblings the previewer steps through (spec §4 Preview): media and blobs; folders, PDFs and text are skipped. */
const NAVIGABLE: ReadonlySet<ResourceType> = new Set(['image', 'video', 'audio', 'blob']);

interface PreviewState {
  /** The decoded path of the file on show. */
  path: string;
  /** In-app URLs (`/files/...`) of the previous and next navigable siblings, and of the folder. */
  prev: string | null;
  next: string | null;
  folder: string;
  /** Show the original image instead of the resized preview (kept while stepping through images). */
  fullSize: boolean;
}

export const previewState = proxy<PreviewState>({ path: '', prev: null, next: null, folder: '/files/', fullSize: false });

const parentOf = (path: string) => path.replace(/\/[^/]*\/?$/, '') || '/';
const folderUrlOf = (parent: string) => `/files${parent.split('/').map(encodeURIComponent).join('/')}`.replace(/\/?$/, '/');

let current: AbortController | null = null;
/** The last folder listed: stepping through one folder finds the neighbours at once, before the refresh lands. */
let cached: { parent: string; items: readonly WebResource[] } | null = null;

function neighbours(items: readonly WebResource[], name: string): { prev: string | null; next: string | null } | null {
  const at = items.findIndex((i) => i.name === name);
  if (at < 0) return null;
  const find = (step: 1 | -1) => {
    for (let i = at + step; i >= 0 && i < items.length; i += step) {
      const item = items[i];
      if (item && !item.isDir && NAVIGABLE.has(item.type)) return item.url;
    }
    return null;
  };
  return { prev: find(-1), next: find(1) };
}

/** Loads the parent folder of `path` to find the previous and next siblings. A stale answer is ignored. */
export async function loadSiblings(path: string): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  const parent = parentOf(path);
  const name = path.slice(path.lastIndexOf('/') + 1);
  const known = cached?.parent === parent ? neighbours(cached.items, name) : null;
  previewState.path = path;
  previewState.folder = folderUrlOf(parent);
  previewState.prev = known?.prev ?? null;
  previewState.next = known?.next ?? null;
  try {
    const folder = await fetchResource(parent, controller.signal);
    if (current !== controller) return;
    cached = { parent, items: folder.items ?? [] };
    const found = neighbours(cached.items, name);
    previewState.prev = found?.prev ?? null;
    previewState.next = found?.next ?? null;
  } catch (e) {
    if (current === controller && !(e instanceof DOMException && e.name === 'AbortError')) console.warn('filedeck: could not load the siblings', e);
  }
}

/** The previewer is gone: forget its siblings. */
export function closePreview(): void {
  current?.abort();
  current = null;
  previewState.path = '';
  previewState.prev = null;
  previewState.next = null;
}

export function toggleFullSize(): void {
  previewState.fullSize = !previewState.fullSize;
}

/**
 * Called by the files screen once the previewed file was deleted: shows the next sibling, else the previous one,
 * else the folder. The deleted file's URL is replaced in the history (going back to it would only give a 404).
 */
export function afterPreviewDelete(): void {
  const target = previewState.next ?? previewState.prev ?? previewState.folder;
  closePreview();
  goTo(target, true);
}

/** Decoded RGBA pixels of an image the browser cannot show by itself. */
export interface DecodedImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** TIFF and the camera formats built on it (DNG, CR2, NEF), decoded in the browser. */
export const DECODED_IN_BROWSER = /\.(tiff?|dng|cr2|nef)$/i;

/** Fetches and decodes a TIFF-family file; UTIF is loaded only now (it is large and rarely needed). */
export async function decodeTiff(path: string, signal: AbortSignal): Promise<DecodedImage> {
  const [bytes, mod] = await Promise.all([fetchRawBytes(path, signal), import('utif')]);
  const UTIF = (mod as unknown as { default?: typeof mod }).default ?? mod; // a CommonJS module
  const ifds = UTIF.decode(bytes);
  // Camera files hold several images (thumbnails, previews, raw data): show the largest one that decodes.
  const candidates = ifds.flatMap((ifd) => [ifd, ...(ifd.subIFD ?? [])]);
  const area = (ifd: (typeof candidates)[number]) => (ifd.t256?.[0] ?? 0) * (ifd.t257?.[0] ?? 0);
  candidates.sort((a, b) => area(b) - area(a));
  for (const ifd of candidates) {
    try {
      UTIF.decodeImage(bytes, ifd, ifds);
      const data = UTIF.toRGBA8(ifd);
      if (ifd.width > 0 && ifd.height > 0 && data.length >= ifd.width * ifd.height * 4) return { width: ifd.width, height: ifd.height, data };
    } catch {
      // try the next image in the file
    }
  }
  throw new Error('no decodable image in the file');
}
