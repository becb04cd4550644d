import { rawAppPath } from '../../state/navigation';

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * The share hash and the decoded path inside the share, from the raw address ("/share/<hash>/<a%20b>/"): the
 * router's decoded params are lossy for names containing '%'.
 */
export function currentSharePath(): { hash: string; path: string } {
  const parts = rawAppPath().split('/');
  // ['', 'share', hash, ...rest]
  const hash = decode(parts[2] ?? '');
  const rest = parts.slice(3).filter(Boolean).map(decode);
  return { hash, path: rest.length ? `/${rest.join('/')}` : '/' };
}
