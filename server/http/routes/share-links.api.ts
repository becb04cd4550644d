import { t } from 'elysia';
import { Share } from '../../contract/api/schemas';
import { json, type RouteDocs } from '../openapi/route-doc';

const Limits = t.Object({
  maxFileSize: t.Optional(t.Integer({ minimum: 0, description: 'bytes; 0 = no limit' })),
  maxTotalSize: t.Optional(t.Integer({ minimum: 0, description: 'bytes over the link\'s life; 0 = no limit' })),
  maxFiles: t.Optional(t.Integer({ minimum: 0, description: 'files over the link\'s life; 0 = no limit' })),
  allowedTypes: t.Optional(t.Array(t.String(), { description: 'extensions (".pdf") or MIME patterns ("image/*"); [] = any' })),
});
const ShareChange = t.Object(
  {
    expires: t.Optional(t.Union([t.Integer({ minimum: 0 }), t.String()], { description: 'lifetime from now in `unit`; 0 = permanent' })),
    unit: t.Optional(t.String({ description: 'seconds, minutes, hours (default) or days' })),
    password: t.Optional(t.Union([t.String(), t.Null()], { description: 'a new password; "" or null removes it' })),
    mode: t.Optional(t.Union([t.Literal('view'), t.Literal('upload'), t.Literal('upload-view')], { description: 'upload modes: folder links only' })),
    slug: t.Optional(t.Union([t.String(), t.Null()], { description: '3–64 of [a-z0-9-], not reserved, unique; "" or null removes it' })),
    disabled: t.Optional(t.Boolean()),
    maxDownloads: t.Optional(t.Integer({ minimum: 0, description: 'downloads after which the link ends; 0 = no limit' })),
    upload: t.Optional(Limits),
    webhookUrl: t.Optional(t.Union([t.String(), t.Null()], { description: 'http(s) URL POSTed a JSON summary when files arrive; "" or null removes it' })),
  },
  { additionalProperties: false },
);
const ShareAccess = t.Object({
  id: t.Integer(),
  time: t.Integer({ description: 'unix ms' }),
  kind: t.Union([t.Literal('view'), t.Literal('download'), t.Literal('upload'), t.Literal('password-failed'), t.Literal('refused')]),
  path: t.String(),
  address: t.String({ description: 'anonymised (IPv4 /24, IPv6 /48) unless settings.shares.logFullAddresses' }),
  agent: t.String({ description: 'the client family, never the whole User-Agent' }),
  bytes: t.Optional(t.Integer()),
});
const AppNotification = t.Object({
  id: t.Integer(), time: t.Integer(), kind: t.Literal('share-upload'), hash: t.String(), name: t.String(), files: t.Integer(), bytes: t.Integer(), read: t.Boolean(),
});
const Notifications = t.Object({ unread: t.Integer(), items: t.Array(AppNotification) });
const SHARE = {
  hash: 'Xy3kP0aQ', path: '/inbox', userID: 1, expire: 0, hasPassword: false, mode: 'upload', slug: 'send-me-files', disabled: false, maxDownloads: 0,
  upload: { maxFileSize: 104857600, maxTotalSize: 0, maxFiles: 20, allowedTypes: ['.pdf', 'image/*'] }, webhookUrl: '', webhookSecret: '',
  counters: { views: 3, downloads: 0, uploads: 2, uploadedBytes: 20480, lastAccess: 1767400000 },
};
const owner = { tags: ['shares'], auth: 'user' as const };
const pw = { 'X-SHARE-PASSWORD': 'the link password (URL-encoded), when it has one' };
const key = { upload: 'the upload\'s key, from the Location the creation returned (without it: 404)' };
const target = { wildcard: '<hash or slug>/<path of the new file inside the shared folder>' };
const limitsRefused = { 403: { description: 'not an upload link, disabled, or no more files accepted' }, 413: { description: 'larger than the link accepts' }, 415: { description: 'a type the link does not accept' }, 429: { description: 'too many uploads' }, 507: { description: 'the owner\'s quota or the disk is full' } };

