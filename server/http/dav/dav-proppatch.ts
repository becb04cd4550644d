import { invalid } from '../../core/errors';
import type { Actor } from '../../services/actor';
import type { PropOp } from '../../services/dav/dav-props.service';
import type { Services } from '../../services/services';
import { hrefOf } from './dav-headers';
import { emptyProp, multistatusStream, responseXml } from './dav-multistatus';
import { elements, isDav, serialize, textOf, type XmlElement } from './dav-xml';

/** The PROPPATCH body (RFC 4918 §9.2, §14.19): set and remove instructions in document order. */
export function parseProppatch(root: XmlElement | null): PropOp[] {
  if (!root || !isDav(root, 'propertyupdate')) throw invalid('the body must be a DAV:propertyupdate element');
  const ops: PropOp[] = [];
  for (const action of elements(root)) {
    const op = isDav(action, 'set') ? 'set' : isDav(action, 'remove') ? 'remove' : null;
    if (!op) continue;
    for (const prop of elements(action).filter((e) => isDav(e, 'prop')))
      for (const el of elements(prop)) ops.push({ op, ns: el.ns, name: el.local, xml: op === 'set' ? serialize(el) : '', text: textOf(el) });
  }
  if (ops.length === 0) throw invalid('propertyupdate names no property');
  return ops;
}

/** PROPPATCH: the props service decides (all or nothing); the answer is one response with a propstat per status. */
export async function proppatch(s: Services, actor: Actor, prefix: string, path: string, ops: PropOp[], ifHeader: string | null): Promise<Response> {
  const results = await s.davProps.patch(actor, path, ops, ifHeader, s.dav.etagOf(actor));
  const by = new Map<number, string[]>();
  let error: string | undefined;
  for (const r of results) {
    const list = by.get(r.status) ?? [];
    list.push(emptyProp(r.ns, r.name));
    by.set(r.status, list);
    error ??= r.error;
  }
  const isDir = (await actor.fs.stat(path)).stats.isDirectory();
  const body = responseXml(hrefOf(prefix, path, isDir), by, error);
  async function* one() {
    yield body;
  }
  return multistatusStream(one());
}
