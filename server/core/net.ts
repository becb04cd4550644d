import { isIP } from 'node:net';

/** An address range: IPv4 or IPv6 as a bigint with a prefix length. */
export interface Cidr {
  v6: boolean;
  base: bigint;
  bits: number;
}

function toBigInt(ip: string): { v6: boolean; n: bigint } | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) ip = mapped[1]!;
  const kind = isIP(ip);
  if (kind === 4) {
    return { v6: false, n: ip.split('.').reduce((a, p) => (a << 8n) | BigInt(Number(p)), 0n) };
  }
  if (kind === 6) {
    const [head, tail] = ip.split('::') as [string, string | undefined];
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
    return { v6: true, n: groups.reduce((a, g) => (a << 16n) | BigInt(parseInt(g || '0', 16)), 0n) };
  }
  return null;
}

/** Parses "10.0.0.1", "10.0.0.0/8" or "fd00::/8"; null when malformed. */
export function parseCidr(text: string): Cidr | null {
  const [ip, len] = text.split('/');
  const parsed = toBigInt(ip ?? '');
  if (!parsed) return null;
  const max = parsed.v6 ? 128 : 32;
  const bits = len === undefined ? max : /^\d+$/.test(len) ? Number(len) : NaN;
  if (!(bits >= 0 && bits <= max)) return null;
  return { v6: parsed.v6, base: parsed.n >> BigInt(max - bits), bits };
}

/** True when ip falls inside any of the ranges. */
export function ipInRanges(ip: string, ranges: Cidr[]): boolean {
  const p = toBigInt(ip);
  if (!p) return false;
  return ranges.some((r) => r.v6 === p.v6 && p.n >> BigInt((p.v6 ? 128 : 32) - r.bits) === r.base);
}
