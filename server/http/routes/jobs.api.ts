import { t } from 'elysia';
import { json, media, type RouteDocs } from '../openapi/route-doc';

const Job = t.Object({ id: t.Integer() }, { additionalProperties: true, description: 'a background job: kind, state, progress, result' });
const JOB = { id: 7, kind: 'copy', state: 'running' };

/** OpenAPI descriptions of jobs.routes.ts. */
export const jobsApi: RouteDocs = {
  'GET /api/jobs': {
    summary: 'Your background jobs, newest first, a page at a time (long jobs list their first 20 items and itemCount)',
    tags: ['jobs'],
    auth: 'user',
    query: { all: '"true" (admins): everyone\'s', limit: 'jobs per page, 1-500 (default 100)', cursor: 'the X-Next-Cursor header of the page before' },
    responses: { 200: { description: 'jobs; X-Next-Cursor is set when another page may follow', ...json(t.Array(Job), [JOB]) }, 400: { description: 'bad limit or cursor' } },
  },
  'GET /api/jobs/events': { summary: 'Job changes as server-sent events', tags: ['jobs'], auth: 'user', responses: { 200: { description: 'an event stream', ...media('text/event-stream', t.String()) } } },
  'GET /api/jobs/:id': { summary: 'One job', tags: ['jobs'], auth: 'user', responses: { 200: { description: 'the job', ...json(Job, JOB) }, 404: { description: 'no such job' } } },
  'POST /api/jobs': {
    summary: 'Start a background job (copy, move, delete, extract…)',
    tags: ['jobs'],
    auth: 'user',
    body: json(t.Object({ kind: t.String() }, { additionalProperties: true }), { kind: 'copy' }),
    responses: { 202: { description: 'started', ...json(Job, JOB) }, 400: { description: 'invalid job' }, 429: { description: 'too many jobs or items queued (yours or the server\'s): the message says which' } },
  },
  'DELETE /api/jobs/:id': { summary: 'Cancel a job', tags: ['jobs'], auth: 'user', responses: { 200: { description: 'the job, cancelled', ...json(Job, { ...JOB, state: 'cancelled' }) } } },
};
