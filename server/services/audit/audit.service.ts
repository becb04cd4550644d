import { AUDIT_ACTIONS, DEFAULT_AUDIT_RETENTION_DAYS, type AuditAction, type AuditOutcome, type AuditPage } from '../../contract/audit';
import { AppError, invalid } from '../../core/errors';
import type { Logger } from '../../core/log';
import type { AuditStore } from '../../db/audit.store';
import type { Actor } from '../actor';
import { escapeUnsafe } from '../../core/terminal-safe';
import { parseTimeBound } from './audit-time';

/** Who did it: a user (or nobody: the CLI, an anonymous visitor) and the address it came from. */
export interface AuditWho {
  userId: number | null;
  userName: string;
  address: string;
}

/** The CLI and other trusted callers without a user are recorded under this name and address. */
export const CLI_WHO: AuditWho = { userId: null, userName: 'cli', address: 'cli' };

/** An anonymous visitor at an address (failed logins, public share access, signup). */
export const anonymous = (address: string): AuditWho => ({ userId: null, userName: '', address });

/** The recorded identity of an actor: its user and the address its request came from. */
export function whoOf(actor: Actor | AuditWho): AuditWho {
  if ('userName' in actor) return actor;
  if (!actor.user) return { ...CLI_WHO, address: actor.address ?? CLI_WHO.address };
  return { userId: actor.user.id, userName: actor.user.username, address: actor.address ?? CLI_WHO.address };
}

/** One "share.used" row per share per address per this long. */
export const SHARE_USED_THROTTLE_MS = 60_000;
/** Longest name an anonymous visitor typed that is recorded (characters, after escaping). */
export const TRIED_NAME_CAP = 128;

/**
 * A name an anonymous visitor typed (a failed login's username), as recorded: its control and bidi characters
 * escaped (never stored raw) and cut to TRIED_NAME_CAP, marked with "..." when cut.
 */
export function triedName(name: string): string {
  const shown = escapeUnsafe(name.length > TRIED_NAME_CAP * 2 ? name.slice(0, TRIED_NAME_CAP * 2) : name);
  return shown.length > TRIED_NAME_CAP ? `${shown.slice(0, TRIED_NAME_CAP)}...` : shown;
}
const MAX_LIMIT = 500;
const TEXT_CAP = 1024;

export interface AuditFilter {
  user?: string;
  action?: string;
  /** See parseTimeBound: "2d", a date, or unix milliseconds. */
  since?: string;
  until?: string;
  text?: string;
  limit?: number;
  cursor?: string;
}

/**
 * The audit log's one home: services call `record` for every security-relevant event (logins, user, permission
 * and settings changes, shares, deletes, commands, imports, ended sessions). Each entry is one INSERT; a failure
 * to write is logged and never fails the action it describes. Passwords are never recorded: callers pass field
 * names, not values.
 */
export class AuditService {
  constructor(
    private readonly store: AuditStore,
    private readonly log: Logger,
    private readonly retentionDays: () => number = () => DEFAULT_AUDIT_RETENTION_DAYS,
    private readonly now: () => number = Date.now,
  ) {}

  private row(who: Actor | AuditWho, action: AuditAction, target: string, detail: Record<string, unknown>, outcome: AuditOutcome) {
    const w = whoOf(who);
    return { time: this.now(), userId: w.userId, userName: w.userName.slice(0, 256), address: escapeUnsafe(w.address.slice(0, 256)), action, target: target.slice(0, TEXT_CAP), detail, outcome };
  }

  /** Records one event. */
  async record(who: Actor | AuditWho, action: AuditAction, target: string, detail: Record<string, unknown> = {}, outcome: AuditOutcome = 'ok'): Promise<void> {
    try {
      await this.store.insert(this.row(who, action, target, detail, outcome));
    } catch (e) {
      this.log.warn(`audit: could not record ${action} ${target}: ${(e as Error).message}`);
    }
  }

  /** A public share was opened: recorded at most once per share per address per minute (across instances). */
  async shareUsed(hash: string, address: string): Promise<void> {
    try {
      await this.store.insertUnlessSince(this.row(anonymous(address), 'share.used', hash, {}, 'ok'), this.now() - SHARE_USED_THROTTLE_MS);
    } catch (e) {
      this.log.warn(`audit: could not record share.used ${hash}: ${(e as Error).message}`);
    }
  }

  /** Entries newest first, filtered; the cursor of a page continues after its last entry. */
  async list(f: AuditFilter): Promise<AuditPage> {
    const limit = f.limit ?? 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw invalid(`limit must be a whole number from 1 to ${MAX_LIMIT}`);
    if (f.action && !AUDIT_ACTIONS.some((a) => a === f.action || a.startsWith(`${f.action}.`))) throw invalid(`unknown action "${f.action}"`);
    const at = f.cursor === undefined ? null : /^(\d{1,15})\.(\d{1,15})$/.exec(f.cursor);
    if (f.cursor !== undefined && !at) throw invalid('cursor must come from a previous page');
    const now = this.now();
    const since = f.since ? parseTimeBound(f.since, 'since', now) : undefined;
    const until = f.until ? parseTimeBound(f.until, 'until', now) : undefined;
    if (since !== undefined && until !== undefined && since > until) throw invalid('since must not be after until');
    const entries = await this.store.query({ user: f.user || undefined, action: f.action || undefined, since, until, text: f.text?.slice(0, 256) || undefined, after: at ? { time: Number(at[1]), id: Number(at[2]) } : undefined, limit: limit + 1 });
    const more = entries.length > limit;
    const page = more ? entries.slice(0, limit) : entries;
    const last = page.at(-1);
    return { entries: page, next: more && last ? `${last.time}.${last.id}` : null };
  }

  /** Deletes entries older than the retention setting; returns how many went. */
  async purge(): Promise<number> {
    const days = this.retentionDays();
    if (!Number.isFinite(days) || days < 1) throw new AppError('INTERNAL', 'auditRetentionDays must be at least 1');
    return this.store.purge(this.now() - days * 86_400_000);
  }
}
