/** Wire types of the trash, shared by the server and the web app. Keep them free of imports. */

/** Global trash settings (settings key `trash`). */
export interface TrashSettings {
  /** DELETE moves items to the trash (true) or deletes them for good (false). */
  enabled: boolean;
  /** Items older than this many days are deleted for good (0 = kept until the size cap or an empty). */
  retentionDays: number;
  /** Bytes each user's trash may hold; the oldest items go first past it (0 = no cap). */
  maxBytes: number;
}

/** A user's own trash settings over the global ones (the user field `trash`; null = the global settings). */
export type TrashOverride = Partial<TrashSettings>;

/** One trashed item as the API lists it. */
export interface TrashItem {
  id: string;
  name: string;
  /** The folder it was deleted from, as a path of the deleting user's scope. */
  originalPath: string;
  ownerId: number;
  /** The owner's username (for admins listing every user's trash). */
  owner?: string;
  deletedBy: number | null;
  /** Unix milliseconds. */
  deletedAt: number;
  size: number;
  isDir: boolean;
}

/** What a restore does when something now holds the original name: 409 (default), replace it, or keep both. */
export type RestoreConflict = 'fail' | 'replace' | 'rename';
