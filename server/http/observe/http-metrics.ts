import type { MetricsRegistry } from '../../core/metrics';
import { STATUS } from '../plugins/error.plugin';
import type { HealthService } from '../../services/health/health.service';

/** Latency buckets in seconds: API calls sit in the first few; downloads and archives in the last. */
const LATENCY = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** The request metrics, registered once per app on the services' registry, and process gauges read at scrape time. */
export function httpMetrics(registry: MetricsRegistry, health: HealthService) {
  const m = {
    requests: registry.counter('filedeck_http_requests_total', 'HTTP requests by route pattern, method and status', ['route', 'method', 'status']),
    duration: registry.histogram('filedeck_http_request_duration_seconds', 'Time from request to the last byte of the response', ['route', 'method'], LATENCY),
    bytesIn: registry.counter('filedeck_http_request_bytes_total', 'Request body bytes received (declared Content-Length)', ['route']),
    bytesOut: registry.counter('filedeck_http_response_bytes_total', 'Response body bytes sent', ['route']),
    errors: registry.counter('filedeck_http_server_errors_total', 'Responses with a 5xx status', ['route']),
    errorsByKind: registry.counter('filedeck_http_errors_total', 'Error responses (4xx and 5xx) by kind: the error code of the status table (not_found, forbidden, rate_limited, ...)', ['kind']),
    uploads: registry.counter('filedeck_uploads_total', 'Uploads: POST uploads completed, tus uploads created', ['protocol']),
    uploadBytes: registry.counter('filedeck_upload_bytes_total', 'Bytes received by successful upload requests', ['protocol']),
  };
  registry.gauge('filedeck_active_sessions', 'Login sessions that are neither expired nor replaced (all instances)', [], async (g) => g.set(await health.activeSessions()));
  registry.gauge('filedeck_process_memory_bytes', 'Memory of this process', ['kind'], (g) => {
    const u = process.memoryUsage();
    g.set(u.rss, { kind: 'rss' });
    g.set(u.heapUsed, { kind: 'heap_used' });
    g.set(u.heapTotal, { kind: 'heap_total' });
    g.set(u.external, { kind: 'external' });
  });
  const started = Date.now() / 1000;
  registry.gauge('filedeck_process_start_time_seconds', 'When this process started (Unix time)', [], (g) => g.set(started));
  return m;
}
export type HttpMetrics = ReturnType<typeof httpMetrics>;

const KIND_OF_STATUS = new Map<number, string>(Object.entries(STATUS).map(([code, status]) => [status, code.toLowerCase()]));
KIND_OF_STATUS.set(416, 'range_not_satisfiable');
/** The kind of an error status, from the one status table (error.plugin.ts); a status outside it by its class. */
export function errorKind(status: number): string {
  return KIND_OF_STATUS.get(status) ?? (status >= 500 ? 'server_other' : 'client_other');
}

/** Which upload protocol a finished request was, if any: a successful POST of a file, or a tus creation/append. */
export function uploadOf(route: string, method: string, status: number, url: string): { protocol: 'post' | 'tus'; counts: boolean } | null {
  if (status < 200 || status >= 300) return null;
  if (route === '/api/resources/*' && method === 'POST' && !new URL(url).pathname.endsWith('/')) return { protocol: 'post', counts: true };
  if (route === '/api/tus/*' && method === 'POST') return { protocol: 'tus', counts: true };
  if (route === '/api/tus/*' && method === 'PATCH') return { protocol: 'tus', counts: false };
  return null;
}
