import { AppError, unauthorized } from '../../core/errors';
import type { LoginTicketsStore, TicketKind, TicketRow } from '../../db/login-tickets.store';
import { factorLimits } from '../auth/limits';
import type { RateLimiter } from '../auth/rate-limiter';

/** How long a ticket or challenge lives. */
export const TICKET_TTL_MS = 5 * 60_000;
/** Wrong answers that end a ticket. */
export const TICKET_MAX_ATTEMPTS = 5;

const newId = () => Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url');

/**
 * Login tickets (what a right password gives when a second step is needed) and WebAuthn challenges: rows, so every
 * instance sees them; single-use (taken by one DELETE), 5 minutes, bound to the address they were given to. Making
 * one is rate-limited per address (passwordless options need no password first).
 */
export class LoginTickets {
  constructor(private readonly store: LoginTicketsStore, private readonly limits: RateLimiter, private readonly now: () => number = Date.now) {}

  async issue(kind: TicketKind, userId: number | null, payload: Record<string, unknown>, address: string): Promise<string> {
    await this.limits.reserve(factorLimits.ticket(address), 'too many sign-in attempts from this address, try again later');
    const id = newId();
    const now = this.now();
    await this.store.create({ id, userId, kind, payload, address, expiresAt: now + TICKET_TTL_MS, attempts: 0 }, now);
    return id;
  }

  /**
   * A live ticket of one of `kinds`, given to this address; otherwise 401 (sign in again). Not taken: the caller
   * takes it (`take`) once the answer was right.
   */
  async open(id: unknown, address: string, kinds: TicketKind[]): Promise<TicketRow> {
    if (typeof id !== 'string' || id.length === 0 || id.length > 64) throw new AppError('INVALID', 'the ticket or challenge id is missing');
    const t = await this.store.get(id, this.now());
    if (!t || !kinds.includes(t.kind) || t.address !== address) throw unauthorized('the sign-in step expired or is unknown: sign in again');
    return t;
  }

  /** Takes the ticket; 401 when another request took it first. */
  async take(id: string): Promise<void> {
    if (!(await this.store.consume(id))) throw unauthorized('the sign-in step was already used: sign in again');
  }

  /** Counts a wrong answer; the fifth ends the ticket. */
  async wrong(id: string): Promise<void> {
    await this.store.failed(id, TICKET_MAX_ATTEMPTS);
  }

  async update(id: string, payload: Record<string, unknown>): Promise<void> {
    await this.store.setPayload(id, payload);
  }

  async dropUser(userId: number): Promise<void> {
    await this.store.deleteForUser(userId);
  }
}
