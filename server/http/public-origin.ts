import type { ClientIp } from './client-ip';

/**
 * The origin the browser used to reach us (scheme, host, port), for URLs handed to other sites (the OIDC callback).
 * X-Forwarded-Proto and X-Forwarded-Host are believed only from a trusted proxy, as X-Forwarded-For is.
 */
export function publicOrigin(request: Request, server: unknown, ip: ClientIp): string {
  const url = new URL(request.url);
  if (ip.fromTrustedProxy(request, server)) {
    const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
    const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim();
    if (proto === 'http' || proto === 'https') url.protocol = `${proto}:`;
    if (host && /^[A-Za-z0-9.\-\[\]:]+$/.test(host)) url.host = host;
  }
  return url.origin;
}
