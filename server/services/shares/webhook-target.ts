import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** IPv4 ranges a webhook may not reach by default: this host, private networks, link-local, CGNAT, multicast, reserved. */
const V4_BLOCKED: [number, number][] = [
  [0x00000000, 8], [0x0a000000, 8], [0x64400000, 10], [0x7f000000, 8], [0xa9fe0000, 16], [0xac100000, 12],
  [0xc0000000, 24], [0xc0a80000, 16], [0xc6120000, 15], [0xe0000000, 4], [0xf0000000, 4],
];

function v4Number(a: string): number {
  return a.split('.').reduce((n, p) => n * 256 + Number(p), 0);
}

/** Whether an IP address (v4 or v6, as DNS returns it) is loopback, private, link-local or otherwise not public. */
export function isPrivateAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (isIP(a) === 4 || mapped) {
    const n = v4Number(mapped ? mapped[1]! : a);
    return V4_BLOCKED.some(([base, bits]) => (bits === 0 ? true : Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits))));
  }
  if (isIP(a) !== 6) return true; // not an address at all: never trusted
  if (a === '::' || a === '::1') return true;
  const first = parseInt(a.split(':')[0] || '0', 16);
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((first & 0xff00) === 0xff00) return true; // multicast
  if (/^::ffff:/.test(a) || /^64:ff9b::/.test(a)) return true; // mapped or translated forms we did not parse
  return false;
}

/**
 * Whether a webhook URL may be called now: its host resolved, and every address it resolves to public unless
 * `privateHosts`. Returns why not, or null. (A name that resolves differently a moment later is the remaining gap:
 * docs/SECURITY.md says so; redirects are never followed.)
 */
export async function refusedTarget(url: string, privateHosts: boolean): Promise<string | null> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'not http(s)';
  if (privateHosts) return null;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : await lookup(host, { all: true, verbatim: true }).then((r) => r.map((x) => x.address), () => null);
  if (!addresses?.length) return 'the host does not resolve';
  return addresses.some(isPrivateAddress) ? 'the host is a loopback, private or link-local address' : null;
}
