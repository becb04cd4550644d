import { pageConfig } from './page-config';
import { request } from './client';
import { encodePath } from './resources';

// Media elements, iframes and download links cannot send X-Auth: these GET URLs are authorised by the `auth`
// cookie the session keeps (the server reads it on GET only).
const api = () => `${pageConfig.BaseURL}/api`;

/** GET /api/raw{path}: the file itself, shown inline (`inline`) or as an attachment download. */
export function rawUrl(path: string, inline: boolean): string {
  return `${api()}/raw${encodePath(path)}${inline ? '?inline=true' : ''}`;
}

/** GET /api/subtitle{path}: a subtitle file as WebVTT (the server converts SRT and ASS), for a <track>. */
export function subtitleUrl(path: string): string {
  return `${api()}/subtitle${encodePath(path)}`;
}

/** GET /api/preview/big{path}: the resized image, cache-keyed by the modification time (spec §9). */
export function bigPreviewUrl(path: string, modified: string): string {
  const key = Date.parse(modified);
  return `${api()}/preview/big${encodePath(path)}?inline=true&key=${Number.isNaN(key) ? 0 : key}`;
}

/** The bytes of a file (for images decoded in the browser). */
export async function fetchRawBytes(path: string, signal?: AbortSignal): Promise<ArrayBuffer> {
  return (await request(`/raw${encodePath(path)}?inline=true`, { signal })).arrayBuffer();
}

/** The current content of a text file (for the Versions panel's diff). */
export async function fetchRawText(path: string, signal?: AbortSignal): Promise<string> {
  return (await request(`/raw${encodePath(path)}?inline=true`, { signal })).text();
}
