import { t } from 'elysia';
import { type RouteDocs, json } from '../openapi/route-doc';

const Open = (props: Record<string, ReturnType<typeof t.String>>) => t.Object(props, { additionalProperties: true });
const TrashList = t.Object({ settings: t.Record(t.String(), t.Unknown()), items: t.Array(t.Record(t.String(), t.Unknown())) }, { additionalProperties: true });
const AuditPage = t.Object({ entries: t.Array(t.Record(t.String(), t.Unknown())) }, { additionalProperties: true });
const user = { user: 'admins: whose trash (id or name)' };

/** OpenAPI descriptions of trash.routes.ts and audit.routes.ts. */
export const trashAuditApi: RouteDocs = {
  'GET /api/trash': { summary: 'Your trash and the settings that apply to it', tags: ['trash'], auth: 'user', query: user, responses: { 200: { description: 'trash items', ...json(TrashList, { settings: { enabled: true }, items: [] }) } } },
  'POST /api/trash/:id/restore': {
    summary: 'Restore a trash item to where it was',
    tags: ['trash'],
    auth: 'user',
    query: { conflict: 'fail (default), replace or rename when the original path is taken' },
    responses: { 200: { description: 'the restored path', ...json(Open({ path: t.String() }), { path: '/docs/a.txt' }) }, 409: { description: 'the original path is taken' } },
  },
  'DELETE /api/trash/:id': { summary: 'Delete a trash item for good', tags: ['trash'], auth: 'user', responses: { 204: { description: 'deleted' } } },
  'DELETE /api/trash': {
    summary: 'Empty the trash',
    tags: ['trash'],
    auth: 'user',
    query: { ...user, olderThan: 'only items deleted longer ago than this duration (7d, 12h)' },
    responses: { 200: { description: 'how many items were deleted', ...json(t.Object({ deleted: t.Number() }, { additionalProperties: true }), { deleted: 3 }) } },
  },
  'GET /api/audit': {
    summary: 'The audit log, newest first',
    tags: ['audit'],
    auth: 'admin',
    query: { user: 'user name', action: 'event kind', since: 'a time or duration', until: 'a time', text: 'words in target or detail', limit: 'page size', cursor: 'from the previous page' },
    responses: { 200: { description: 'one page of entries', ...json(AuditPage) }, 400: { description: 'a bad filter, named in the message' } },
  },
};
