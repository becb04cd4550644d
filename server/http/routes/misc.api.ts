import { t } from 'elysia';
import { Health, MetricsText, Ready } from '../../contract/api/schemas';
import { json, media, type RouteDocs } from '../openapi/route-doc';

/** OpenAPI descriptions of health.routes.ts, command.routes.ts, the OpenAPI document and the web app's routes. */
export const miscApi: RouteDocs = {
  'GET /health': { summary: 'Liveness: the process answers', tags: ['operations'], auth: 'none', responses: { 200: { description: 'alive', ...json(Health, { status: 'OK' }) } } },
  'GET /ready': {
    summary: 'Readiness: the database (and later the index) answers in time',
    tags: ['operations'],
    auth: 'none',
    responses: { 200: { description: 'ready', ...json(Ready, { status: 'OK', checks: [{ name: 'database', ok: true }] }) }, 503: { description: 'not ready; the failing checks say why', ...json(Ready, { status: 'unavailable', checks: [{ name: 'database', ok: false, message: 'unreachable' }] }) } },
  },
  'GET /metrics': {
    summary: 'Prometheus metrics',
    tags: ['operations'],
    auth: 'metrics',
    description: 'Off (404) unless metricsToken or metricsAllow is configured; Bearer metricsToken and/or an allowed client address.',
    responses: { 200: { description: 'text exposition format', ...media('text/plain', MetricsText, '# TYPE filedeck_active_sessions gauge\nfiledeck_active_sessions 1\n') }, 401: { description: 'token missing or wrong' }, 403: { description: 'address not allowed' }, 404: { description: 'metrics are off' } },
  },
  'WS /api/command/*': {
    summary: 'Run one command in a folder (WebSocket; output lines as text frames)',
    tags: ['commands'],
    auth: 'user',
    description: 'Send one command line; the socket closes with 1000 on success or 4000+exit code. Needs enableExec and the execute permission.',
    wildcard: 'the folder to run in',
    responses: { 101: { description: 'switching to WebSocket' } },
  },
  'GET /api/openapi.json': { summary: 'This document', tags: ['operations'], auth: 'user', responses: { 200: { description: 'OpenAPI 3.1', ...json(t.Object({ openapi: t.String() }, { additionalProperties: true }), { openapi: '3.1.0' }) } } },
  'GET /': { summary: 'The web app', tags: ['web app'], auth: 'none', responses: { 200: { description: 'HTML', ...media('text/html', t.String()) } } },
  'GET /*': { summary: 'The web app (every client-side route)', tags: ['web app'], auth: 'none', wildcard: 'a web app route', responses: { 200: { description: 'HTML', ...media('text/html', t.String()) } } },
  'GET /static/*': { summary: 'Web app assets and branding files', tags: ['web app'], auth: 'none', wildcard: 'an asset name', responses: { 200: { description: 'the asset' }, 404: { description: 'no such asset' } } },
};
