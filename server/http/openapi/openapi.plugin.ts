import { Elysia } from 'elysia';
import { VERSION } from '../../core/version';
import type { Services } from '../../services/services';
import { json } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { allRouteDocs } from './api-docs';
import { buildDocument, type OpenApiDocument, type RouteEntry } from './build-document';

/**
 * GET /api/openapi.json: the OpenAPI 3.1 document, generated from the app's router (`routes()`, read once on first
 * use, when every route is registered) and the route descriptions. Any logged-in user may read it: it describes
 * what their own token can call, and the web app's admin page lists it.
 */
export function openapiPlugin(s: Services, auth: AuthPlugin, routes: () => RouteEntry[]) {
  let doc: OpenApiDocument | null = null;
  return new Elysia().use(auth).get('/api/openapi.json', () => json((doc ??= buildDocument(routes(), allRouteDocs(), { baseURL: s.config.baseURL, version: VERSION }))), { auth: 'user' });
}
