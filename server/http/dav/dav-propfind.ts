import { invalid } from '../../core/errors';
import type { DavProp } from '../../services/dav/dav-props.service';
import type { Resource } from '../../contract/resource';
import { mimeOf } from '../../services/files/detect-type';
import type { Actor } from '../../services/actor';
import type { Services } from '../../services/services';
import { downloadEtag } from '../../services/files/download-etag';
import { ALLPROP_LIVE, DAV, isMacMetadata, LIVE, WIN32_NS, win32Attributes, type DavItem } from '../../services/dav/dav-live';
import { depthOf, hrefOf } from './dav-headers';
import { emptyProp, errorXml, lockDiscoveryXml, multistatusStream, responseXml, SUPPORTED_LOCK, xmlResponse } from './dav-multistatus';
import { elements, escapeXml, isDav, type XmlElement } from './dav-xml';

type Name = { ns: string; local: string };
export type PropfindWant = { kind: 'allprop'; include: Name[] } | { kind: 'propname' } | { kind: 'prop'; props: Name[] };

/** The PROPFIND body (RFC 4918 §9.1, §14.20): none is allprop. */
export function parsePropfind(root: XmlElement | null): PropfindWant {
  if (!root) return { kind: 'allprop', include: [] };
  if (!isDav(root, 'propfind')) throw invalid('the body must be a DAV:propfind element');
  const kids = elements(root);
  const names = (el: XmlElement) => elements(el).map((c) => ({ ns: c.ns, local: c.local }));
  const prop = kids.find((k) => isDav(k, 'prop'));
  if (prop) return { kind: 'prop', props: names(prop) };
  if (kids.some((k) => isDav(k, 'propname'))) return { kind: 'propname' };
  if (kids.some((k) => isDav(k, 'allprop'))) {
    const inc = kids.find((k) => isDav(k, 'include'));
    return { kind: 'allprop', include: inc ? names(inc) : [] };
  }
  throw invalid('propfind needs prop, propname or allprop');
}

/** Per request: what every response needs once (the quota figures are read at most once). */
interface Ctx {
  s: Services;
  actor: Actor;
  prefix: string;
  want: PropfindWant;
  quota?: Promise<{ used: number; available: number } | null>;
}

const itemOfResource = (r: Resource): DavItem => {
  const ms = Date.parse(r.modified);
  return { path: r.path, name: r.name, isDir: r.isDir, size: r.isDir ? 0 : r.size, mtimeMs: ms, ctimeMs: ms };
};

