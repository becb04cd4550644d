import type { Settings } from '../../server/contract/settings';
import { request, requestJson } from './client';

/** The fields PUT /api/settings accepts (authMethod and authHeader are changed from the CLI only). */
export type SettingsUpdate = Omit<Settings, 'authMethod' | 'authHeader'>;

/** GET /api/settings (admin). */
export function getSettings(): Promise<Settings> {
  return requestJson<Settings>('/settings');
}

/** PUT /api/settings (admin): a bad rule regex or value is a 400 whose message names it. */
export async function putSettings(settings: SettingsUpdate): Promise<void> {
  await request('/settings', { method: 'PUT', json: settings });
}
