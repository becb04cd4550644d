import type { ActiveLock } from '../../services/dav/dav-lock-gate';
import { escapeXml, serialize } from './dav-xml';

export const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>\n';
const REASON: Record<number, string> = { 200: 'OK', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 424: 'Failed Dependency', 507: 'Insufficient Storage' };

export const statusLine = (code: number) => `HTTP/1.1 ${code} ${REASON[code] ?? ''}`;

/** A property element without value in its namespace (propname, a missing or failed property). */
export const emptyProp = (ns: string, local: string) => (ns === 'DAV:' ? `<D:${local}/>` : serialize({ ns, local, attrs: [], children: [] }));

/** One response element: the href and one propstat per status (`props`: XML fragments by status). */
export function responseXml(href: string, byStatus: Map<number, string[]>, error?: string): string {
  let out = `<D:response><D:href>${escapeXml(href)}</D:href>`;
  for (const [status, props] of byStatus) out += `<D:propstat><D:prop>${props.join('')}</D:prop><D:status>${statusLine(status)}</D:status>${status === 403 && error ? `<D:error><D:${error}/></D:error>` : ''}</D:propstat>`;
  return `${out}</D:response>`;
}

/** A multistatus body whose responses are produced as it is sent (a large folder never becomes one string). */
export function multistatusStream(parts: AsyncIterable<string>): Response {
  const enc = new TextEncoder();
  const it = parts[Symbol.asyncIterator]();
  let started = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(out) {
        if (!started) {
          started = true;
          out.enqueue(enc.encode(`${XML_HEAD}<D:multistatus xmlns:D="DAV:">`));
          return;
        }
        const next = await it.next();
        if (next.done) {
          out.enqueue(enc.encode('</D:multistatus>\n'));
          out.close();
        } else out.enqueue(enc.encode(next.value));
      },
      async cancel() {
        await it.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: 207, headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'no-cache' } });
}

/** A small XML body (an error's precondition element, a one-response multistatus). */
export function xmlResponse(status: number, xml: string, headers: Record<string, string> = {}): Response {
  const text = XML_HEAD + xml;
  return new Response(text, { status, headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)), ...headers } });
}

/** `<D:error>` with a precondition element (RFC 4918 §16). */
export const errorXml = (condition: string) => `<D:error xmlns:D="DAV:"><D:${condition}/></D:error>`;

/** The lockdiscovery value: one activelock per lock (RFC 4918 §15.8). */
export function lockDiscoveryXml(locks: ActiveLock[], hrefOfRoot: (path: string) => string): string {
  return locks
    .map((l) => {
      const owner = l.ownerXml ? (/^<([A-Za-z_][\w.-]*:)?owner[\s/>]/.test(l.ownerXml) ? l.ownerXml : `<D:owner>${l.ownerXml}</D:owner>`) : '';
      const timeout = l.timeoutSeconds === null ? 'Infinite' : `Second-${l.timeoutSeconds}`;
      return `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope><D:${l.scope}/></D:lockscope><D:depth>${l.depth}</D:depth>${owner}<D:timeout>${timeout}</D:timeout><D:locktoken><D:href>${escapeXml(l.token)}</D:href></D:locktoken><D:lockroot><D:href>${escapeXml(hrefOfRoot(l.root))}</D:href></D:lockroot></D:activelock>`;
    })
    .join('');
}

export const SUPPORTED_LOCK =
  '<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry><D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>';