/** A live property's value as XML content, or null when the item has none. */
async function liveValue(c: Ctx, item: DavItem, local: string): Promise<string | null> {
  switch (local) {
    case 'creationdate':
      return new Date(item.ctimeMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
    case 'displayname':
      return escapeXml(item.name);
    case 'getcontentlength':
      return item.isDir ? null : String(item.size);
    case 'getcontenttype':
      return item.isDir ? null : escapeXml(mimeOf(item.name));
    case 'getetag':
      return item.isDir ? null : escapeXml(downloadEtag(item.size, item.mtimeMs));
    case 'getlastmodified':
      return new Date(item.mtimeMs).toUTCString();
    case 'resourcetype':
      return item.isDir ? '<D:collection/>' : '';
    case 'lockdiscovery':
      return lockDiscoveryXml(await c.s.dav.locks.discovery(c.actor, item.path), (p) => hrefOf(c.prefix, p, false));
    case 'supportedlock':
      return SUPPORTED_LOCK;
    case 'quota-used-bytes':
    case 'quota-available-bytes': {
      c.quota ??= c.s.dav.quota(c.actor, item.path).catch(() => null);
      const q = await c.quota;
      return q ? String(local === 'quota-used-bytes' ? q.used : q.available) : null;
    }
  }
  return null;
}

const wrap = (local: string, value: string) => (value === '' ? `<D:${local}/>` : `<D:${local}>${value}</D:${local}>`);

/** One item's response element for the request's kind of PROPFIND. */
async function itemResponse(c: Ctx, item: DavItem, dead: DavProp[]): Promise<string> {
  const href = hrefOf(c.prefix, item.path, item.isDir);
  const found: string[] = [];
  const missing: string[] = [];
  const deadOf = (ns: string, local: string) => dead.find((d) => d.ns === ns && d.name === local);
  const win32Attrs = () => (deadOf(WIN32_NS, 'Win32FileAttributes') ? null : `<M:Win32FileAttributes xmlns:M="${WIN32_NS}">${win32Attributes(item)}</M:Win32FileAttributes>`);
  if (c.want.kind === 'propname') {
    for (const l of ALLPROP_LIVE) if ((await liveValue(c, item, l)) !== null) found.push(`<D:${l}/>`);
    for (const d of dead) found.push(emptyProp(d.ns, d.name));
    return responseXml(href, new Map([[200, found]]));
  }
  const asked: Name[] = c.want.kind === 'prop' ? c.want.props : [...ALLPROP_LIVE.map((l) => ({ ns: DAV, local: l })), ...c.want.include];
  const seen = new Set<string>();
  for (const n of asked) {
    const key = `${n.ns}\n${n.local}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const d = n.ns === DAV && LIVE.has(n.local) ? undefined : deadOf(n.ns, n.local);
    if (d) found.push(d.xml);
    else if (n.ns === DAV && LIVE.has(n.local)) {
      const v = await liveValue(c, item, n.local);
      if (v === null) {
        if (c.want.kind === 'prop') missing.push(emptyProp(n.ns, n.local));
      }
      else found.push(wrap(n.local, v));
    } else if (n.ns === WIN32_NS && n.local === 'Win32FileAttributes') found.push(win32Attrs()!);
    else if (c.want.kind === 'prop') missing.push(emptyProp(n.ns, n.local));
  }
  if (c.want.kind === 'allprop') for (const d of dead) if (!seen.has(`${d.ns}\n${d.name}`)) found.push(d.xml);
  const by = new Map<number, string[]>();
  if (found.length || !missing.length) by.set(200, found);
  if (missing.length) by.set(404, missing);
  return responseXml(href, by);
}

/**
 * PROPFIND (RFC 4918 §9.1): Depth 0 or 1 (infinity refused with 403 and propfind-finite-depth). A folder's members
 * come from the files service's listing in batches and each batch's response elements are written as the body is
 * read, so a 10,000-entry folder never becomes one string.
 */
export async function propfind(s: Services, actor: Actor, prefix: string, path: string, want: PropfindWant, request: Request): Promise<Response> {
  const depth = depthOf(request) ?? 'infinity';
  if (depth === 'infinity') return xmlResponse(403, errorXml('propfind-finite-depth'));
  const item = await s.dav.item(actor, path);
  const c: Ctx = { s, actor, prefix, want };
  const first = await itemResponse(c, item, await s.davProps.of(actor, path));
  const listing = item.isDir && depth === '1' ? await s.dav.listing(actor, path) : null;
  const folderKey = listing ? await s.davProps.folderKey(actor, path) : null;
  const ignoreMac = s.settings.get().webdav.macMetadata === 'ignore';
  async function* parts(): AsyncGenerator<string> {
    yield first;
    if (!listing) return;
    for await (const batch of listing.items()) {
      const shown = batch.filter((r) => r.type !== 'invalid_link' && !(ignoreMac && isMacMetadata(r.name)));
      const dead = want.kind === 'prop' && !wantsDead(want) ? new Map<string, DavProp[]>() : await s.davProps.ofChildren(folderKey, shown.map((r) => r.name));
      let chunk = '';
      for (const r of shown) chunk += await itemResponse(c, itemOfResource(r), dead.get(r.name) ?? []);
      yield chunk;
    }
  }
  return multistatusStream(parts());
}

/** Whether a prop request names anything a dead property could answer (all live DAV: names: no query needed). */
const wantsDead = (want: { props: Name[] }) => want.props.some((n) => !(n.ns === DAV && LIVE.has(n.local)));

