import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import { withoutSecrets } from '../../services/sso/sso-settings';
import { json, readJsonObject } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { textResponse } from '../plugins/error.plugin';

const SETTINGS_LIMIT = 4 * 1024 * 1024;

/** Global settings (admin only). authMethod and authHeader are read-only here; the CLI changes them. */
export function settingsRoutes(s: Services, auth: AuthPlugin) {
  return new Elysia()
    .use(auth)
    .get('/api/settings', () => json(withoutSecrets(s.settings.get())), { auth: 'admin' })
    .put('/api/settings', async ({ request, actor }) => {
      await s.settings.update(await readJsonObject(request, SETTINGS_LIMIT), undefined, actor);
      return textResponse(200);
    }, { auth: 'admin', parse: 'none' });
}
