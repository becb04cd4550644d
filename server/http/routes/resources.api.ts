import { t } from 'elysia';
import { Bytes, ErrorText, Resource, TreeEntry, Usage } from '../../contract/api/schemas';
import { json, media, type RouteDocs } from '../openapi/route-doc';

const FOLDER = {
  path: '/docs/', name: 'docs', size: 4096, extension: '', modified: '2026-01-02T03:04:05Z', mode: 2147484141, isDir: true, isSymlink: false, type: '',
  items: [{ path: '/docs/a.txt', name: 'a.txt', size: 12, extension: '.txt', modified: '2026-01-02T03:04:05Z', mode: 420, isDir: false, isSymlink: false, type: 'text' }],
  numDirs: 0, numFiles: 1, sorting: { by: 'name', asc: true },
};
const ok = (description: string) => ({ description, ...media('text/plain', ErrorText, '200 OK') });
const read = {
  summary: 'Read a file or list a folder',
  tags: ['files'],
  auth: 'user' as const,
  query: {
    checksum: 'md5, sha1, sha256 or sha512: add that checksum of a file',
    offset: "a folder's items from this place on (0 = the first), in the listing's order; the answer's `page` says which part of `total` it holds, counts stay the whole folder's",
    limit: 'at most this many items (1 to 100000); with offset, a range of a big folder (the web app asks for the range in view before the whole folder has arrived)',
  },
  headers: { 'X-Encoding': '"true": a text file answers its raw bytes instead of JSON' },
  responses: { 200: { description: 'the resource; folders list their items', ...json(Resource, FOLDER) }, 404: { description: 'no such file or folder' } },
};
const tree = {
  summary: 'Every entry below a folder (streamed JSON array)',
  tags: ['files'],
  auth: 'user' as const,
  responses: { 200: { description: 'entries, depth first', ...json(t.Array(TreeEntry), [{ path: '/docs/a.txt', name: 'a.txt', isDir: false }]) } },
};
const usage = { summary: 'Disk usage of the volume holding a folder', tags: ['files'], auth: 'user' as const, responses: { 200: { description: 'bytes', ...json(Usage, { total: 1000000, used: 1000 }) } } };

/** OpenAPI descriptions of resources.routes.ts. */
export const resourcesApi: RouteDocs = {
  'GET /api/resources': read,
  'GET /api/resources/*': read,
  'GET /api/resources/recursive': { ...tree, description: "The reference's tree route; a folder named recursive at the scope root wins over it." },
  'GET /api/resources/recursive/*': { ...tree, description: "The reference's tree route; a folder named recursive at the scope root wins over it." },
  'GET /api/tree': tree,
  'GET /api/tree/*': tree,
  'POST /api/resources/*': {
    summary: 'Upload a file (body: its bytes), or create a folder (path ending in /)',
    tags: ['files'],
    auth: 'user',
    query: { override: '"true": replace an existing file' },
    body: media('application/octet-stream', Bytes),
    responses: { 200: ok('created; ETag names the new version'), 409: { description: 'exists (without override)' }, 507: { description: 'the disk is full' } },
  },
  'PUT /api/resources/*': { summary: "Replace a file's content", tags: ['files'], auth: 'user', body: media('application/octet-stream', Bytes), responses: { 200: ok('saved; ETag names the new version'), 404: { description: 'no such file' } } },
  'DELETE /api/resources/*': {
    summary: 'Delete a file or folder (into the trash when it is on)',
    tags: ['files'],
    auth: 'user',
    query: { permanent: '"true": delete for good' },
    responses: { 204: { description: 'deleted; X-Trash-Id names the trash item' }, 404: { description: 'no such file or folder' } },
  },
  'PATCH /api/resources/*': {
    summary: 'Copy, move or rename',
    tags: ['files'],
    auth: 'user',
    query: { action: 'copy, rename or move', destination: 'the target path (URL-encoded)', override: '"true": replace the target', rename: '"true": pick a free name' },
    responses: { 200: ok('done'), 409: { description: 'the target exists' } },
  },
  'GET /api/usage': usage,
  'GET /api/usage/*': usage,
};
