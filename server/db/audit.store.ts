import type { AuditAction, AuditEntry, AuditOutcome } from '../contract/audit';
import { escapeLike, type Sql } from './sql';

/** A row to write: everything but the id. */
export type AuditRow = Omit<AuditEntry, 'id'>;

export interface AuditQuery {
  /** Acting user's name, case-insensitive. */
  user?: string;
  /** An action ("share.used") or a family ("share" = every share.* action). */
  action?: string;
  since?: number;
  until?: number;
  /** Text found in the user name, address, target or detail (case-insensitive). */
  text?: string;
  /** Only entries after this one in the order (paging, newest first): its time and id. */
  after?: { time: number; id: number };
  limit: number;
}

interface Raw {
  id: number;
  time: number;
  userId: number | null;
  userName: string;
  address: string;
  action: string;
  target: string;
  detail: string;
  outcome: string;
}

const SELECT = 'SELECT id, time, user_id AS "userId", user_name AS "userName", address, action, target, detail, outcome FROM audit';
const INSERT = 'INSERT INTO audit (time, user_id, user_name, address, action, target, detail, outcome)';
const like = (s: string) => `%${escapeLike(s.toLowerCase())}%`;

function fromRow(r: Raw): AuditEntry {
  let detail: Record<string, unknown> = {};
  try {
    detail = JSON.parse(r.detail) as Record<string, unknown>;
  } catch {
    // a row written by hand: shown without detail
  }
  return { ...r, id: Number(r.id), time: Number(r.time), userId: r.userId === null ? null : Number(r.userId), action: r.action as AuditAction, outcome: r.outcome as AuditOutcome, detail };
}

/** SQL for the audit log: append, query newest first with filters, purge by age. */
export class AuditStore {
  constructor(private readonly db: Sql) {}

  private values(e: AuditRow): unknown[] {
    return [e.time, e.userId, e.userName, e.address, e.action, e.target, JSON.stringify(e.detail), e.outcome];
  }

  /** Appends one entry: a single INSERT. */
  async insert(e: AuditRow): Promise<void> {
    await this.db.run(`${INSERT} VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, ...this.values(e));
  }

  /**
   * Appends `e` unless an entry with the same action, target and address exists since `since`: one statement, so
   * every process and instance on the database shares the throttle. True when a row was written.
   */
  async insertUnlessSince(e: AuditRow, since: number): Promise<boolean> {
    const r = await this.db.run(
      // Typed: PostgreSQL cannot infer a SELECT list's parameter types from the INSERT's columns.
      `${INSERT} SELECT CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT) WHERE NOT EXISTS (SELECT 1 FROM audit WHERE action = ? AND target = ? AND address = ? AND time >= ?)`,
      ...this.values(e), e.action, e.target, e.address, since,
    );
    return r.changes > 0;
  }

  /** Entries matching every given filter, newest first. */
  async query(q: AuditQuery): Promise<AuditEntry[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (q.user) {
      where.push('lower(user_name) = ?');
      params.push(q.user.toLowerCase());
    }
    if (q.action) {
      where.push("(action = ? OR action LIKE ? ESCAPE '\\')");
      params.push(q.action, `${escapeLike(q.action)}.%`);
    }
    if (q.since !== undefined) {
      where.push('time >= ?');
      params.push(q.since);
    }
    if (q.until !== undefined) {
      where.push('time <= ?');
      params.push(q.until);
    }
    if (q.text) {
      where.push("(lower(user_name) LIKE ? ESCAPE '\\' OR lower(address) LIKE ? ESCAPE '\\' OR lower(target) LIKE ? ESCAPE '\\' OR lower(detail) LIKE ? ESCAPE '\\')");
      const t = like(q.text);
      params.push(t, t, t, t);
    }
    if (q.after) {
      where.push('(time < ? OR (time = ? AND id < ?))');
      params.push(q.after.time, q.after.time, q.after.id);
    }
    // By time, not id alone: rows copied or imported from elsewhere can carry older times under newer ids.
    const sql = `${SELECT}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY time DESC, id DESC LIMIT ?`;
    return (await this.db.all<Raw>(sql, ...params, q.limit)).map(fromRow);
  }

  /** Deletes entries older than `before` (unix ms); returns how many went. */
  async purge(before: number): Promise<number> {
    return (await this.db.run('DELETE FROM audit WHERE time < ?', before)).changes;
  }
}
