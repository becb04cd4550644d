import { Elysia } from 'elysia';
import { CONTENT_TYPE } from '../../core/metrics';
import type { Services } from '../../services/services';
import { json } from '../body';
import type { ClientIp } from '../client-ip';
import { metricsAccess } from '../observe/metrics-access';

/** How long /ready waits for each check (the database ping): a load balancer's probe must not hang. */
const READY_TIMEOUT_MS = 2000;

/**
 * Unauthenticated probes, cheap by design: /health (the process answers), /ready (every readiness check of
 * HealthService passes: the database today, the index later) and /metrics (Prometheus text, its own access rule).
 */
export function healthRoutes(s: Services, ip: ClientIp) {
  const allowMetrics = metricsAccess(s.config, ip);
  return new Elysia()
    .get('/health', () => json({ status: 'OK' }))
    .get('/ready', async () => {
      const r = await s.health.ready(READY_TIMEOUT_MS);
      return json({ status: r.ready ? 'OK' : 'unavailable', checks: r.checks }, r.ready ? 200 : 503, r.ready ? {} : { 'Retry-After': '5' });
    })
    .get('/metrics', async ({ request, server }) => {
      allowMetrics(request, server);
      const body = await s.metrics.render();
      return new Response(body, { headers: { 'Content-Type': CONTENT_TYPE, 'Content-Length': String(Buffer.byteLength(body)), 'Cache-Control': 'no-store' } });
    });
}
