import { HOOK_NAMES, type HookName, type Settings } from '../../contract/settings';
import type { UserDefaults } from '../../contract/user';
import { DEFAULT_EXTRACTION_LIMITS } from '../../contract/job';
import { DEFAULT_AUDIT_RETENTION_DAYS } from '../../contract/audit';
import { defaultAccountSettings } from '../sso/sso-settings';

export { LOCALES } from '../../contract/locales';

/** Permissions for new users. Unlike the reference, execute is off by default: running commands is opt-in. */
export function defaultUserTemplate(): UserDefaults {
  return {
    scope: '.',
    locale: 'en',
    lockPassword: false,
    viewMode: 'mosaic',
    singleClick: false,
    redirectAfterCopyMove: true,
    perm: { admin: false, execute: false, create: true, rename: true, modify: true, delete: true, share: true, download: true },
    commands: [],
    sorting: { by: 'name', asc: false },
    hideDotfiles: false,
    dateFormat: false,
    aceEditorTheme: '',
    theme: '',
  };
}

export function emptyCommands(): Record<HookName, string[]> {
  return Object.fromEntries(HOOK_NAMES.map((h) => [h, []])) as unknown as Record<HookName, string[]>;
}

export function defaultSettings(): Settings {
  return {
    signup: false,
    createUserDir: false,
    userHomeBasePath: '/users',
    minimumPasswordLength: 12,
    auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
    authMethod: 'json',
    authHeader: 'X-Forwarded-User',
    rules: [],
    branding: { name: '', disableExternal: false, disableUsedPercentage: false, files: '', theme: '', color: '' },
    tus: { chunkSize: 10 * 1024 * 1024, retryCount: 5 },
    shell: [],
    commands: emptyCommands(),
    defaults: defaultUserTemplate(),
    trash: { enabled: true, retentionDays: 30, maxBytes: 0 },
    webdav: { enabled: true, allowPasswords: true, macMetadata: 'ignore' },
    versions: { enabled: true, maxAgeDays: 365, maxPerFile: 100, maxBytesPerUser: 0, maxFreeSharePercent: 20 },
    quotaPrunesTrash: false,
    extraction: { ...DEFAULT_EXTRACTION_LIMITS },
    shares: { logFullAddresses: false, webhookPrivateHosts: false },
    ...defaultAccountSettings(),
  };
}
