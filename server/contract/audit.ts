/**
 * The audit log as the API returns it and the web app shows it. Shared by server and web: the list of actions
 * (the Audit screen's filter) and the outcomes live here once.
 */
export const AUDIT_ACTIONS = [
  'login', 'logout',
  'user.create', 'user.update', 'user.permissions', 'user.delete', 'users.import', 'import.filebrowser',
  'settings.update', 'config.import',
  'share.create', 'share.update', 'share.used', 'share.delete',
  'file.delete', 'version.restore', 'version.delete', 'command.run', 'sessions.end',
  'token.create', 'token.delete', 'token.auth',
  'login.totp', 'login.recovery', 'login.passkey',
  'factors.totp.enable', 'factors.totp.disable', 'factors.recovery.regenerate', 'factors.passkey.add', 'factors.passkey.rename',
  'factors.passkey.remove', 'factors.reset', 'factors.required',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** ok: done; failed: wrong credentials or an error; denied: refused by a permission; limited: rate-limited. */
export const AUDIT_OUTCOMES = ['ok', 'failed', 'denied', 'limited'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export interface AuditEntry {
  id: number;
  /** Unix milliseconds. */
  time: number;
  /** The acting user's id then (null for the CLI and anonymous visitors); the name is kept as it was. */
  userId: number | null;
  userName: string;
  /** The client's address as the server saw it ("cli" for the command line). */
  address: string;
  action: AuditAction;
  target: string;
  detail: Record<string, unknown>;
  outcome: AuditOutcome;
}

/** One page of entries, newest first; `next` is the cursor for the following page (null at the end). */
export interface AuditPage {
  entries: AuditEntry[];
  next: string | null;
}

/** Default retention of audit entries in days (setting `auditRetentionDays`). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 90;
/** The whole numbers of days `auditRetentionDays` may hold: the server's validation and the settings form read this. */
export const AUDIT_RETENTION_DAYS_RANGE = { min: 1, max: 36500 } as const;
