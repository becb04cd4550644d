import type { Share, ShareChange, ShareMode, ShareUnit } from '../../../server/contract/share';

/**
 * The share form's fields as typed (strings, so a half-typed number is not lost), and their translation into the
 * `ShareChange` of decision 0051. Sizes are typed in MiB; 0 or empty means "no limit" as on the wire.
 */
export interface ShareDraft {
  /** Create: a count of `unit`s, '' = permanent. Edit: used only when `expiry` is 'set'. */
  duration: string;
  unit: ShareUnit;
  /** Edit only: keep the current expiry, make the link permanent, or set a new lifetime from now. */
  expiry: 'keep' | 'never' | 'set';
  /** Edit only: keep the current password, set a new one, or remove it. Create: 'set' when one is typed. */
  passwordChoice: 'keep' | 'set' | 'remove';
  password: string;
  mode: ShareMode;
  slug: string;
  maxDownloads: string;
  maxFileSize: string;
  maxTotalSize: string;
  maxFiles: string;
  allowedTypes: string;
  webhookUrl: string;
}

const MIB = 1024 * 1024;
const mib = (bytes: number | undefined) => (bytes ? String(Math.round((bytes / MIB) * 100) / 100) : '');
const whole = (n: number | undefined) => (n ? String(n) : '');

/** A fresh draft (create), or one holding a link's current settings (edit). */
export function draftOf(share?: Share): ShareDraft {
  return {
    duration: '',
    unit: 'hours',
    expiry: 'keep',
    passwordChoice: 'keep',
    password: '',
    mode: share?.mode ?? 'view',
    slug: share?.slug ?? '',
    maxDownloads: whole(share?.maxDownloads),
    maxFileSize: mib(share?.upload?.maxFileSize),
    maxTotalSize: mib(share?.upload?.maxTotalSize),
    maxFiles: whole(share?.upload?.maxFiles),
    allowedTypes: (share?.upload?.allowedTypes ?? []).join(', '),
    webhookUrl: share?.webhookUrl ?? '',
  };
}

const num = (s: string) => (s.trim() === '' ? 0 : Number(s));
const isWhole = (s: string) => Number.isInteger(num(s)) && num(s) >= 0;
const isSize = (s: string) => Number.isFinite(num(s)) && num(s) >= 0;

const SLUG = /^[a-z0-9](?:[a-z0-9-]{1,62}[a-z0-9])$/;
/** Names the server keeps for itself (decision 0051); the server's list is the authority, this only warns early. */
const RESERVED = new Set(['api', 'static', 'login', 'share', 'settings', 'files', 'dav', 'health', 'metrics', 'trash', 'public']);

/** Why a typed slug cannot be used ('' when it can, or when empty = no slug). */
export function slugProblem(slug: string): '' | 'slugFormat' | 'slugReserved' {
  if (slug === '') return '';
  if (!SLUG.test(slug)) return 'slugFormat';
  return RESERVED.has(slug) ? 'slugReserved' : '';
}

/** The names of the fields that hold something the server would refuse. */
export function draftProblems(d: ShareDraft, maxDuration: number): string[] {
  const bad: string[] = [];
  const needsDuration = d.expiry === 'set' || d.duration.trim() !== '';
  if (needsDuration && !(isWhole(d.duration) && num(d.duration) <= maxDuration && (d.expiry !== 'set' || num(d.duration) > 0))) bad.push('duration');
  if (slugProblem(d.slug)) bad.push('slug');
  for (const k of ['maxDownloads', 'maxFiles'] as const) if (!isWhole(d[k])) bad.push(k);
  for (const k of ['maxFileSize', 'maxTotalSize'] as const) if (!isSize(d[k])) bad.push(k);
  if (d.webhookUrl.trim() && !/^https?:\/\/\S+$/i.test(d.webhookUrl.trim())) bad.push('webhookUrl');
  if (d.passwordChoice === 'set' && d.password === '') bad.push('password');
  return bad;
}

/** The v2 part of a change: what "More options" sets. */
export type OptionsChange = Pick<ShareChange, 'mode' | 'slug' | 'maxDownloads' | 'upload' | 'webhookUrl'>;

const OPTION_FIELDS = ['mode', 'slug', 'maxDownloads', 'maxFileSize', 'maxTotalSize', 'maxFiles', 'allowedTypes', 'webhookUrl'] as const;

/**
 * The v2 fields (mode, slug, limits, webhook) that differ from `base`: a create sends only what the owner set, an
 * edit only what the owner changed, so a link stays exactly as it was in everything else (and a file link is never
 * sent folder-only fields).
 */
export function optionsChange(d: ShareDraft, base: ShareDraft = draftOf()): OptionsChange {
  const changed = new Set(OPTION_FIELDS.filter((k) => d[k].trim() !== base[k].trim()));
  const change: OptionsChange = {};
  if (changed.has('mode')) change.mode = d.mode;
  if (changed.has('slug')) change.slug = d.slug.trim();
  if (changed.has('maxDownloads')) change.maxDownloads = num(d.maxDownloads);
  if (changed.has('webhookUrl')) change.webhookUrl = d.webhookUrl.trim();
  const upload: NonNullable<ShareChange['upload']> = {};
  if (changed.has('maxFileSize')) upload.maxFileSize = Math.round(num(d.maxFileSize) * MIB);
  if (changed.has('maxTotalSize')) upload.maxTotalSize = Math.round(num(d.maxTotalSize) * MIB);
  if (changed.has('maxFiles')) upload.maxFiles = num(d.maxFiles);
  if (changed.has('allowedTypes')) upload.allowedTypes = d.allowedTypes.split(/[\s,]+/).filter(Boolean);
  if (Object.keys(upload).length) change.upload = upload;
  return change;
}

/** What an edit sends: the lifetime and password only when the owner changed them, then the changed options. */
export function editChange(d: ShareDraft, share: Share): ShareChange {
  const change: ShareChange = optionsChange(d, draftOf(share));
  if (d.expiry === 'never') change.expires = 0;
  if (d.expiry === 'set') Object.assign(change, { expires: num(d.duration), unit: d.unit });
  if (d.passwordChoice === 'set') change.password = d.password;
  if (d.passwordChoice === 'remove') change.password = '';
  return change;
}
