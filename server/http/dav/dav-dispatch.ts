import { AppError, invalid } from '../../core/errors';
import type { Actor } from '../../services/actor';
import type { Services } from '../../services/services';
import { download } from '../download';
import type { ClientIp } from '../client-ip';
import { pathAfter } from '../request-path';
import { davActor } from './dav-auth';
import { withDavConditions } from './dav-lock-conditions';
import { readCapped } from '../body';
import { hasBody } from './dav-body';
import { depthOf, destinationOf, ocMtimeOf, overwriteOf } from './dav-headers';
import { parsePropfind, propfind } from './dav-propfind';
import { parseProppatch, proppatch } from './dav-proppatch';
import { MAX_XML_BYTES, parseXml } from './dav-xml';

/** What a method handler gets: the request, its actor and its path under `/dav/` (canonical, decoded once). */
export interface DavRequest {
  s: Services;
  ip: ClientIp;
  request: Request;
  server: unknown;
  actor: Actor;
  /** `<baseURL>/dav` (hrefs are built under it). */
  prefix: string;
  path: string;
  /** The URL ended with '/'. */
  dir: boolean;
}
export type DavMethod = (r: DavRequest) => Promise<Response>;

const BASE_METHODS = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', 'MKCOL', 'COPY', 'MOVE', 'PROPFIND', 'PROPPATCH'];

const empty = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers });
const ifOf = (request: Request) => request.headers.get('if');

/** The WebDAV methods but LOCK and UNLOCK (those come in `extra`, from the locks' routes). */
const METHODS: Record<string, DavMethod> = {
  async PROPFIND({ s, actor, prefix, path, request }) {
    const want = parsePropfind(parseXml(await readCapped(request, MAX_XML_BYTES)));
    return propfind(s, actor, prefix, path, want, request);
  },
  async PROPPATCH({ s, actor, prefix, path, request }) {
    if (s.dav.ignored(path)) throw new AppError('NOT_FOUND');
    const ops = parseProppatch(parseXml(await readCapped(request, MAX_XML_BYTES)));
    return proppatch(s, actor, prefix, path, ops, ifOf(request));
  },
  async MKCOL({ s, actor, path, request }) {
    if (await hasBody(request)) throw new AppError('UNSUPPORTED_MEDIA', 'MKCOL takes no body');
    await s.dav.mkcol(actor, path, ifOf(request));
    return empty(201);
  },
  async GET(r) {
    const item = await r.s.dav.item(r.actor, r.path);
    if (item.isDir) return empty(405, { Allow: 'OPTIONS, PROPFIND, PROPPATCH, MKCOL, DELETE, COPY, MOVE, LOCK, UNLOCK' });
    // download() decides (the download permission) and sends through sendFile (Range, ETag, Last-Modified); the
    // query of the WebDAV URL is not passed on (no `files=` archive), the file goes inline with its type.
    const url = new URL(r.request.url);
    const plain = new Request(`${url.origin}${url.pathname}?inline=true`, { method: r.request.method, headers: r.request.headers });
    return download(plain, r.actor, r.path);
  },
  async HEAD(r) {
    return METHODS.GET!(r);
  },
  async PUT({ s, actor, path, dir, request }) {
    if (dir) throw new AppError('METHOD_NOT_ALLOWED', 'PUT on a collection');
    if (request.headers.has('content-range')) throw invalid('partial PUT (Content-Range) is not supported');
    const mtimeMs = ocMtimeOf(request);
    const { created, etag } = await s.dav.put(actor, path, request.body, { mtimeMs, ifHeader: ifOf(request) });
    const headers: Record<string, string> = etag ? { ETag: etag } : {};
    if (mtimeMs !== undefined) headers['X-OC-MTime'] = 'accepted';
    return empty(created ? 201 : 204, headers);
  },
  async DELETE({ s, actor, path, request }) {
    const depth = depthOf(request);
    if (depth !== null && depth !== 'infinity' && (await s.dav.item(actor, path)).isDir) throw invalid('DELETE of a collection needs Depth: infinity');
    await s.dav.delete(actor, path, ifOf(request));
    return empty(204);
  },
  COPY: (r) => copyMove(r, 'copy'),
  MOVE: (r) => copyMove(r, 'move'),
};

async function copyMove(r: DavRequest, op: 'copy' | 'move'): Promise<Response> {
  const depth = depthOf(r.request);
  if (depth === '1' || (op === 'move' && depth === '0' && (await r.s.dav.item(r.actor, r.path)).isDir)) throw invalid(`${op.toUpperCase()} takes Depth 0 or infinity${op === 'move' ? ' (infinity for a collection)' : ''}`);
  const dst = destinationOf(r.request, r.server, r.ip, r.prefix);
  const { created } = await r.s.dav.copyMove(r.actor, op, r.path, dst, { overwrite: overwriteOf(r.request), shallow: depth === '0', ifHeader: ifOf(r.request) });
  return empty(created ? 201 : 204);
}

/**
 * The one entry of `<baseURL>/dav/`: authenticates (Basic), then hands the method to its handler. Handlers call the
 * WebDAV services (services/dav), which call the same homes as the web API.
 */
export function davDispatcher(s: Services, ip: ClientIp, extra: Record<string, DavMethod> = {}) {
  const prefix = `${s.config.baseURL}/dav`;
  const methods: Record<string, DavMethod> = { ...METHODS, ...extra };
  const allow = [...new Set([...BASE_METHODS, ...Object.keys(extra)])].join(', ');
  return async ({ request, server }: { request: Request; server: unknown }): Promise<Response> => {
    const actor = await davActor(s, ip, request, server);
    if (request.method === 'OPTIONS') return empty(200, { DAV: '1, 2', Allow: allow, 'MS-Author-Via': 'DAV', 'Content-Length': '0' });
    // A fragment is never part of a request target (RFC 9110 §7.1): a client that sends one means something else.
    if (request.url.includes('#')) throw invalid('the request URL carries a fragment');
    const handler = methods[request.method];
    if (!handler) return empty(405, { Allow: allow });
    const { path, dir } = pathAfter(request, prefix);
    // A precondition refusal (a 423 naming the locked resource…) answers with its DAV:error body (dav-lock-conditions.ts).
    return withDavConditions(prefix, () => handler({ s, ip, request, server, actor, prefix, path, dir }));
  };
}
