import { createHash, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../core/config';
import { AppError, forbidden, notFound } from '../../core/errors';
import { ipInRanges, parseCidr, type Cidr } from '../../core/net';
import type { ClientIp } from '../client-ip';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The one decision on who may read /metrics. Off (404) unless `metricsToken` or `metricsAllow` is configured.
 * With an allowlist the client address (X-Forwarded-For only from trustedProxies, http/client-ip.ts) must fall
 * in it (else 403); with a token the request must carry `Authorization: Bearer <token>` (else 401). With both,
 * both must hold. Token comparison takes the same time whatever the guess.
 */
export function metricsAccess(config: Pick<Config, 'metricsToken' | 'metricsAllow'>, ip: ClientIp) {
  const ranges = config.metricsAllow.map(parseCidr).filter((c): c is Cidr => !!c);
  const token = config.metricsToken ? digest(config.metricsToken) : null;
  return (request: Request, server: unknown): void => {
    if (!token && !ranges.length) throw notFound('metrics are off: set metricsToken or metricsAllow');
    if (ranges.length && !ipInRanges(ip.client(request, server), ranges)) throw forbidden('this address may not read metrics');
    if (token) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
      if (!m || !timingSafeEqual(digest(m[1]!), token)) throw new AppError('UNAUTHORIZED', undefined, { headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } });
    }
  };
}
