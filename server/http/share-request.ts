import type { Services } from '../services/services';
import type { PublicShare } from '../services/shares/shares.service';
import type { Visit } from '../services/shares/share-access-log';
import { decodeOnce, toVirtualPath } from '../fs/virtual-path';
import type { ClientIp } from './client-ip';

/**
 * "/<hash>/<sub/path>" after a prefix: the hash (or slug), and the share-relative path canonicalised. The rest is
 * decoded once BEFORE splitting: the reference's share page asks for one selected file as
 * `/api/public/dl/<hash>` + encodeURIComponent("/sub/file"), slashes encoded, and its router saw the decoded path.
 * Hashes are base64url and slugs [a-z0-9-], so neither contains an encoded "/"; an encoded "\" or ".." in the
 * rest is refused by toVirtualPath (400).
 */
export function hashAndPath(url: URL, prefix: string): { hash: string; path: string } {
  const rest = decodeOnce(url.pathname.slice(prefix.length)).replace(/^\//, '');
  const i = rest.indexOf('/');
  const hash = i < 0 ? rest : rest.slice(0, i);
  return { hash, path: toVirtualPath(i < 0 ? '/' : rest.slice(i)).path };
}

/** Where a visitor came from, for a link's counters and access log (reduced there: address anonymised, UA family). */
export const visitOf = (request: Request, server: unknown, ip: ClientIp): Visit => ({ address: ip.client(request, server), agent: request.headers.get('user-agent') });

/** Opens the link a public request names (SharesService.open: the one decision of what a visitor reaches). */
export function openShare(s: Services, request: Request, prefix: string, address: string): Promise<PublicShare> {
  const url = new URL(request.url);
  const { hash, path } = hashAndPath(url, `${s.config.baseURL}${prefix}`);
  return s.shares.open(hash, path, { password: request.headers.get('x-share-password'), token: url.searchParams.get('token'), address });
}
