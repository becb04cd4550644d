import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import { json } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';
import type { ClientIp } from '../client-ip';
import { download } from '../download';
import { openSubtitle } from '../../services/files/subtitles';
import { subtitleResponse } from '../subtitle-response';
import { openShare, visitOf } from '../share-request';
import { previewResponse } from '../preview-response';
import { invalid } from '../../core/errors';
import { isPreviewSize } from '../../services/preview/preview.service';

/**
 * Public share API: no login. A share's password comes as X-SHARE-PASSWORD (URL-encoded) or as the share's
 * token (?token=) returned after a correct password. Who may reach what is decided by `SharesService.open`: these
 * routes pass the actor and path it returns to the file services unchanged. A link is named by its hash or slug.
 */
export function publicRoutes(s: Services, auth: AuthPlugin, ip: ClientIp) {
  return new Elysia()
    .use(auth)
    .get('/api/public/share/*', async ({ request, server }) => {
      const visit = visitOf(request, server, ip);
      const ps = await openShare(s, request, '/api/public/share', visit.address);
      const info = await s.shares.visited(ps, visit);
      const token = ps.share.token ? { token: ps.share.token } : {};
      const v2 = { mode: info.mode, ...(info.upload ? { upload: info.upload } : {}) };
      // A file request shows nothing of what is there: no names, sizes, dates or counts.
      if (!info.lists) return json({ path: '/', name: s.shares.rootName(ps.share) || 'share', isDir: true, type: '', items: [], ...v2, ...token });
      const got = await s.files.get(ps.actor, ps.path, { content: false });
      const res = got.path === ps.shown ? got : { ...got, path: ps.shown };
      if (res.isDir) res.name = s.shares.rootName(ps.share) || 'share'; // folders show the shared folder's name
      // The reference's client reads `mode` as a file mode; a v2 client reads it as the link's (web/api/public.ts).
      return json({ ...res, ...(info.mode !== 'view' ? v2 : {}), ...token });
    })
    .get('/api/public/dl/*', async ({ request, server }) => {
      const visit = visitOf(request, server, ip);
      const ps = await openShare(s, request, '/api/public/dl', visit.address);
      const u = new URL(request.url);
      await s.shares.downloading(ps, request.headers.get('range'), u.searchParams.get('inline') === 'true', visit);
      if (ps.selectable) return download(request, ps.actor, ps.path);
      // A file link is that one file: a selection asked of it is not an error, it is just not honoured.
      u.searchParams.delete('files');
      return download(new Request(u, request), ps.actor, ps.path);
    })
    // Not in the reference (its share page plays no video): the same share, actor and checks as public/dl.
    .get('/api/public/subtitle/*', async ({ request, server }) => {
      const ps = await openShare(s, request, '/api/public/subtitle', ip.client(request, server));
      return subtitleResponse(request, await openSubtitle(ps.actor, ps.path, request.signal));
    })
    // The share page's thumbnails and slideshow pictures: the visitor's actor (download needed, so an upload link
    // gets 403; a file link reaches its one file) through the same preview service and answer as /api/preview.
    // Not counted as downloads (decision 0051: inline previews and thumbnails are not).
    .get('/api/public/preview/:size/*', async ({ request, server, params }) => {
      // Checked first: the size is part of the prefix the link's name is read after.
      if (!isPreviewSize(params.size)) throw invalid(`${params.size} is not a valid preview size, try thumb or big`);
      const ps = await openShare(s, request, `/api/public/preview/${params.size}`, ip.client(request, server));
      return previewResponse(s, request, ps.actor, params.size, ps.path);
    });
}
