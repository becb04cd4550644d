import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import type { ClientIp } from '../client-ip';
import { davDispatcher, type DavMethod } from '../dav/dav-dispatch';

/**
 * `<baseURL>/dav/` (RFC 4918, docs/decisions/0050-webdav.md): every method, standard or not (PROPFIND, MKCOL…), goes to
 * one dispatcher, which authenticates with HTTP Basic itself (no session, no cookie: the auth plugin's macro is not
 * used). Bodies are never parsed by the framework (`parse: 'none'`): PUT streams, XML is read capped. `extra`: the
 * lock methods (LOCK, UNLOCK).
 */
export function davRoutes(s: Services, ip: ClientIp, extra: Record<string, DavMethod> = {}) {
  const handle = davDispatcher(s, ip, extra);
  const o = { parse: 'none' } as const;
  // The standard methods are named too: a method's own routes (the web app's catch-all GET) win over `all`.
  return new Elysia()
    .all('/dav', handle, o)
    .all('/dav/*', handle, o)
    .get('/dav', handle, o)
    .get('/dav/*', handle, o)
    .head('/dav', handle, o)
    .head('/dav/*', handle, o)
    .put('/dav', handle, o)
    .put('/dav/*', handle, o)
    .delete('/dav', handle, o)
    .delete('/dav/*', handle, o)
    .options('/dav', handle, o)
    .options('/dav/*', handle, o);
}
