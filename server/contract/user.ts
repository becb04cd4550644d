/** Wire types shared by the server and the web app. Keep them free of imports (type-only ones of contract/ aside). */
import type { TrashOverride } from './trash';
import type { Quota, QuotaUsage, VersionOverride } from './versions';

export const PERMISSIONS = ['admin', 'execute', 'create', 'rename', 'modify', 'delete', 'share', 'download'] as const;
export type PermName = (typeof PERMISSIONS)[number];
export type Permissions = Record<PermName, boolean>;

export type ViewMode = 'list' | 'mosaic' | 'mosaic gallery';
export const VIEW_MODES: readonly ViewMode[] = ['list', 'mosaic', 'mosaic gallery'];

export type SortBy = 'name' | 'size' | 'modified';
export interface Sorting {
  by: SortBy | '';
  asc: boolean;
}

export type Theme = '' | 'light' | 'dark';

export interface Rule {
  allow: boolean;
  regex: boolean;
  path: string;
  regexp: { raw: string } | null;
}

/** The user as the API returns it (password always ""). */
export interface User {
  id: number;
  username: string;
  password: string;
  scope: string;
  locale: string;
  lockPassword: boolean;
  viewMode: ViewMode;
  singleClick: boolean;
  redirectAfterCopyMove: boolean;
  perm: Permissions;
  commands: string[];
  sorting: Sorting;
  rules: Rule[];
  hideDotfiles: boolean;
  dateFormat: boolean;
  aceEditorTheme: string;
  theme: Theme;
  /** This user's trash settings over the global ones (admins set it); null or absent = the global settings. */
  trash?: TrashOverride | null;
  /** This user's version settings over the global ones (admins set it); null or absent = the global settings. */
  versions?: VersionOverride | null;
  /** What may be stored under this user's scope (with their trash and versions); null or absent = no quota. */
  quota?: Quota | null;
  /** This user may use WebDAV (`<baseURL>/dav/`); absent = true. Admins set it. */
  webdav?: boolean;
}

/** A user as admin lists (and a user reading themselves) show it: with what their scope holds (issue 35). */
export interface UserWithUsage extends User {
  usage?: QuotaUsage;
}

/** The user object carried in the login token payload and read by the client. */
export type TokenUser = Omit<User, 'password' | 'scope' | 'rules'>;

/** The defaults applied to new users (a user template without identity). */
export type UserDefaults = Omit<User, 'id' | 'username' | 'password' | 'rules'>;

export const USER_FIELDS = [
  'username', 'password', 'scope', 'locale', 'lockPassword', 'viewMode', 'singleClick', 'redirectAfterCopyMove',
  'perm', 'commands', 'sorting', 'rules', 'hideDotfiles', 'dateFormat', 'aceEditorTheme', 'theme', 'trash', 'versions', 'quota', 'webdav',
] as const;
export type UserField = (typeof USER_FIELDS)[number];

/**
 * A user as the server stores it: `password` holds the bcrypt hash; updatedAt is unix milliseconds. Server-side
 * only: the API sends `publicUser()` of it (no hash), never this record.
 */
export interface StoredUser extends User {
  updatedAt: number;
}
