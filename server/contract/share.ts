/** Units a link's lifetime is counted in, and the longest lifetime in units (spec §5). */
export const SHARE_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;
export type ShareUnit = (typeof SHARE_UNITS)[number];
export const MAX_SHARE_DURATION = 2147483647;

/**
 * How a link stands when it is listed. Only `ok` links serve anything; the others answer 403/404 and are kept,
 * because what stops them may pass (a disk not mounted yet, a scope or rule changed back, a restore):
 * - `missing`: nothing, or another item, is at the shared item's pinned location;
 * - `trashed`: the shared item is in the trash (working again after a restore);
 * - `unreachable`: the owner may no longer share it (permissions, scope, rules) or is gone;
 * - `disabled`: its owner switched it off (v2); `exhausted`: its download limit was reached (v2).
 */
export const SHARE_STATES = ['ok', 'missing', 'trashed', 'unreachable', 'disabled', 'exhausted'] as const;
export type ShareState = (typeof SHARE_STATES)[number];

/** A share as the API returns it: never a password hash or a token (only hasPassword). */
export interface Share extends Partial<ShareV2Fields> {
  hash: string;
  path: string;
  userID: number;
  username?: string;
  expire: number; // unix seconds; 0 = permanent
  hasPassword: boolean;
  /** Set in listings (`GET /api/shares`, `filedeck shares ls`); an older client ignores it. */
  state?: ShareState;
}

/**
 * Shares v2 (issue 37, decision 0051). Every field below is optional on the wire, so the reference's web client,
 * which knows none of them, keeps working; a link made by it is a `view` link without limits.
 *
 * What a visitor of a link may do:
 * - `view`: browse and download what was shared (the reference's only kind);
 * - `upload`: a file request: drop files into the shared folder, see nothing of what is there (no names, sizes, counts);
 * - `upload-view`: drop files and browse/download the folder.
 */
export const SHARE_MODES = ['view', 'upload', 'upload-view'] as const;
export type ShareMode = (typeof SHARE_MODES)[number];

/** What a file request accepts; 0 or [] = no limit of that kind (the owner's quota still applies). */
export interface UploadLimits {
  /** Largest single file, bytes. */
  maxFileSize: number;
  /** Most bytes the link accepts over its life. */
  maxTotalSize: number;
  /** Most files the link accepts over its life. */
  maxFiles: number;
  /** Accepted types: extensions with a dot (".pdf") or MIME patterns ("image/*"), matched case-insensitively. */
  allowedTypes: readonly string[];
}

/** Counters a link keeps (owner-visible only). `lastAccess` unix seconds, 0 = never. */
export interface ShareCounters {
  views: number;
  downloads: number;
  uploads: number;
  uploadedBytes: number;
  lastAccess: number;
}

/** The v2 fields of a Share, as `GET /api/shares`, `GET /api/share/<path>` and `PATCH /api/share/:hash` return them. */
export interface ShareV2Fields {
  mode: ShareMode;
  /** A readable alias: `/share/<slug>` reaches the link as `/share/<hash>` does. '' = none. */
  slug: string;
  /** The link serves nothing while disabled; its URL and settings are kept. */
  disabled: boolean;
  /** Downloads after which the link ends (state `exhausted`); 0 = no limit. */
  maxDownloads: number;
  upload: UploadLimits;
  /** POSTed a JSON summary when files arrive through the link; '' = none. http(s) only. */
  webhookUrl: string;
  /** The key of the webhook's `X-Filedeck-Signature` (HMAC-SHA256 of the body), shown to the owner; '' without a webhook. */
  webhookSecret: string;
  counters: ShareCounters;
}

/** `POST /api/share/<path>` accepts these beside password/expires/unit; `PATCH /api/share/:hash` accepts this. */
export interface ShareChange {
  /** Lifetime from now in `unit` (default hours); 0 = permanent. */
  expires?: number | string;
  unit?: ShareUnit;
  /** A new password, or '' / null to remove it (a new password ends what the old one unlocked). */
  password?: string | null;
  mode?: ShareMode;
  /** '' or null removes it. 3–64 of [a-z0-9-], not starting or ending with '-', not reserved, unique. */
  slug?: string | null;
  disabled?: boolean;
  maxDownloads?: number;
  upload?: Partial<UploadLimits>;
  webhookUrl?: string | null;
}

/** One line of a link's access log (`GET /api/share/:hash/log`), newest first. */
export interface ShareAccess {
  id: number;
  time: number; // unix ms
  kind: 'view' | 'download' | 'upload' | 'password-failed' | 'refused';
  /** Share-relative path of what was reached ('/' = the shared item). */
  path: string;
  /** The visitor's address, anonymised (IPv4 /24, IPv6 /48) unless the admin turned that off. */
  address: string;
  /** Browser or client family ("Firefox", "curl", "Other"): never the whole User-Agent. */
  agent: string;
  /** Bytes uploaded (upload lines). */
  bytes?: number;
}

/** An in-app notification (`GET /api/notifications`): files arrived through a file request, batched per link. */
export interface AppNotification {
  id: number;
  time: number; // unix ms, the last arrival in the batch
  kind: 'share-upload';
  hash: string;
  /** The shared folder's name, for the list. */
  name: string;
  files: number;
  bytes: number;
  read: boolean;
}

/**
 * What a file request still accepts, as `GET /api/public/share/<hash>/` returns it in `upload` for upload modes
 * (decision 0051): the owner's limits minus what already arrived. `maxFileSize` 0 / `allowedTypes` [] = no limit of
 * that kind; the remaining counts are null when the link has no such limit (0 means nothing more is accepted).
 */
export interface PublicUploadRoom {
  maxFileSize: number;
  /** Bytes the link still accepts (its total limit minus what arrived); null = no total limit. */
  remainingBytes: number | null;
  /** Files the link still accepts; null = no count limit. */
  remainingFiles: number | null;
  allowedTypes: readonly string[];
}

/** Admin settings of public links (`settings.shares`). */
export interface ShareSettings {
  /** Keep visitors' whole addresses in access logs (otherwise IPv4 /24, IPv6 /48). */
  logFullAddresses: boolean;
  /** Let webhooks reach loopback, private and link-local addresses (off: refused, against SSRF). */
  webhookPrivateHosts: boolean;
}
