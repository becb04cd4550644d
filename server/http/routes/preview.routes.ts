import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import { baseName } from '../../fs/virtual-path';
import type { Actor } from '../../services/actor';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { sendFile } from '../send-file';
import { openRegular } from '../../fs/open-regular';
import { pathAfter } from '../request-path';

/** GET /api/preview/{thumb|big}/{path}: resized images (cached), or the original where resizing does not apply. */
export function previewRoutes(s: Services, auth: AuthPlugin) {
  const base = s.config.baseURL;
  return new Elysia().use(auth).get('/api/preview/:size/*', async ({ request, actor, params }: { request: Request; actor: Actor; params: { size: string } }) => {
    const path = pathAfter(request, `${base}/api/preview/${params.size}`).path;
    const r = await s.previews.preview(actor, params.size, path, request.signal);
    if (r.kind === 'raw') return sendFile(request, await actor.fs.openReal(r.real), baseName(path), true);
    // The server's own cache file (not a user path); its validators are the source file's time.
    const cached = await openRegular(r.file);
    const name = baseName(path).replace(/\.[^.]*$/, '') + (r.mime === 'image/png' ? '.png' : '.jpg');
    return sendFile(request, { handle: cached.handle, stats: { size: cached.stats.size, mtimeMs: r.modified.getTime() } }, name, true);
  }, { auth: 'user' });
}
