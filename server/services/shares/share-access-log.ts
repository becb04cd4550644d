import type { ShareAccess } from '../../contract/share';
import type { ShareAccessStore } from '../../db/share-access.store';

/** Lines kept per link (decision 0051): the oldest go first. */
export const ACCESS_LOG_LINES = 1000;
export const MAX_LOG_PAGE = 500;

/**
 * A visitor's address as the log keeps it: IPv4 to its /24 ("192.0.2.0"), IPv6 to its /48 ("2001:db8:1::"), an
 * IPv4-mapped IPv6 as IPv4. Anything unparsable is kept as "" rather than stored as sent (it may be a header's text).
 */
export function anonymiseAddress(address: string): string {
  const a = address.trim().replace(/^\[|\]$/g, '').replace(/^::ffff:(?=\d+\.)/i, '');
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(a);
  if (v4) return v4.slice(1, 4).every((p) => Number(p) <= 255) ? `${v4[1]}.${v4[2]}.${v4[3]}.0` : '';
  if (!/^[0-9a-f:]+$/i.test(a) || !a.includes(':')) return '';
  const [head = '', tail = ''] = a.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = a.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  if (groups.length !== 8 || groups.some((g) => g.length > 4)) return '';
  return `${groups.slice(0, 3).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::`;
}

/** A whole address kept only when the admin asked for it; still bounded (a proxy header may carry anything). */
export function loggedAddress(address: string, full: boolean): string {
  if (!full) return anonymiseAddress(address);
  return /^[0-9a-fA-F:.[\]]{1,64}$/.test(address) ? address : anonymiseAddress(address);
}

/** Client families, tested in order (Edge and Opera say "Chrome" too; Chrome says "Safari"). */
const FAMILIES: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrom(?:e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
  [/^curl\//i, 'curl'],
  [/^Wget\//i, 'Wget'],
  [/^rclone\//i, 'rclone'],
  [/^python-requests|^Python-urllib|aiohttp/i, 'Python'],
  [/^Go-http-client/i, 'Go'],
  [/^Bun\//i, 'Bun'],
  [/^node-fetch|^undici|^axios/i, 'Node.js'],
  [/bot\b|crawler|spider|slurp/i, 'Bot'],
];

/** A User-Agent reduced to a family: never the whole header (which can fingerprint a visitor). */
export function agentFamily(ua: string | null | undefined): string {
  if (!ua) return 'Other';
  for (const [re, name] of FAMILIES) if (re.test(ua)) return name;
  return 'Other';
}

/** Where a visitor came from, as the routes hand it over. */
export interface Visit {
  address: string;
  agent: string | null;
}

/** Writes access-log lines (bounded per link) with addresses reduced as the settings say. */
export class ShareAccessLog {
  constructor(private readonly store: ShareAccessStore, private readonly fullAddresses: () => boolean) {}

  async add(hash: string, kind: ShareAccess['kind'], path: string, visit: Visit, bytes?: number): Promise<void> {
    await this.store.add(hash, {
      time: Date.now(),
      kind,
      path: path.slice(0, 4096),
      address: loggedAddress(visit.address, this.fullAddresses()),
      agent: agentFamily(visit.agent),
      ...(bytes !== undefined ? { bytes } : {}),
    }, ACCESS_LOG_LINES);
  }

  list(hash: string, limit: number, before?: number): Promise<ShareAccess[]> {
    return this.store.list(hash, Math.min(Math.max(1, limit), MAX_LOG_PAGE), before);
  }

  /** Drops the lines of links that no longer exist (Background, hourly). */
  sweep(): Promise<number> {
    return this.store.sweep();
  }

  forget(hash: string): Promise<void> {
    return this.store.forget(hash);
  }
}
