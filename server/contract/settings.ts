import type { AccountSettings, SsoProviderInfo } from './accounts';
import type { ExtractionLimits } from './job';
import type { TrashSettings } from './trash';
import type { VersionSettings } from './versions';
import type { WebdavSettings } from './dav';
import type { ShareSettings } from './share';
import type { Rule, UserDefaults } from './user';

export const EVENTS = ['upload', 'save', 'copy', 'rename', 'delete'] as const;
export const HOOK_NAMES = EVENTS.flatMap((e) => [`before_${e}`, `after_${e}`]) as HookName[];
export type HookName = `${'before' | 'after'}_${(typeof EVENTS)[number]}`;

export type AuthMethod = 'json' | 'noauth' | 'proxy';

/** How runner commands and hooks run: inside bubblewrap, unconfined (admin's explicit unsafe flag), or not at all. */
export type ExecSandbox = 'bubblewrap' | 'none-unsafe' | 'off';

export interface Branding {
  name: string;
  disableExternal: boolean;
  disableUsedPercentage: boolean;
  files: string;
  theme: '' | 'light' | 'dark';
  color: string;
}

/** Run-time product settings (admin-editable, stored in SQLite). The signing key is never part of this. */
export interface Settings extends AccountSettings {
  signup: boolean;
  createUserDir: boolean;
  userHomeBasePath: string;
  minimumPasswordLength: number;
  /** Audit entries older than this many days are purged (hourly). */
  auditRetentionDays: number;
  authMethod: AuthMethod;
  authHeader: string;
  rules: Rule[];
  branding: Branding;
  tus: { chunkSize: number; retryCount: number };
  shell: string[];
  commands: Record<HookName, string[]>;
  defaults: UserDefaults;
  /** Deleted items go to a per-user trash (contract/trash.ts). */
  trash: TrashSettings;
  /** Overwritten files keep their old content as versions (contract/versions.ts). */
  versions: VersionSettings;
  /** The WebDAV endpoint (contract/dav.ts). */
  webdav: WebdavSettings;
  /** A write over a full quota first deletes the user's oldest trash items and versions to make room (then 507). */
  quotaPrunesTrash: boolean;
  /** What one archive extraction may write (contract/job.ts). */
  extraction: ExtractionLimits;
  /** Public links (contract/share.ts). */
  shares: ShareSettings;
}

/** Fields that PUT /api/settings may change; authMethod and authHeader are CLI-only, as in the reference. */
export const SETTINGS_PUT_FIELDS = [
  'signup', 'createUserDir', 'userHomeBasePath', 'minimumPasswordLength', 'auditRetentionDays', 'rules', 'branding', 'tus', 'shell',
  'commands', 'defaults', 'trash', 'extraction', 'oidc', 'ldap', 'twoFactor', 'localLogin', 'versions', 'quotaPrunesTrash', 'webdav', 'shares',
] as const;

/** Page configuration injected into index.html (spec §3 "Page configuration flags"). */
export interface PageConfig {
  Name: string;
  DisableExternal: boolean;
  DisableUsedPercentage: boolean;
  BaseURL: string;
  StaticURL: string;
  ReCaptcha: boolean;
  ReCaptchaKey: string;
  Signup: boolean;
  Version: string;
  NoAuth: boolean;
  AuthMethod: AuthMethod;
  LoginPage: boolean;
  LogoutPage: string;
  Theme: '' | 'light' | 'dark';
  EnableThumbs: boolean;
  /** Read-only: which preview programs can run here (pdftoppm, ffmpeg, heif-convert found, and sandboxed); the info prompt says when one is missing. */
  ThumbTools: { pdf: boolean; video: boolean; heic: boolean };
  /** Read-only: how those programs run; 'off' (bubblewrap unusable, no unsafe flag) turns them off and the info prompt says so. */
  ThumbSandbox: ExecSandbox;
  ResizePreview: boolean;
  EnableExec: boolean;
  /** Read-only: whether commands run sandboxed (the settings screen says so next to the runner fields). */
  ExecSandbox: ExecSandbox;
  TusSettings: { chunkSize: number; retryCount: number };
  CSS: boolean;
  Color: string;
  /** Sign-in buttons of the login page (OpenID Connect when enabled). */
  Sso: SsoProviderInfo[];
  /** The username and password form is shown (settings.localLogin, or LDAP sign-in on). */
  LocalLogin: boolean;
  /** Passkey sign-in is offered on the login page. */
  Passkeys: boolean;
  /** The WebDAV endpoint answers (settings.webdav.enabled): the Security page shows how to connect. */
  WebDAV: boolean;
}
