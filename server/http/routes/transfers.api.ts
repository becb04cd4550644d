import { t } from 'elysia';
import { Bytes, ErrorText, SearchHit } from '../../contract/api/schemas';
import { json, media, type RouteDocs } from '../openapi/route-doc';

const raw = {
  summary: 'Download a file (Range supported) or a folder or several files as an archive',
  tags: ['files'],
  auth: 'user' as const,
  query: { algo: 'archive format: zip, tar, targz, tarbz2, tarxz, tarlz4, tarsz, tarbr, tarzst', files: 'comma-separated names inside the folder to include', inline: '"true": Content-Disposition inline' },
  responses: { 200: { description: 'the bytes', ...media('application/octet-stream', Bytes) }, 206: { description: 'a range' }, 404: { description: 'no such file or folder' } },
};
const search = {
  summary: 'Search names below a folder (NDJSON, one hit a line, sent as found)',
  tags: ['files'],
  auth: 'user' as const,
  query: { query: 'words; type:image, type:audio… and "quoted phrases" narrow it' },
  responses: { 200: { description: 'hits', ...media('application/x-ndjson', SearchHit, { path: 'docs/a.txt', dir: false }) } },
};
const subtitle = { summary: 'A subtitle file as WebVTT (SRT and ASS converted)', tags: ['files'], auth: 'user' as const, responses: { 200: { description: 'WebVTT', ...media('text/vtt', t.String(), 'WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n') } } };
const text = (example: string) => media('text/plain', ErrorText, example);

/** OpenAPI descriptions of raw, preview, search, subtitle and tus routes. */
export const transfersApi: RouteDocs = {
  'GET /api/raw': raw,
  'GET /api/raw/*': raw,
  'GET /api/preview/:size/*': {
    summary: 'An image preview (thumb or big), cached; the original where resizing does not apply',
    tags: ['files'],
    auth: 'user',
    responses: { 200: { description: 'JPEG or PNG', ...media('image/jpeg', Bytes) }, 404: { description: 'no such file' } },
  },
  'GET /api/search': search,
  'GET /api/search/*': search,
  'GET /api/subtitle': subtitle,
  'GET /api/subtitle/*': subtitle,
  'OPTIONS /api/tus/*': { summary: 'tus capabilities', tags: ['uploads'], auth: 'none', responses: { 204: { description: 'Tus-Version and Tus-Extension headers' } } },
  'POST /api/tus/*': {
    summary: 'Start a resumable upload (tus creation)',
    tags: ['uploads'],
    auth: 'user',
    headers: { 'Upload-Length': 'total bytes', 'Tus-Resumable': '1.0.0' },
    query: { override: '"true": replace an existing file when complete' },
    responses: { 201: { description: 'created; Location is the upload URL', ...text('201 Created') }, 409: { description: 'exists' } },
  },
  'HEAD /api/tus/*': { summary: 'Offset of a resumable upload', tags: ['uploads'], auth: 'user', responses: { 200: { description: 'Upload-Offset and Upload-Length headers' }, 404: { description: 'no such upload' } } },
  'GET /api/tus/*': { summary: 'Offset of a resumable upload (as HEAD)', tags: ['uploads'], auth: 'user', responses: { 200: { description: 'Upload-Offset and Upload-Length headers' } } },
  'PATCH /api/tus/*': {
    summary: 'Append bytes to a resumable upload',
    tags: ['uploads'],
    auth: 'user',
    headers: { 'Upload-Offset': 'where these bytes start', 'Tus-Resumable': '1.0.0' },
    body: media('application/offset+octet-stream', Bytes),
    responses: { 204: { description: 'appended; Upload-Offset is the new offset' }, 409: { description: 'offset mismatch' } },
  },
  'DELETE /api/tus/*': { summary: 'Cancel a resumable upload', tags: ['uploads'], auth: 'user', responses: { 204: { description: 'cancelled' } } },
};
