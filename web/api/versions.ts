import type { QuotaUsage, VersionInfo } from '../../server/contract/versions';
import { pageConfig } from './page-config';
import { request, requestJson } from './client';
import { encodePath } from './resources';

const versionQuery = (id: string) => `?version=${encodeURIComponent(id)}`;

/** GET /api/versions/{path}: the file's kept versions, newest first (needs download). */
export function fetchVersions(path: string, signal?: AbortSignal): Promise<VersionInfo[]> {
  return requestJson<VersionInfo[]>(`/versions${encodePath(path)}`, { signal });
}

/**
 * GET /api/versions/{path}?version=<id>: the URL of one version's bytes for an <img> or a download link (authorised
 * by the session cookie on GET, like /api/raw); `inline` asks for it to be shown rather than saved.
 */
export function versionUrl(path: string, id: string, inline: boolean): string {
  return `${pageConfig.BaseURL}/api/versions${encodePath(path)}${versionQuery(id)}${inline ? '&inline=true' : ''}`;
}

/** The bytes of one version as text (for the preview and the diff). */
export async function fetchVersionText(path: string, id: string, signal?: AbortSignal): Promise<string> {
  return (await request(`/versions${encodePath(path)}${versionQuery(id)}`, { signal })).text();
}

/** POST …?version=<id>&action=restore (needs modify): the current content became version `kept`. */
export function restoreVersion(path: string, id: string): Promise<{ restored: string; kept: string }> {
  return requestJson(`/versions${encodePath(path)}${versionQuery(id)}&action=restore`, { method: 'POST' });
}

/** DELETE /api/versions/{path}?version=<id> (needs delete). */
export async function deleteVersion(path: string, id: string): Promise<void> {
  await request(`/versions${encodePath(path)}${versionQuery(id)}`, { method: 'DELETE' });
}

/** GET /api/account/usage: what the caller's scope holds against its quota. */
export function fetchAccountUsage(signal?: AbortSignal): Promise<QuotaUsage> {
  return requestJson<QuotaUsage>('/account/usage', { signal });
}
