import { AppError } from '../../core/errors';
import type { HealthStore } from '../../db/health.store';

/** A readiness condition: resolves to null when fine, or a short message saying what is not ready. */
export type ReadyCheck = () => Promise<string | null>;

/** A state that is reported by /ready without deciding readiness (the name index: building, ready, lagging). */
export type ReadyInfo = () => Promise<string>;

export interface ReadyResult {
  ready: boolean;
  checks: { name: string; ok: boolean; message?: string; state?: string }[];
}

/** How long the active-session count is reused: /metrics scrapes must not turn into a query per scrape each. */
const SESSIONS_TTL_MS = 5000;

/**
 * Liveness and readiness. `/ready` runs every registered check with a time limit; the database is always one.
 * Other parts (the search index, jobs) add theirs with `addCheck` when they are wired.
 */
export class HealthService {
  private readonly checks = new Map<string, ReadyCheck>();
  private readonly infos = new Map<string, ReadyInfo>();
  private sessions: { at: number; n: Promise<number> } | null = null;

  constructor(private readonly store: HealthStore) {
    this.addCheck('database', async () => {
      await this.store.ping();
      return null;
    });
  }

  /** Registers a readiness check under a unique name (e.g. "index": "initial scan running"). */
  addCheck(name: string, check: ReadyCheck): void {
    if (this.checks.has(name) || this.infos.has(name)) throw new Error(`readiness check ${name} is registered twice`);
    this.checks.set(name, check);
  }

  /**
   * Registers a state /ready names without failing on it: the instance serves while its name index builds or lags
   * (search then walks the folders), so a load balancer must not take it out for that.
   */
  addInfo(name: string, info: ReadyInfo): void {
    if (this.checks.has(name) || this.infos.has(name)) throw new Error(`readiness entry ${name} is registered twice`);
    this.infos.set(name, info);
  }

  /** Runs every check at once, each limited to `timeoutMs`; a check that throws or times out is not ready. */
  async ready(timeoutMs = 2000): Promise<ReadyResult> {
    const run = async ([name, check]: [string, ReadyCheck]) => {
      let timer: Timer | undefined;
      const limit = new Promise<string>((r) => (timer = setTimeout(() => r(`no answer within ${timeoutMs} ms`), timeoutMs)));
      const message = await Promise.race([check().catch((e) => describe(e)), limit]).finally(() => clearTimeout(timer));
      return message ? { name, ok: false, message } : { name, ok: true };
    };
    const info = async ([name, read]: [string, ReadyInfo]) => ({ name, ok: true, state: await read().catch(() => 'unknown') });
    const [checks, infos] = await Promise.all([Promise.all([...this.checks].map(run)), Promise.all([...this.infos].map(info))]);
    return { ready: checks.every((c) => c.ok), checks: [...checks, ...infos] };
  }

  /** Usable sessions across every instance, counted at most every few seconds. */
  activeSessions(now = Date.now()): Promise<number> {
    if (!this.sessions || now - this.sessions.at > SESSIONS_TTL_MS) {
      const n = this.store.activeSessions(now);
      this.sessions = { at: now, n };
      n.catch(() => (this.sessions = null));
    }
    return this.sessions.n;
  }

  /** Jobs of every instance by state (metrics). */
  jobsByState(): Promise<Record<string, number>> {
    return this.store.jobsByState();
  }

  /** The database server's clock (PostgreSQL), or null on SQLite. */
  databaseTime(): Promise<number | null> {
    return this.store.serverTime();
  }
}

/** Our own message for a failed check: an AppError's detail, never a connection string or a stack. */
function describe(e: unknown): string {
  if (e instanceof AppError) return e.detail ?? e.code.toLowerCase();
  return 'unreachable';
}
