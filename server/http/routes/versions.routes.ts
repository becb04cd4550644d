import { Elysia } from 'elysia';
import { invalid } from '../../core/errors';
import { baseName } from '../../fs/virtual-path';
import type { Actor } from '../../services/actor';
import type { Services } from '../../services/services';
import { json } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { pathAfter } from '../request-path';
import { sendFile } from '../send-file';

type Ctx = { request: Request; actor: Actor };

/**
 * Versions of a file (docs/decisions/0047): list, download one (`?version=`), restore one (`&action=restore`),
 * delete one. Signed-in users only: a public share's actor never reaches these routes. The service decides.
 */
export function versionsRoutes(s: Services, auth: AuthPlugin) {
  const P = `${s.config.baseURL}/api/versions`;
  const target = (request: Request) => {
    const q = new URL(request.url).searchParams;
    return { path: pathAfter(request, P).path, version: q.get('version'), action: q.get('action'), inline: q.get('inline') === 'true' };
  };
  const get = async ({ request, actor }: Ctx) => {
    const { path, version, inline } = target(request);
    if (version === null) return json(await s.versions.list(actor, path));
    const { handle, stats } = await s.versions.open(actor, path, version);
    return sendFile(request, { handle, stats }, baseName(path) || 'file', inline);
  };
  const post = async ({ request, actor }: Ctx) => {
    const { path, version, action } = target(request);
    if (action !== 'restore') throw invalid('action must be restore');
    return json(await s.versions.restore(actor, path, version ?? ''));
  };
  const del = async ({ request, actor }: Ctx) => {
    const { path, version } = target(request);
    await s.versions.remove(actor, path, version ?? '');
    return new Response(null, { status: 204 });
  };
  return new Elysia()
    .use(auth)
    .get('/api/versions/*', get, { auth: 'user' })
    .post('/api/versions/*', post, { auth: 'user', parse: 'none' })
    .delete('/api/versions/*', del, { auth: 'user', parse: 'none' });
}
