import { t } from 'elysia';
import { Bytes, ErrorText, PublicShare, Share, ShareCreate } from '../../contract/api/schemas';
import { json, media, type RouteDocs } from '../openapi/route-doc';

const SHARE = { hash: 'Xy3kP0aQ', path: '/docs/a.txt', userID: 1, username: 'admin', expire: 0, hasPassword: false };
const forPath = { summary: 'Links of one file or folder', tags: ['shares'], auth: 'user' as const, responses: { 200: { description: 'its links', ...json(t.Array(Share), [SHARE]) } } };
const create = {
  summary: 'Create a link to a file or folder',
  tags: ['shares'],
  auth: 'user' as const,
  body: json(ShareCreate, { expires: '2', unit: 'days', password: 'optional password' }),
  responses: { 200: { description: 'the link', ...json(Share, { ...SHARE, expire: 1767400000, hasPassword: true }) }, 403: { description: 'no share permission' } },
};
const share = { wildcard: '<hash>/<path inside the shared folder>' };
const pw = { 'X-SHARE-PASSWORD': 'the link password (URL-encoded), when it has one' };

/** OpenAPI descriptions of shares.routes.ts and public.routes.ts. */
export const sharesApi: RouteDocs = {
  'GET /api/shares': { summary: 'Your links (admins: everyone\'s), each with its state', tags: ['shares'], auth: 'user', responses: { 200: { description: 'links; one whose item is missing, trashed or out of reach is listed with that state, never removed', ...json(t.Array(Share), [{ ...SHARE, state: 'ok' }]) } } },
  'GET /api/share': forPath,
  'GET /api/share/*': forPath,
  'POST /api/share': create,
  'POST /api/share/*': create,
  'DELETE /api/share/:hash': { summary: 'Delete a link', tags: ['shares'], auth: 'user', responses: { 200: { description: 'deleted', ...media('text/plain', ErrorText, '200 OK') }, 404: { description: 'no such link' } } },
  'GET /api/public/share/*': {
    ...share,
    summary: 'What a link shows (no login)',
    tags: ['public'],
    auth: 'share',
    headers: pw,
    query: { token: 'the token returned after a correct password' },
    responses: { 200: { description: 'the shared file or folder', ...json(PublicShare, { path: '/', name: 'docs', size: 4096, extension: '', modified: '2026-01-02T03:04:05Z', mode: 2147484141, isDir: true, isSymlink: false, type: '' }) }, 401: { description: 'password needed' }, 404: { description: 'no such link, or expired' } },
  },
  'GET /api/public/dl/*': {
    ...share,
    summary: 'Download through a link (files, or folders as archives)',
    tags: ['public'],
    auth: 'share',
    headers: pw,
    query: { token: 'the token returned after a correct password', algo: 'archive format for folders', files: 'names to include' },
    responses: { 200: { description: 'the bytes', ...media('application/octet-stream', Bytes) } },
  },
  'GET /api/public/preview/:size/*': {
    wildcard: '<hash>/<path inside the shared folder>; size: thumb or big',
    summary: 'A thumbnail or big preview through a link (the share page\'s gallery and slideshow; no login)',
    tags: ['public'],
    auth: 'share',
    headers: pw,
    query: { token: 'the token returned after a correct password' },
    responses: { 200: { description: 'JPEG or PNG (the original where resizing does not apply); not counted as a download', ...media('image/jpeg', Bytes) }, 400: { description: 'not a preview size' }, 403: { description: 'an upload-only link, or a disabled one' }, 404: { description: 'no such link or file' } },
  },
  'GET /api/public/subtitle/*': { ...share, summary: 'A subtitle through a link, as WebVTT', tags: ['public'], auth: 'share', headers: pw, responses: { 200: { description: 'WebVTT', ...media('text/vtt', t.String(), 'WEBVTT\n') } } },
};
