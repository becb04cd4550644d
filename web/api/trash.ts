import type { RestoreConflict, TrashItem, TrashSettings } from '../../server/contract/trash';
import { request, requestJson } from './client';

export interface TrashListing {
  /** The trash settings that apply to the caller (is DELETE a move to the trash?). */
  settings: TrashSettings;
  items: TrashItem[];
}

/** GET /api/trash: the caller's trashed items, newest first (admins: everyone's). */
export function fetchTrash(signal?: AbortSignal): Promise<TrashListing> {
  return requestJson<TrashListing>('/trash', { signal });
}

/** POST /api/trash/{id}/restore[?conflict=]: back where it was deleted from; 409 when the name is taken. Answers where it landed. */
export async function restoreTrashItem(id: string, conflict?: Exclude<RestoreConflict, 'fail'>): Promise<string> {
  const q = conflict ? `?conflict=${conflict}` : '';
  return (await requestJson<{ path: string }>(`/trash/${encodeURIComponent(id)}/restore${q}`, { method: 'POST' })).path;
}

/** DELETE /api/trash/{id}: deletes one item for good. */
export async function removeTrashItem(id: string): Promise<void> {
  await request(`/trash/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** DELETE /api/trash: empties the caller's trash; answers how many items went. */
export async function emptyTrash(): Promise<number> {
  return (await requestJson<{ deleted: number }>('/trash', { method: 'DELETE' })).deleted;
}
