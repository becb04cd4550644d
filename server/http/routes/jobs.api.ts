import { t } from 'elysia';
import { json, media, type RouteDocs } from '../openapi/route-doc';

const Job = t.Object({ id: t.Integer() }, { additionalProperties: true, description: 'a background job: kind, state, progress, result' });
const JOB = { id: 7, kind: 'copy', state: 'running' };

/** OpenAPI descriptions of jobs.routes.ts. */
export const jobsApi: RouteDocs = {
  'GET /api/jobs': { summary: 'Your background jobs', tags: ['jobs'], auth: 'user', query: { all: '"true" (admins): everyone\'s' }, responses: { 200: { description: 'jobs', ...json(t.Array(Job), [JOB]) } } },
  'GET /api/jobs/events': { summary: 'Job changes as server-sent events', tags: ['jobs'], auth: 'user', responses: { 200: { description: 'an event stream', ...media('text/event-stream', t.String()) } } },
  'GET /api/jobs/:id': { summary: 'One job', tags: ['jobs'], auth: 'user', responses: { 200: { description: 'the job', ...json(Job, JOB) }, 404: { description: 'no such job' } } },
  'POST /api/jobs': {
    summary: 'Start a background job (copy, move, delete, extract…)',
    tags: ['jobs'],
    auth: 'user',
    body: json(t.Object({ kind: t.String() }, { additionalProperties: true }), { kind: 'copy' }),
    responses: { 202: { description: 'started', ...json(Job, JOB) }, 400: { description: 'invalid job' } },
  },
  'DELETE /api/jobs/:id': { summary: 'Cancel a job', tags: ['jobs'], auth: 'user', responses: { 200: { description: 'the job, cancelled', ...json(Job, { ...JOB, state: 'cancelled' }) } } },
};
