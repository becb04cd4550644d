/**
 * Wire types of file versions and quotas (issue 35), shared by the server and the web app. The endpoints are listed
 * in docs/decisions/0047-versions-and-quotas-api.md. Keep this file free of imports.
 */

/** What replaced the content a version keeps. */
export type VersionCause = 'save' | 'upload' | 'copy' | 'move' | 'extract' | 'restore' | 'version-restore';

/** One kept version of a file, newest first in lists. */
export interface VersionInfo {
  id: string;
  /** When this content stopped being current (unix ms). */
  replacedAt: number;
  /** When this content was written (its modification time then, unix ms). */
  modified: number;
  size: number;
  /** Who replaced it (username), or '' for the system or a removed user. */
  replacedBy: string;
  cause: VersionCause;
}

/** Global version settings (settings key `versions`). */
export interface VersionSettings {
  /** Overwrites keep the old content as a version (false: the old content goes to the trash, as before). */
  enabled: boolean;
  /** Versions older than this many days are pruned (0 = no age limit; the staggered thinning still applies). */
  maxAgeDays: number;
  /** Versions each file keeps at most, the oldest pruned first (0 = no count limit). */
  maxPerFile: number;
  /** Bytes each user's versions may hold, the oldest pruned first (0 = no cap). */
  maxBytesPerUser: number;
  /** Versions never take more than this share of the free space of the files' disk (percent, 1–100). */
  maxFreeSharePercent: number;
}

/** A user's own version settings over the global ones (the user field `versions`; null = the global settings). */
export type VersionOverride = Partial<VersionSettings>;

/** A user's quota (the user field `quota`; null or absent = no quota). 0 in a field = no limit on that measure. */
export interface Quota {
  bytes: number;
  files: number;
}

/** What a scope holds against its quota (GET /api/account/usage, and `usage` of users in admin lists). */
export interface QuotaUsage {
  /** Bytes of files under the scope, plus the user's trash and versions. */
  bytes: number;
  files: number;
  trashBytes: number;
  versionsBytes: number;
  /** The quota that applies (null = none). */
  quota: Quota | null;
  /** When the usage was last reconciled with the disk (unix ms). */
  checkedAt: number;
}
