import { t } from 'elysia';
import { json, media, type RouteDocs } from '../openapi/route-doc';

const Version = t.Object({
  id: t.String(), replacedAt: t.Number(), modified: t.Number(), size: t.Number(), replacedBy: t.String(),
  cause: t.Union(['save', 'upload', 'copy', 'move', 'extract', 'restore', 'version-restore'].map((c) => t.Literal(c))),
});
const EXAMPLE = { id: '6f1c…', replacedAt: 1767323045000, modified: 1767322000000, size: 12, replacedBy: 'alice', cause: 'save' };
const version = { version: 'the version id (from the list)' };

/** OpenAPI descriptions of versions.routes.ts (docs/decisions/0047-versions-and-quotas-api.md). */
export const versionsApi: RouteDocs = {
  'GET /api/versions/*': {
    summary: "A file's versions (newest first), or one version's bytes with ?version=",
    tags: ['versions'],
    auth: 'user',
    wildcard: 'the file',
    query: { ...version, inline: '"true": the detected type instead of an attachment' },
    responses: {
      200: { description: 'the versions, or the bytes (Range, ETag as /api/raw)', ...json(t.Array(Version), [EXAMPLE]) },
      206: { description: 'a range of the version', ...media('application/octet-stream', t.String()) },
      403: { description: 'the file may not be downloaded' },
      404: { description: 'no such file or version' },
    },
  },
  'POST /api/versions/*': {
    summary: 'Restore a version: the current content becomes a version too (restore `kept` to undo)',
    tags: ['versions'],
    auth: 'user',
    wildcard: 'the file',
    query: { ...version, action: 'restore' },
    responses: {
      200: { description: 'restored', ...json(t.Object({ restored: t.String(), kept: t.String() }), { restored: '6f1c…', kept: '9a2b…' }) },
      403: { description: 'the file may not be modified' },
      404: { description: 'no such file or version' },
    },
  },
  'DELETE /api/versions/*': {
    summary: 'Delete a version for good',
    tags: ['versions'],
    auth: 'user',
    wildcard: 'the file',
    query: version,
    responses: { 204: { description: 'deleted' }, 403: { description: 'the file may not be deleted' }, 404: { description: 'no such file or version' } },
  },
};
