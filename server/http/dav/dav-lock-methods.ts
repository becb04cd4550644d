import { AppError, invalid } from '../../core/errors';
import type { ActiveLock } from '../../services/dav/dav-lock-gate';
import { MAX_OWNER_XML } from '../../services/dav/dav-locks.service';
import { readCapped } from '../body';
import { withDavConditions } from './dav-lock-conditions';
import type { DavMethod, DavRequest } from './dav-dispatch';
import { depthOf, hrefOf } from './dav-headers';
import { lockDiscoveryXml, xmlResponse } from './dav-multistatus';
import { DAV_NS, elements, escapeXml, isDav, parseXml, serialize, type XmlElement } from './dav-xml';

/** A LOCK body is small: a lockinfo with an owner of at most MAX_OWNER_XML, with room for the markup around it. */
const MAX_LOCK_BODY = MAX_OWNER_XML + 4096;

/** What a lockinfo asks for (RFC 4918 §14.11): the scope, and the owner element's content re-serialised. */
export function parseLockinfo(root: XmlElement): { scope: 'exclusive' | 'shared'; ownerXml: string } {
  if (!isDav(root, 'lockinfo')) throw invalid('a LOCK body is a DAV:lockinfo');
  const kids = elements(root);
  const scopeEl = kids.find((k) => isDav(k, 'lockscope'));
  const scope = scopeEl && elements(scopeEl).find((k) => k.ns === DAV_NS && (k.local === 'exclusive' || k.local === 'shared'))?.local;
  if (!scope) throw invalid('lockscope must be exclusive or shared');
  const typeEl = kids.find((k) => isDav(k, 'locktype'));
  if (!typeEl || !elements(typeEl).some((k) => isDav(k, 'write'))) throw invalid('locktype must be write');
  const owner = kids.find((k) => isDav(k, 'owner'));
  const ownerXml = owner ? owner.children.map((c) => (typeof c === 'string' ? escapeXml(c) : serialize(c))).join('') : '';
  if (ownerXml.length > MAX_OWNER_XML) throw new AppError('TOO_LARGE', `the lock owner is limited to ${MAX_OWNER_XML} bytes`);
  return { scope: scope as 'exclusive' | 'shared', ownerXml };
}

/** The LOCK answer: the lock's activelock in a DAV:prop (RFC 4918 §9.10.1). */
function lockAnswer(r: DavRequest, status: number, locks: ActiveLock[], headers: Record<string, string> = {}): Response {
  const body = `<D:prop xmlns:D="DAV:"><D:lockdiscovery>${lockDiscoveryXml(locks, (p) => hrefOf(r.prefix, p, false))}</D:lockdiscovery></D:prop>`;
  return xmlResponse(status, body, headers);
}

/**
 * LOCK and UNLOCK (RFC 4918 §9.10, §9.11), handed to the WebDAV dispatcher beside the other methods. The lock
 * service decides everything (services/dav/dav-locks.service.ts); this reads the headers and the lockinfo.
 */
export const DAV_LOCK_METHODS: Record<string, DavMethod> = {
  LOCK: (r) =>
    withDavConditions(r.prefix, async () => {
      const { s, actor, path, request } = r;
      const depth = depthOf(request) ?? 'infinity';
      if (depth === '1') throw invalid('LOCK takes Depth 0 or infinity');
      const text = await readCapped(request, MAX_LOCK_BODY);
      const ifHeader = request.headers.get('if');
      const timeout = request.headers.get('timeout');
      const etagOf = s.dav.etagOf(actor);
      const root = parseXml(text);
      if (!root) return lockAnswer(r, 200, await s.davLocks.refresh(actor, path, timeout, ifHeader, etagOf));
      const { scope, ownerXml } = parseLockinfo(root);
      const { lock, created } = await s.davLocks.lock(actor, { path, depth, scope, ownerXml, timeout, ifHeader, etagOf, create: !s.dav.ignored(path) });
      return lockAnswer(r, created ? 201 : 200, [lock], { 'Lock-Token': `<${lock.token}>` });
    }),
  UNLOCK: (r) =>
    withDavConditions(r.prefix, async () => {
      await r.s.davLocks.unlock(r.actor, r.path, r.request.headers.get('lock-token'));
      return new Response(null, { status: 204 });
    }),
};