/** OpenAPI descriptions of the shares v2 routes (decision 0051): shares.routes.ts, notifications.routes.ts, public-upload.routes.ts. */
export const shareLinksApi: RouteDocs = {
  'PATCH /api/share/:hash': { ...owner, summary: 'Change a link (its URL stays)', body: json(ShareChange, { expires: 7, unit: 'days', maxDownloads: 10 }), responses: { 200: { description: 'the link', ...json(Share, SHARE) }, 400: { description: 'a bad field' }, 404: { description: 'no such link' }, 409: { description: 'the slug is taken' } } },
  'POST /api/share/:hash/regenerate': { ...owner, summary: 'Give a link a new random hash: the old hash and slug stop working', responses: { 200: { description: 'the link under its new hash', ...json(Share, { ...SHARE, hash: 'Qm9vTmV3SGFz', slug: '' }) }, 404: { description: 'no such link' } } },
  'GET /api/share/:hash/log': { ...owner, summary: 'A link\'s access log, newest first', query: { limit: 'at most this many lines (1–500, default 100)', before: 'lines older than this id' }, responses: { 200: { description: 'the lines', ...json(t.Array(ShareAccess), [{ id: 7, time: 1767400000000, kind: 'upload', path: '/report.pdf', address: '192.0.2.0', agent: 'Firefox', bytes: 20480 }]) } } },
  'GET /api/notifications': { summary: 'Your notifications (files arrived through your file requests)', tags: ['notifications'], auth: 'user', responses: { 200: { description: 'newest first', ...json(Notifications, { unread: 1, items: [{ id: 3, time: 1767400000000, kind: 'share-upload', hash: 'Xy3kP0aQ', name: 'inbox', files: 2, bytes: 20480, read: false }] }) } } },
  'POST /api/notifications/read': { summary: 'Mark notifications read (the listed ones, or all)', tags: ['notifications'], auth: 'user', body: json(t.Object({ ids: t.Optional(t.Array(t.Integer())) }), { ids: [3] }), responses: { 204: { description: 'done' } } },
  'POST /api/public/upload/*': { ...target, summary: 'Send a file through a file request (no login)', tags: ['public'], auth: 'share', headers: pw, responses: { 201: { description: 'where it was stored (a taken name gets "name (1).ext"); on an upload-only link the name it was sent as, whatever it was stored as', ...json(t.Object({ path: t.String() }), { path: '/report (1).pdf' }) }, ...limitsRefused } },
  'OPTIONS /api/public/tus/*': { ...target, summary: 'tus capabilities of file requests', tags: ['public'], auth: 'none', responses: { 204: { description: 'Tus-Version and Tus-Extension headers' } } },
  'POST /api/public/tus/*': { ...target, summary: 'Start a resumable upload through a file request (tus creation)', tags: ['public'], auth: 'share', headers: { ...pw, 'Upload-Length': 'the file\'s size in bytes' }, responses: { 201: { description: 'Location: the upload with its key (?upload=), at its final clash-free name (upload-only links: at the name it was sent as)' }, ...limitsRefused } },
  'HEAD /api/public/tus/*': { query: key, summary: 'Offset of a resumable upload through a file request', tags: ['public'], auth: 'share', headers: pw, responses: { 200: { description: 'Upload-Offset and Upload-Length headers' }, 404: { description: 'no such upload' } } },
  'GET /api/public/tus/*': { query: key, summary: 'Offset of a resumable upload through a file request (as HEAD)', tags: ['public'], auth: 'share', headers: pw, responses: { 200: { description: 'Upload-Offset and Upload-Length headers' } } },
  'PATCH /api/public/tus/*': { query: key, summary: 'Send bytes of a resumable upload through a file request', tags: ['public'], auth: 'share', headers: { ...pw, 'Upload-Offset': 'bytes the server has' }, responses: { 204: { description: 'Upload-Offset: bytes the server has now' }, ...limitsRefused } },
  'DELETE /api/public/tus/*': { query: key, summary: 'Cancel a resumable upload through a file request', tags: ['public'], auth: 'share', headers: pw, responses: { 204: { description: 'cancelled' } } },
};
