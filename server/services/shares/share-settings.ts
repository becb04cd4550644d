import { MAX_SHARE_DURATION, SHARE_MODES, SHARE_UNITS, type Share, type ShareChange, type ShareMode } from '../../contract/share';
import { invalid } from '../../core/errors';
import { NO_SETTINGS, type ShareRow, type ShareSettingsRow } from '../../db/shares.store';
import { normaliseSlug } from './share-slugs';

const UNITS: Record<string, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86400 };
const MAX_BYTES = Number.MAX_SAFE_INTEGER;
const MAX_TYPES = 50;
export const MAX_PASSWORD_BYTES = 256;

/** A ShareChange checked field by field: what to set (undefined = unchanged); every bad field a clear 400. */
export interface CheckedChange {
  /** Unix seconds, 0 = permanent. */
  expire?: number;
  /** '' removes the password. */
  password?: string;
  settings: Partial<ShareSettingsRow>;
  /** The slug was given (set or cleared): the caller checks it is free. */
  slugGiven: boolean;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function count(v: unknown, name: string, max: number): number {
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v.trim()) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0 || n > max) throw invalid(`${name} must be a whole number from 0 to ${max}`);
  return n;
}

/** One accepted type: an extension with its dot (".pdf") or a MIME pattern ("image/*", "application/pdf"). */
function typePattern(v: unknown): string {
  if (typeof v !== 'string') throw invalid('upload.allowedTypes must be a list of text');
  const t = v.trim().toLowerCase();
  if (/^\.[a-z0-9][a-z0-9._+-]{0,31}$/.test(t) || /^[a-z0-9][a-z0-9.+-]{0,63}\/(?:\*|[a-z0-9][a-z0-9.+-]{0,127})$/.test(t)) return t;
  throw invalid(`"${v}" is neither an extension (".pdf") nor a MIME type ("image/*")`);
}

/** `expires` in `unit`s from now (the reference's POST /api/share fields); undefined when not given. */
export function expiryOf(expires: unknown, unit: unknown, nowSec: number): number | undefined {
  if (expires === undefined) return undefined;
  const unitName = unit === undefined || unit === '' || unit === null ? 'hours' : String(unit);
  const u = UNITS[unitName];
  if (!u || !(SHARE_UNITS as readonly string[]).includes(unitName)) throw invalid('unit must be seconds, minutes, hours or days');
  const raw = expires === null ? '' : String(expires).trim();
  if (raw !== '' && !/^\d+$/.test(raw)) throw invalid('expires must be a whole number');
  const n = raw === '' ? 0 : Number(raw);
  if (n > MAX_SHARE_DURATION) throw invalid(`expires must be at most ${MAX_SHARE_DURATION}`);
  return n === 0 ? 0 : nowSec + n * u;
}

/** Checks a ShareChange (the body of PATCH /api/share/:hash, or the v2 fields of POST /api/share/<path>). */
export function checkChange(body: unknown, nowSec: number): CheckedChange {
  if (!isObj(body)) throw invalid('the change must be a JSON object');
  const known = new Set(['expires', 'unit', 'password', 'mode', 'slug', 'disabled', 'maxDownloads', 'upload', 'webhookUrl']);
  for (const k of Object.keys(body)) if (!known.has(k)) throw invalid(`unknown field "${k}"`);
  const c = body as ShareChange & Record<string, unknown>;
  const out: CheckedChange = { settings: {}, slugGiven: false };
  if (c.expires === undefined && c.unit !== undefined) throw invalid('unit needs expires');
  out.expire = expiryOf(c.expires, c.unit, nowSec);
  if (c.password !== undefined) {
    if (c.password !== null && typeof c.password !== 'string') throw invalid('password must be text');
    out.password = c.password ?? '';
    if (Buffer.byteLength(out.password) > MAX_PASSWORD_BYTES) throw invalid('password is too long');
  }
  const s = out.settings;
  if (c.mode !== undefined) {
    if (!(SHARE_MODES as readonly unknown[]).includes(c.mode)) throw invalid('mode must be view, upload or upload-view');
    s.mode = c.mode as ShareMode;
  }
  if (c.slug !== undefined) {
    out.slugGiven = true;
    s.slug = c.slug === null || c.slug === '' ? '' : normaliseSlug(c.slug);
  }
  if (c.disabled !== undefined) {
    if (typeof c.disabled !== 'boolean') throw invalid('disabled must be true or false');
    s.disabled = c.disabled;
  }
  if (c.maxDownloads !== undefined) s.maxDownloads = count(c.maxDownloads, 'maxDownloads', 2 ** 31 - 1);
  if (c.upload !== undefined) {
    if (!isObj(c.upload)) throw invalid('upload must be an object');
    for (const [k, v] of Object.entries(c.upload)) {
      if (k === 'maxFileSize' || k === 'maxTotalSize') s[k] = count(v, `upload.${k}`, MAX_BYTES);
      else if (k === 'maxFiles') s.maxFiles = count(v, 'upload.maxFiles', 2 ** 31 - 1);
      else if (k === 'allowedTypes') {
        if (!Array.isArray(v) || v.length > MAX_TYPES) throw invalid(`upload.allowedTypes must be a list of at most ${MAX_TYPES}`);
        s.allowedTypes = [...new Set(v.map(typePattern))];
      } else throw invalid(`unknown field "upload.${k}"`);
    }
  }
  if (c.webhookUrl !== undefined) s.webhookUrl = c.webhookUrl === null ? '' : webhookUrlOf(c.webhookUrl);
  return out;
}

/** A webhook address: http(s), no credentials, at most 2,048 characters. Where it points is checked when it is called. */
export function webhookUrlOf(v: unknown): string {
  if (typeof v !== 'string') throw invalid('webhookUrl must be text');
  const raw = v.trim();
  if (raw === '') return '';
  if (raw.length > 2048) throw invalid('webhookUrl is too long');
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw invalid('webhookUrl is not a URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw invalid('webhookUrl must be http or https');
  if (u.username || u.password) throw invalid('webhookUrl may not hold credentials');
  return u.toString();
}

/** The settings a row has (rows older than migration 23 never reach here: the store fills them). */
export const settingsOf = (r: ShareRow): ShareSettingsRow => r.v2 ?? NO_SETTINGS;

/** The v2 fields of a Share as the owner sees them (never the webhook secret: see `webhookSecret`). */
export function v2Fields(r: ShareRow): Required<Pick<Share, 'mode' | 'slug' | 'disabled' | 'maxDownloads' | 'upload' | 'webhookUrl' | 'counters'>> {
  const v = settingsOf(r);
  return {
    mode: v.mode as ShareMode,
    slug: v.slug,
    disabled: v.disabled,
    maxDownloads: v.maxDownloads,
    upload: { maxFileSize: v.maxFileSize, maxTotalSize: v.maxTotalSize, maxFiles: v.maxFiles, allowedTypes: v.allowedTypes },
    webhookUrl: v.webhookUrl,
    counters: { views: v.views, downloads: v.downloads, uploads: v.uploads, uploadedBytes: v.uploadedBytes, lastAccess: v.lastAccess },
  };
}
