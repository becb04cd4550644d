import type { Sql } from './sql';

/** What a ticket or challenge is for. */
export type TicketKind = 'second-factor' | 'enrol-second-factor' | 'passkey-login' | 'passkey-register';

/** A login ticket (after the first factor) or a WebAuthn challenge: short-lived, single-use, bound to an address. */
export interface TicketRow {
  id: string;
  userId: number | null;
  kind: TicketKind;
  payload: Record<string, unknown>;
  address: string;
  expiresAt: number;
  attempts: number;
}

type Raw = { id: string; userId: number | string | null; kind: TicketKind; payload: string; address: string; expiresAt: number | string; attempts: number | string };
const SELECT = 'SELECT id, user_id AS "userId", kind, payload, address, expires_at AS "expiresAt", attempts FROM login_tickets';
const row = (r: Raw | null): TicketRow | null =>
  r ? { id: r.id, userId: r.userId === null ? null : Number(r.userId), kind: r.kind, payload: JSON.parse(r.payload) as Record<string, unknown>, address: r.address, expiresAt: Number(r.expiresAt), attempts: Number(r.attempts) } : null;

/** login_tickets: SQL only. */
export class LoginTicketsStore {
  constructor(private readonly db: Sql) {}

  async create(t: TicketRow, now: number): Promise<void> {
    await this.db.run('DELETE FROM login_tickets WHERE expires_at <= ?', now);
    await this.db.run(
      'INSERT INTO login_tickets (id, user_id, kind, payload, address, expires_at, attempts) VALUES (?, ?, ?, ?, ?, ?, 0)',
      t.id, t.userId, t.kind, JSON.stringify(t.payload), t.address, t.expiresAt,
    );
  }

  /** A live ticket (not expired). */
  async get(id: string, now: number): Promise<TicketRow | null> {
    return row(await this.db.get<Raw>(`${SELECT} WHERE id = ? AND expires_at > ?`, id, now));
  }

  /** Takes the ticket away (single use): true for exactly one of concurrent callers. */
  async consume(id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM login_tickets WHERE id = ?', id)).changes === 1;
  }

  /** Counts one wrong answer; the ticket ends at `max`. Returns the count. */
  async failed(id: string, max: number): Promise<number> {
    const r = await this.db.get<{ attempts: number | string }>('UPDATE login_tickets SET attempts = attempts + 1 WHERE id = ? RETURNING attempts', id);
    const n = Number(r?.attempts ?? max);
    if (n >= max) await this.consume(id);
    return n;
  }

  async setPayload(id: string, payload: Record<string, unknown>): Promise<void> {
    await this.db.run('UPDATE login_tickets SET payload = ? WHERE id = ?', JSON.stringify(payload), id);
  }

  async deleteForUser(userId: number): Promise<void> {
    await this.db.run('DELETE FROM login_tickets WHERE user_id = ?', userId);
  }
}
