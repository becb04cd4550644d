import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import { decodeOnce, toVirtualPath } from '../../fs/virtual-path';
import type { PublicShare } from '../../services/shares/shares.service';
import { json } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';
import type { ClientIp } from '../client-ip';
import { download } from '../download';
import { openSubtitle } from '../../services/files/subtitles';
import { subtitleResponse } from '../subtitle-response';

/**
 * "/<hash>/<sub/path>" after a prefix: the hash, and the share-relative path canonicalised. The rest is decoded
 * once BEFORE splitting: the reference's share page asks for one selected file as
 * `/api/public/dl/<hash>` + encodeURIComponent("/sub/file"), slashes encoded, and its router saw the decoded path.
 * Hashes are base64url, so no hash contains an encoded "/".
 */
function hashAndPath(url: URL, prefix: string): { hash: string; path: string } {
  const rest = decodeOnce(url.pathname.slice(prefix.length)).replace(/^\//, '');
  const i = rest.indexOf('/');
  const hash = i < 0 ? rest : rest.slice(0, i);
  return { hash, path: toVirtualPath(i < 0 ? '/' : rest.slice(i)).path };
}

/**
 * Public share API: no login. A share's password comes as X-SHARE-PASSWORD (URL-encoded) or as the share's
 * token (?token=) returned after a correct password. Who may reach what is decided by `SharesService.open`: these
 * routes pass the actor and path it returns to the file services unchanged.
 */
export function publicRoutes(s: Services, auth: AuthPlugin, ip: ClientIp) {
  const base = s.config.baseURL;
  const open = (request: Request, prefix: string, address: string): Promise<PublicShare> => {
    const url = new URL(request.url);
    const { hash, path } = hashAndPath(url, `${base}${prefix}`);
    return s.shares.open(hash, path, { password: request.headers.get('x-share-password'), token: url.searchParams.get('token'), address });
  };
  return new Elysia()
    .use(auth)
    .get('/api/public/share/*', async ({ request, server }) => {
      const ps = await open(request, '/api/public/share', ip.client(request, server));
      const got = await s.files.get(ps.actor, ps.path, { content: false });
      const res = got.path === ps.shown ? got : { ...got, path: ps.shown };
      if (res.isDir) res.name = s.shares.rootName(ps.share) || 'share'; // folders show the shared folder's name
      return json(ps.share.token ? { ...res, token: ps.share.token } : res);
    })
    .get('/api/public/dl/*', async ({ request, server }) => {
      const ps = await open(request, '/api/public/dl', ip.client(request, server));
      if (ps.selectable) return download(request, ps.actor, ps.path);
      // A file link is that one file: a selection asked of it is not an error, it is just not honoured.
      const u = new URL(request.url);
      u.searchParams.delete('files');
      return download(new Request(u, request), ps.actor, ps.path);
    })
    // Not in the reference (its share page plays no video): the same share, actor and checks as public/dl.
    .get('/api/public/subtitle/*', async ({ request, server }) => {
      const ps = await open(request, '/api/public/subtitle', ip.client(request, server));
      return subtitleResponse(request, await openSubtitle(ps.actor, ps.path, request.signal));
    });
}
