import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import { baseName } from '../../fs/virtual-path';
import type { Actor } from '../../services/actor';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { sendFile } from '../send-file';
import { pathAfter } from '../request-path';

/** GET /api/preview/{thumb|big}/{path}: resized images (cached), or the original where resizing does not apply. */
export function previewRoutes(s: Services, auth: AuthPlugin) {
  const base = s.config.baseURL;
  return new Elysia().use(auth).get('/api/preview/:size/*', async ({ request, actor, params }: { request: Request; actor: Actor; params: { size: string } }) => {
    const path = pathAfter(request, `${base}/api/preview/${params.size}`).path;
    const r = await s.previews.preview(actor, params.size, path, request.signal);
    if (r.kind === 'raw') return sendFile(request, r.real, r.stats, baseName(path), true);
    const file = Bun.file(r.file);
    const stats = { size: file.size, mtimeMs: r.modified.getTime(), mtime: r.modified } as import('node:fs').Stats;
    const name = baseName(path).replace(/\.[^.]*$/, '') + (r.mime === 'image/png' ? '.png' : '.jpg');
    return sendFile(request, r.file, stats, name, true);
  }, { auth: 'user' });
}
