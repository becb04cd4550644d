import { ipInRanges, parseCidr, type Cidr } from '../core/net';

/**
 * The client's address. X-Forwarded-For is believed only when the TCP peer is a trusted proxy, and then the
 * rightmost hop that is not itself a trusted proxy is the client.
 */
export function makeClientIp(trustedProxies: string[]) {
  const ranges = trustedProxies.map(parseCidr).filter((c): c is Cidr => !!c);
  // The peer of a request never changes, and asking the server costs a getpeername(2) each time: several hooks
  // and the audit ask for the same request, so the answer is kept with the request (and dies with it).
  const peers = new WeakMap<Request, string>();
  const peerOf = (req: Request, server: unknown): string => {
    let peer = peers.get(req);
    if (peer === undefined) {
      const s = server as { requestIP?: (r: Request) => { address: string } | null } | null;
      peer = s?.requestIP?.(req)?.address ?? 'local';
      if (s) peers.set(req, peer);
    }
    return peer;
  };
  return {
    peer: peerOf,
    /** True when the request came straight from a trusted proxy. */
    fromTrustedProxy: (req: Request, server: unknown) => ranges.length > 0 && ipInRanges(peerOf(req, server), ranges),
    client(req: Request, server: unknown): string {
      const peer = peerOf(req, server);
      if (!ranges.length || !ipInRanges(peer, ranges)) return peer;
      const hops = (req.headers.get('x-forwarded-for') ?? '').split(',').map((h) => h.trim()).filter(Boolean);
      for (let i = hops.length - 1; i >= 0; i--) if (!ipInRanges(hops[i]!, ranges)) return hops[i]!;
      return peer;
    },
  };
}
export type ClientIp = ReturnType<typeof makeClientIp>;
